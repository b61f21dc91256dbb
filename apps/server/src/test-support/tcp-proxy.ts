import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';

/** A TCP proxy a test can cut and restore. */
export interface TcpProxy {
  /** Where clients connect, e.g. `redis://127.0.0.1:PORT`-ready `127.0.0.1:PORT`. */
  readonly port: number;
  /** Destroys every open connection and refuses new ones (the port stops listening). */
  cut(): Promise<void>;
  /** Listens on the same port again and pipes new connections through. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A TCP proxy in front of `target` (the machine's shared Redis in the bus outage tests): cutting
 * it looks to a client like the server went away, without touching the server itself.
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server: Server = createServer((client) => {
    track(client);
    const upstream = tcpConnect(target.port, target.host);
    track(upstream);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no port');
  const port = address.port;
  const stopListening = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });
  return {
    port,
    async cut() {
      await stopListening();
    },
    async restore() {
      if (!server.listening) await listen(port);
    },
    async close() {
      await stopListening();
    },
  };
}
