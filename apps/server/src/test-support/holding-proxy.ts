import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';

/**
 * A TCP proxy in front of Redis that can hold back what Redis sends to one named connection
 * (ioredis sends CLIENT SETNAME first thing), chunk by chunk, while every other connection flows:
 * it makes a node's pub/sub messages arrive late against the replies on its command connection,
 * the order a busy machine or network can produce.
 */
export interface HoldingProxy {
  readonly port: number;
  /** From now on, keeps what Redis sends to connections named `name` instead of passing it on. */
  hold(name: string): void;
  /** How many chunks are held for `name`. */
  held(name: string): number;
  /** Passes on the oldest `count` held chunks (all when omitted); stops holding when all went. */
  release(name: string, count?: number): void;
  close(): Promise<void>;
}

interface Connection {
  client: Socket;
  upstream: Socket;
  name: string | null;
  held: Buffer[];
}

export async function startHoldingProxy(target: { host: string; port: number }): Promise<HoldingProxy> {
  const connections = new Set<Connection>();
  const holding = new Set<string>();
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
    }
    client.on('data', (chunk: Buffer) => {
      connection.name ??= /setname\r\n\$\d+\r\n([^\r]+)\r\n/i.exec(chunk.toString('latin1'))?.[1] ?? null;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (connection.name !== null && holding.has(connection.name)) connection.held.push(chunk);
      else client.write(chunk);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no port');
  const named = (name: string) => [...connections].filter((connection) => connection.name === name);
  return {
    port: address.port,
    hold(name) {
      holding.add(name);
    },
    held: (name) => named(name).reduce((sum, connection) => sum + connection.held.length, 0),
    release(name, count = Number.POSITIVE_INFINITY) {
      let left = count;
      for (const connection of named(name)) {
        while (left > 0 && connection.held.length > 0) {
          connection.client.write(connection.held.shift() as Buffer);
          left--;
        }
      }
      if (
        named(name).every((connection) => connection.held.length === 0) &&
        count === Number.POSITIVE_INFINITY
      )
        holding.delete(name);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const { client, upstream } of connections) {
          client.destroy();
          upstream.destroy();
        }
        server.close(() => resolve());
      }),
  };
}
