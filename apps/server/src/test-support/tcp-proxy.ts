import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';

/** A TCP proxy a test can cut, stall and restore. */
export interface TcpProxy {
  /** The port on 127.0.0.1 clients connect to. */
  readonly port: number;
  /** Destroys every open connection and refuses new ones (the port stops listening). */
  cut(): Promise<void>;
  /**
   * Stops carrying bytes either way, connections staying open (a server that stopped answering,
   * or a network that drops packets); what was sent meanwhile arrives after `restore`.
   */
  stall(): void;
  /** Listens on the same port again and carries bytes again. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  upstream: Socket;
}

/**
 * A TCP proxy in front of `target` (the machine's shared Redis in the bus outage tests): cutting
 * or stalling it looks to a client like the server went away, without touching the server itself.
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<Pair>();
  let stalled = false;
  const connectPair = ({ client, upstream }: Pair) => {
    client.pipe(upstream);
    upstream.pipe(client);
  };
  const server: Server = createServer((client) => {
    const upstream = tcpConnect(target.port, target.host);
    const pair = { client, upstream };
    pairs.add(pair);
    for (const socket of [client, upstream]) {
      socket.on('error', () => socket.destroy());
      socket.on('close', () => {
        pairs.delete(pair);
        client.destroy();
        upstream.destroy();
      });
    }
    if (stalled) client.pause();
    else connectPair(pair);
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
      for (const { client, upstream } of pairs) {
        client.destroy();
        upstream.destroy();
      }
      if (!server.listening) return resolve();
      server.close(() => resolve());
    });
  return {
    port,
    cut: stopListening,
    stall() {
      stalled = true;
      for (const { client, upstream } of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    async restore() {
      if (stalled) {
        stalled = false;
        for (const pair of pairs) connectPair(pair);
      }
      if (!server.listening) await listen(port);
    },
    close: stopListening,
  };
}
