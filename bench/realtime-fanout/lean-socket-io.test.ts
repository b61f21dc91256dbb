/**
 * The Socket.IO baseline's lean viewer against a real Socket.IO 4 server (the baseline's library),
 * with pings every 50 ms: it must join and get the ack, receive events whole, keep answering
 * pings (a viewer that does not is dropped after pingTimeout), and report a server disconnect
 * once.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server, type Socket } from 'socket.io';
import { afterEach, describe, expect, it } from 'vitest';
import { socketIoHandlers, socketIoPackets } from './lean-socket-io.ts';
import { LeanWebSocket, upgradeRequest } from './lean-websocket.ts';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function baseline(onJoin: (socket: Socket) => void): Promise<number> {
  const http = createServer();
  const io = new Server(http, { transports: ['websocket'], pingInterval: 50, pingTimeout: 100 });
  io.on('connection', (socket) => {
    socket.on('join', (params: { pageUid: string; campaignUid: string }, ack: (docs: unknown[]) => void) => {
      void socket.join(`${params.pageUid}:${params.campaignUid}`);
      ack([{ text: 'earlier' }]);
      onJoin(socket);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', () => resolve()));
  closers.push(() => new Promise<void>((resolve) => io.close(() => resolve())));
  return (http.address() as AddressInfo).port;
}

function viewer(port: number) {
  const state = { ready: false, closed: 0, errors: [] as string[], comments: [] as unknown[] };
  const handlers = socketIoHandlers(
    socketIoPackets('page', 'campaign'),
    {
      isReady: () => state.ready,
      becameReady: () => {
        state.ready = true;
      },
      failed: (error) => state.errors.push(error.message),
      closed: () => {
        state.closed++;
      },
      comment: (doc) => state.comments.push(doc),
    },
    () => Date.now(),
  );
  const request = upgradeRequest('127.0.0.1', port, '/socket.io/?EIO=4&transport=websocket');
  const socket = new LeanWebSocket(port, '127.0.0.1', request, handlers);
  closers.push(async () => socket.terminate());
  return { state, socket };
}

const until = async (condition: () => boolean) => {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
};

describe('lean Socket.IO viewer', () => {
  it('joins, stays connected across many pings, gets events whole, and sees a disconnect once', async () => {
    let server: Socket | undefined;
    let pongs = 0;
    const port = await baseline((socket) => {
      server = socket;
      socket.conn.on('packet', (packet: { type: string }) => {
        if (packet.type === 'pong') pongs++;
      });
    });
    const { state, socket } = viewer(port);
    await until(() => state.ready);
    expect(state.errors).toEqual([]);
    // Ten pings answered: without pongs the server drops a viewer 150 ms after its first ping.
    await until(() => pongs >= 10 || state.closed > 0);
    expect(state.closed).toBe(0);
    expect(server?.connected).toBe(true);
    server?.emit('comment', { text: 'bench:1:0', time: 1 });
    server?.emit('other', { text: 'not a comment' });
    server?.emit('comment', { text: 'bench:2:1', time: 2 });
    await until(() => state.comments.length === 2);
    expect(state.comments).toEqual([
      { text: 'bench:1:0', time: 1 },
      { text: 'bench:2:1', time: 2 },
    ]);
    server?.disconnect(true);
    // Until the connection itself is over: a second report (the disconnect packet, then the
    // connection's close) would have come by then.
    await until(() => socket.ended);
    expect(state.closed).toBe(1);
  });
});
