/**
 * The baseline: a plain Socket.IO 4 broadcast server, websocket transport only, no compression.
 * Viewers emit `join` with {pageUid, campaignUid} and get the recent comments as the ack (the
 * counterpart of Vitrine's snapshot); `POST /comment` with {text, pageUid, campaignUid} builds a
 * comment document of the same shape as Vitrine's CommentDoc, keeps the last 100 in memory and
 * broadcasts it with `io.to(room).emit('comment', doc)` (Socket.IO encodes a broadcast once).
 * No authentication and no database: the floor of what a broadcast costs.
 *
 * With REDIS_URL and BENCH_CHANNEL set (when one process cannot hold every viewer), several such
 * processes share the broadcasts the way Socket.IO's Redis adapter does: the process that takes the
 * POST publishes the comment once on the channel, and every process (itself included) keeps it and
 * emits it to its own room.
 *
 *   PORT=4000 node --import tsx bench/realtime-fanout/socketio-baseline.ts
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Redis } from 'ioredis';
import { Server } from 'socket.io';

const port = Number(process.env.PORT ?? 4000);
const host = process.env.HOST ?? '127.0.0.1';
const RECENT = 100;

const roomOf = (pageUid: string, campaignUid: string) => `comments:${pageUid}:${campaignUid}`;
const recent = new Map<string, unknown[]>();
const writer = { uid: randomBytes(18).toString('base64url'), name: '' };

function reply(res: ServerResponse, status: number, body: unknown) {
  const json = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
  res.end(json);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

interface CommentDocument {
  pageUid: string;
  campaignUid: string;
}

function broadcast(doc: CommentDocument) {
  const room = roomOf(doc.pageUid, doc.campaignUid);
  const list = recent.get(room) ?? [];
  list.unshift(doc);
  if (list.length > RECENT) list.length = RECENT;
  recent.set(room, list);
  io.to(room).emit('comment', doc);
}

/** Broadcasts shared with the other baseline processes through Redis pub/sub, when configured. */
const shared =
  process.env.REDIS_URL && process.env.BENCH_CHANNEL
    ? {
        channel: process.env.BENCH_CHANNEL,
        publisher: new Redis(process.env.REDIS_URL),
        subscriber: new Redis(process.env.REDIS_URL),
      }
    : null;
if (shared) {
  await shared.subscriber.subscribe(shared.channel);
  shared.subscriber.on('message', (_channel: string, message: string) =>
    broadcast(JSON.parse(message) as CommentDocument),
  );
}

const http = createServer(async (req, res) => {
  try {
    if (req.method === 'GET' && (req.url === '/readyz' || req.url === '/healthz'))
      return reply(res, 200, { status: 'ready' });
    if (req.method === 'POST' && req.url === '/comment') {
      const input = JSON.parse(await readBody(req)) as {
        text?: unknown;
        pageUid?: unknown;
        campaignUid?: unknown;
      };
      const { text, pageUid, campaignUid } = input;
      if (typeof text !== 'string' || typeof pageUid !== 'string' || typeof campaignUid !== 'string')
        return reply(res, 400, { error: 'text, pageUid and campaignUid are required' });
      const doc = {
        uid: randomBytes(12).toString('base64url'),
        text,
        time: Date.now(),
        threadId: null,
        source: 'player',
        public: true,
        private: false,
        pageUid,
        campaignUid,
        user: writer,
        replies: [],
        verified: false,
        metaData: null,
      };
      if (shared) await shared.publisher.publish(shared.channel, JSON.stringify(doc));
      else broadcast(doc);
      return reply(res, 200, doc);
    }
    reply(res, 404, { error: 'not found' });
  } catch (error) {
    reply(res, 400, { error: error instanceof Error ? error.message : String(error) });
  }
});

// Fastify's default: Node's 5 s lets the server close an idle keep-alive connection just as the
// writer reuses it, and that POST fails with ECONNRESET.
http.keepAliveTimeout = 72_000;

const io = new Server(http, {
  transports: ['websocket'],
  perMessageDeflate: false,
  serveClient: false,
  cors: { origin: false },
});

io.on('connection', (socket) => {
  socket.on(
    'join',
    (params: { pageUid?: unknown; campaignUid?: unknown }, ack?: (docs: unknown[]) => void) => {
      if (typeof params?.pageUid !== 'string' || typeof params?.campaignUid !== 'string') return;
      const room = roomOf(params.pageUid, params.campaignUid);
      void socket.join(room);
      ack?.(recent.get(room) ?? []);
    },
  );
});

http.listen(port, host, () => process.stdout.write(`socket.io baseline on http://${host}:${port}\n`));

function shutdown() {
  shared?.publisher.disconnect();
  shared?.subscriber.disconnect();
  io.close();
  http.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 3_000).unref();
}
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
