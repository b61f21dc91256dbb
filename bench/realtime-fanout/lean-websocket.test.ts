/**
 * The load generator's lean WebSocket client against a real `ws` server (the library the Vitrine
 * gateway and Socket.IO's engine both use), and against raw TCP servers that answer the upgrade
 * wrongly: a viewer the benchmark counts as joined must really have completed the protocol.
 */
import { createHash } from 'node:crypto';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type WebSocket, WebSocketServer } from 'ws';
import { clientFrame, type LeanHandlers, LeanWebSocket, upgradeRequest } from './lean-websocket.ts';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function wsServer(onConnection: (socket: WebSocket) => void): Promise<number> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
  server.on('connection', onConnection);
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      }),
  );
  return (server.address() as AddressInfo).port;
}

/** A plain TCP server that answers any request with `answer`. */
async function rawServer(answer: string): Promise<number> {
  const server: Server = createServer((socket) => {
    socket.once('data', () => socket.write(answer));
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return (server.address() as AddressInfo).port;
}

interface Recorder {
  opened: number;
  messages: string[];
  closed: Promise<string | null>;
  socket: LeanWebSocket;
}

function connectLean(port: number, onMessage?: (socket: LeanWebSocket, text: string) => void): Recorder {
  let closed!: (reason: string | null) => void;
  const recorder = {
    opened: 0,
    messages: [] as string[],
    closed: new Promise<string | null>((resolve) => {
      closed = resolve;
    }),
  } as Recorder;
  const handlers: LeanHandlers = {
    open: () => {
      recorder.opened++;
    },
    message: (socket, data) => {
      const text = data.toString();
      recorder.messages.push(text);
      onMessage?.(socket, text);
    },
    close: (_socket, reason) => closed(reason),
  };
  recorder.socket = new LeanWebSocket(
    port,
    '127.0.0.1',
    upgradeRequest('127.0.0.1', port, '/x?v=1'),
    handlers,
  );
  return recorder;
}

const until = async (condition: () => boolean) => {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
};

describe('LeanWebSocket', () => {
  it('upgrades, sends masked frames the server reads, and receives every kind of message whole', async () => {
    const received: string[] = [];
    const big = 'b'.repeat(70_000); // a 64-bit length
    const medium = 'm'.repeat(300); // a 16-bit length
    const port = await wsServer((socket) => {
      socket.on('message', (data, isBinary) => {
        received.push(String(data));
        if (isBinary) return;
        socket.send('short');
        socket.send(medium);
        socket.send(big);
        // One message in three fragments, with a ping in between (allowed by RFC 6455).
        socket.send('frag', { fin: false });
        socket.ping();
        socket.send('ment', { fin: false });
        socket.send('ed', { fin: true });
      });
    });
    const lean = connectLean(port);
    await until(() => lean.opened === 1);
    lean.socket.send(clientFrame('{"type":"subscribe"}'));
    await until(() => lean.messages.length === 4);
    expect(received).toEqual(['{"type":"subscribe"}']);
    expect(lean.messages).toEqual(['short', medium, big, 'fragmented']);
  });

  it('answers pings with the same payload', async () => {
    let pong: string | null = null;
    const port = await wsServer((socket) => {
      socket.on('pong', (data) => {
        pong = String(data);
      });
      socket.ping('are you there');
    });
    connectLean(port);
    await until(() => pong !== null);
    expect(pong).toBe('are you there');
  });

  it('reports a close by the server as a clean close', async () => {
    let code = 0;
    const port = await wsServer((socket) => {
      socket.on('close', (closeCode) => {
        code = closeCode;
      });
      socket.close(4008, 'slow');
    });
    const lean = connectLean(port);
    expect(await lean.closed).toBeNull();
    await until(() => code !== 0);
    // The server got our close frame echoing its code, not a dropped connection (1006).
    expect(code).toBe(4008);
  });

  it('refuses an upgrade answer that is not 101', async () => {
    const port = await rawServer('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n');
    const lean = connectLean(port);
    expect(await lean.closed).toMatch(/upgrade refused: HTTP\/1.1 400/);
    expect(lean.opened).toBe(0);
  });

  it('refuses a 101 whose Sec-WebSocket-Accept does not answer its key', async () => {
    const port = await rawServer(
      'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
        'Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n',
    );
    const lean = connectLean(port);
    expect(await lean.closed).toMatch(/Sec-WebSocket-Accept/);
    expect(lean.opened).toBe(0);
  });

  it('refuses masked frames from the server', async () => {
    // A raw server that accepts the upgrade properly, then sends a masked frame.
    const server: Server = createServer((socket) => {
      socket.once('data', (request) => {
        const key = /sec-websocket-key: (\S+)/i.exec(request.toString())?.[1] ?? '';
        const accept = createHash('sha1')
          .update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`)
          .digest('base64');
        socket.write(
          `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
        );
        socket.write(clientFrame('masked'));
      });
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const lean = connectLean((server.address() as AddressInfo).port);
    expect(await lean.closed).toMatch(/masked frame/);
    expect(lean.opened).toBe(1);
    expect(lean.messages).toEqual([]);
  });
});
