import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';

/**
 * A TCP proxy in front of `target` (the machine's shared Redis in the bus tests): cutting, stalling
 * or holding it looks to a client like the server went away, stopped answering or answered late on
 * one connection, without touching the server itself.
 */
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
  /**
   * From now on, keeps what the target sends to connections named `name` (ioredis sends CLIENT
   * SETNAME first thing) while every other connection flows: a node's pub/sub messages then arrive
   * late against the replies on its command connection, an order a busy machine can produce.
   */
  hold(name: string): void;
  /** How many chunks are held for `name`. */
  held(name: string): number;
  /** Destroys the open connections named `name` (the client reconnects, as after a network blip). */
  drop(name: string): void;
  /**
   * The next chunk a connection named `name` sends that matches `pattern` does not reach the
   * target: `cut` destroys the connection with it (it dropped as the command went out), `swallow`
   * drops the chunk alone (the client waits for an answer that never comes). Resolves then.
   */
  intercept(name: string, pattern: RegExp, action: 'cut' | 'swallow'): Promise<void>;
  /** Passes on the oldest `count` held chunks (all when omitted, and stops holding `name`). */
  release(name: string, count?: number): void;
  close(): Promise<void>;
}

interface Interception {
  name: string;
  pattern: RegExp;
  action: 'cut' | 'swallow';
  done: () => void;
}

interface Connection {
  client: Socket;
  upstream: Socket;
  /** The name the client gave itself with CLIENT SETNAME, once seen. */
  name: string | null;
  held: Buffer[];
}

const SET_NAME = /setname\r\n\$\d+\r\n([^\r]+)\r\n/i;

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const connections = new Set<Connection>();
  const holding = new Set<string>();
  const interceptions: Interception[] = [];
  let stalled = false;
  const server: Server = createServer((client) => {
    const upstream = tcpConnect(target.port, target.host);
    const connection: Connection = { client, upstream, name: null, held: [] };
    connections.add(connection);
    for (const socket of [client, upstream]) {
      socket.on('error', () => socket.destroy());
      socket.on('close', () => {
        connections.delete(connection);
        client.destroy();
        upstream.destroy();
      });
      // Paused sockets keep what arrives in the kernel's buffers until `restore` resumes them.
      if (stalled) socket.pause();
    }
    client.on('data', (chunk: Buffer) => {
      const text = chunk.toString('latin1');
      connection.name ??= SET_NAME.exec(text)?.[1] ?? null;
      const caught = interceptions.findIndex(
        (interception) => interception.name === connection.name && interception.pattern.test(text),
      );
      if (caught >= 0) {
        const [interception] = interceptions.splice(caught, 1);
        if (interception?.action === 'cut') {
          client.destroy();
          upstream.destroy();
        }
        interception?.done();
        return;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (connection.name !== null && holding.has(connection.name)) connection.held.push(chunk);
      else client.write(chunk);
    });
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
      for (const { client, upstream } of connections) {
        client.destroy();
        upstream.destroy();
      }
      if (!server.listening) return resolve();
      server.close(() => resolve());
    });
  const named = (name: string) => [...connections].filter((connection) => connection.name === name);
  return {
    port,
    cut: stopListening,
    stall() {
      stalled = true;
      for (const { client, upstream } of connections) {
        client.pause();
        upstream.pause();
      }
    },
    async restore() {
      if (stalled) {
        stalled = false;
        for (const { client, upstream } of connections) {
          client.resume();
          upstream.resume();
        }
      }
      if (!server.listening) await listen(port);
    },
    hold(name) {
      holding.add(name);
    },
    held: (name) => named(name).reduce((sum, connection) => sum + connection.held.length, 0),
    drop(name) {
      for (const { client, upstream } of named(name)) {
        client.destroy();
        upstream.destroy();
      }
    },
    intercept(name, pattern, action) {
      return new Promise((done) => interceptions.push({ name, pattern, action, done }));
    },
    release(name, count = Number.POSITIVE_INFINITY) {
      let left = count;
      for (const connection of named(name)) {
        while (left > 0 && connection.held.length > 0) {
          connection.client.write(connection.held.shift() as Buffer);
          left--;
        }
      }
      if (count === Number.POSITIVE_INFINITY) holding.delete(name);
    },
    close: stopListening,
  };
}
