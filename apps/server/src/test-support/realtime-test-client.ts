import type { AddressInfo } from 'node:net';
import {
  type ClientFrame,
  type CommentDoc,
  type LiveQueryName,
  type LiveQueryParamsOf,
  REALTIME_PATH,
  REALTIME_PROTOCOL_VERSION,
  ServerFrame,
  subscriptionKey,
} from '@vitrine/protocol';
import { WebSocket } from 'ws';
import { type App, buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { openPostgresDatabase } from '../db/postgres-database.ts';
import type { ChangeBus } from '../realtime/change-bus.ts';
import { adminWrite, signIn } from './commerce-fixture.ts';
import { databaseUrl } from './postgres-template.ts';
import { openTestDatabase, TEST_APP_ENV } from './test-app.ts';

// ── client ─────────────────────────────────────────────────────────────────────

export interface CloseInfo {
  code: number;
  reason: string;
}

export interface RealtimeTestClient {
  /** The underlying `ws` socket (e.g. to pause its TCP socket in a slow-consumer test). */
  readonly socket: WebSocket;
  /** Every frame received so far, in arrival order. */
  readonly frames: ServerFrame[];
  /** Text frames that were not valid server frames of the protocol (should stay empty). */
  readonly invalidFrames: string[];
  /** Sends a client frame as JSON; a string or Buffer is sent as is (for malformed-frame tests). */
  send(frame: ClientFrame | string | Buffer): void;
  /**
   * The earliest frame not yet returned by `nextFrame` that matches `predicate`, including frames
   * that arrived before the call; waits up to `timeoutMs` for one.
   */
  nextFrame<T extends ServerFrame = ServerFrame>(
    predicate: ((frame: ServerFrame) => frame is T) | ((frame: ServerFrame) => boolean),
    timeoutMs?: number,
  ): Promise<T>;
  /**
   * As `nextFrame`, among the frames from index `since` on: read `frames.length` before making a
   * change, and no frame from before it (an earlier one of the same shape) is taken for its answer.
   */
  nextFrameAfter<T extends ServerFrame = ServerFrame>(
    since: number,
    predicate: ((frame: ServerFrame) => frame is T) | ((frame: ServerFrame) => boolean),
    timeoutMs?: number,
  ): Promise<T>;
  /** Starts the closing handshake. */
  close(code?: number, reason?: string): void;
  /** Resolves with the close code and reason once the socket is closed (also if it already is). */
  waitClosed(timeoutMs?: number): Promise<CloseInfo>;
  /** Whether the socket has closed. */
  readonly closed: boolean;
}

/** A bound for a frame that never comes, generous for a busy machine; a test whose claim is a time passes its own. */
const DEFAULT_TIMEOUT_MS = 60_000;

interface Waiter {
  predicate: (frame: ServerFrame) => boolean;
  resolve: (frame: ServerFrame) => void;
}

/** Opens a realtime socket; resolves once it is open (a server may still close it right after). */
export function connect(url: string): Promise<RealtimeTestClient> {
  const socket = new WebSocket(url);
  const frames: ServerFrame[] = [];
  const invalidFrames: string[] = [];
  const consumed = new Set<number>();
  let waiters: Waiter[] = [];
  let closeInfo: CloseInfo | null = null;
  const closeListeners: Array<(info: CloseInfo) => void> = [];

  socket.on('message', (data, isBinary) => {
    const text = isBinary ? '' : data.toString();
    let parsed: ReturnType<typeof ServerFrame.safeParse>;
    try {
      parsed = ServerFrame.safeParse(JSON.parse(text));
    } catch {
      invalidFrames.push(text);
      return;
    }
    if (!parsed.success) {
      invalidFrames.push(text);
      return;
    }
    const frame = parsed.data;
    const index = frames.push(frame) - 1;
    const waiter = waiters.find((candidate) => candidate.predicate(frame));
    if (waiter) {
      consumed.add(index);
      waiters = waiters.filter((candidate) => candidate !== waiter);
      waiter.resolve(frame);
    }
  });
  socket.on('close', (code, reason) => {
    closeInfo = { code, reason: reason.toString() };
    for (const listener of closeListeners.splice(0)) listener(closeInfo);
  });
  // Errors (e.g. the server terminating the socket) end in 'close'; keep them from being unhandled.
  socket.on('error', () => {});

  const client: RealtimeTestClient = {
    socket,
    frames,
    invalidFrames,
    get closed() {
      return closeInfo !== null;
    },
    send(frame) {
      socket.send(typeof frame === 'string' || Buffer.isBuffer(frame) ? frame : JSON.stringify(frame));
    },
    nextFrameAfter<T extends ServerFrame>(
      since: number,
      predicate: ((frame: ServerFrame) => frame is T) | ((frame: ServerFrame) => boolean),
      timeoutMs?: number,
    ): Promise<T> {
      return client.nextFrame<T>((frame) => frames.indexOf(frame) >= since && predicate(frame), timeoutMs);
    },
    nextFrame<T extends ServerFrame>(
      predicate: ((frame: ServerFrame) => frame is T) | ((frame: ServerFrame) => boolean),
      timeoutMs = DEFAULT_TIMEOUT_MS,
    ): Promise<T> {
      const index = frames.findIndex((frame, i) => !consumed.has(i) && predicate(frame));
      if (index >= 0) {
        consumed.add(index);
        return Promise.resolve(frames[index] as T);
      }
      return new Promise<T>((resolve, reject) => {
        const waiter: Waiter = {
          predicate,
          resolve: (frame) => {
            clearTimeout(timer);
            resolve(frame as T);
          },
        };
        const timer = setTimeout(() => {
          waiters = waiters.filter((candidate) => candidate !== waiter);
          const recent = frames
            .slice(-5)
            .map((frame) => JSON.stringify(frame).slice(0, 300))
            .join('\n  ');
          reject(
            new Error(
              `no matching realtime frame within ${timeoutMs} ms (${frames.length} received` +
                `${closeInfo ? `, socket closed ${closeInfo.code}` : ''}); last ones:\n  ${recent}`,
            ),
          );
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
    close(code, reason) {
      socket.close(code, reason);
    },
    waitClosed(timeoutMs = DEFAULT_TIMEOUT_MS) {
      if (closeInfo) return Promise.resolve(closeInfo);
      return new Promise<CloseInfo>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`socket not closed within ${timeoutMs} ms`)),
          timeoutMs,
        );
        closeListeners.push((info) => {
          clearTimeout(timer);
          resolve(info);
        });
      });
    },
  };

  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(client));
    socket.once('unexpected-response', (_request, response) =>
      reject(new Error(`realtime upgrade refused: HTTP ${response.statusCode}`)),
    );
    socket.once('close', (code) => reject(new Error(`socket closed (${code}) before it opened`)));
    socket.once('error', (error) => reject(error));
  });
}

/** A subscribe frame with the id the protocol requires: `subscriptionKey(query, params)`. */
export function subscribeFrame<N extends LiveQueryName>(
  query: N,
  params: LiveQueryParamsOf<N>,
  resume?: { seq: number },
): Extract<ClientFrame, { type: 'subscribe' }> {
  return {
    type: 'subscribe',
    id: subscriptionKey(query, params),
    query,
    params,
    ...(resume ? { resume } : {}),
  };
}

export const unsubscribeFrame = (id: string): ClientFrame => ({ type: 'unsubscribe', id });
export const authFrame = (token: string): ClientFrame => ({ type: 'auth', token });

/** Predicates for `nextFrame`. */
export const isFrame =
  <T extends ServerFrame['type']>(type: T, id?: string) =>
  (frame: ServerFrame): frame is Extract<ServerFrame, { type: T }> =>
    frame.type === type && (id === undefined || ('id' in frame && frame.id === id));

/** The first answer to a subscription: its snapshot, its replayed changes or its error. */
export const isAnswerTo =
  (id: string) =>
  (frame: ServerFrame): boolean =>
    'id' in frame && frame.id === id;

/** A changes frame of subscription `id` that carries the doc `docId`. */
export const isChangeOf =
  (id: string, docId: string) =>
  (frame: ServerFrame): boolean =>
    frame.type === 'changes' && frame.id === id && frame.changes.some((change) => change.docId === docId);

// ── server ─────────────────────────────────────────────────────────────────────

export interface TestServer extends App {
  db: Database;
  /** `ws://127.0.0.1:PORT/realtime?v=1` */
  wsUrl: string;
  /** `http://127.0.0.1:PORT` */
  httpUrl: string;
  /** The realtime URL with another protocol version. */
  wsUrlWithVersion(version: string | number): string;
  /** Closes the server; disposes the database only when this server opened it. */
  close(): Promise<void>;
}

/**
 * Like openTestApp, but listening on a real port of 127.0.0.1 so sockets can connect. Pass `db`
 * and `bus` to run several app instances on one database and one change bus (they stay open when
 * the server closes: the caller owns them).
 */
export async function startTestServer(
  options: { db?: Database; bus?: ChangeBus; now?: () => number; env?: Record<string, string> } = {},
): Promise<TestServer> {
  const ownDb = options.db ? null : await openTestDatabase();
  const db = options.db ?? ownDb!;
  const config = loadConfig({ ...TEST_APP_ENV, ...options.env });
  const app = await buildApp({
    config,
    db,
    ...(options.now ? { now: options.now } : {}),
    ...(options.bus ? { bus: options.bus } : {}),
  });
  try {
    await app.server.listen({ port: 0, host: '127.0.0.1' });
  } catch (error) {
    await app.server.close();
    await ownDb?.dispose();
    throw error;
  }
  const { port } = app.server.server.address() as AddressInfo;
  const wsUrlWithVersion = (version: string | number) =>
    `ws://127.0.0.1:${port}${REALTIME_PATH}?v=${version}`;
  return {
    ...app,
    db,
    wsUrl: wsUrlWithVersion(REALTIME_PROTOCOL_VERSION),
    httpUrl: `http://127.0.0.1:${port}`,
    wsUrlWithVersion,
    async close() {
      await app.server.close();
      await ownDb?.dispose();
    },
  };
}

/**
 * A second handle on the same test database, for a second app instance: with DATABASE_URL a new
 * pool on the same database and schema (closed by `close`); on PGlite the same in-process
 * database (which `close` leaves open: its owner disposes it).
 */
export async function openSharedDatabase(db: Database): Promise<Database> {
  const url = process.env.DATABASE_URL;
  if (db.kind !== 'postgres' || !url) return { ...db, close: async () => {} };
  const [row] = await db.query<{ database: string; schema: string }>(
    'SELECT current_database() AS database, current_schema() AS schema',
  );
  if (!row?.schema) throw new Error('the test database has no current schema');
  return openPostgresDatabase(databaseUrl(url, row.database), row.schema);
}

/** Makes each record of `puts` with the admin key, in order; fails with the server's answer. */
export async function putAllAsAdmin(app: App, puts: ReadonlyArray<readonly [string, object]>): Promise<void> {
  for (const [url, payload] of puts) await adminWrite(app, 'PUT', url, payload);
}

/** The id token of a new anonymous viewer signed in on `app`; fails with the server's answer. */
export async function anonymousToken(app: App): Promise<string> {
  return (await signIn(app)).token;
}

/** Posts a comment as `token` through `node`'s real HTTP port; fails with the server's answer. */
export async function postCommentOverHttp(
  node: TestServer,
  token: string,
  show: { pageUid: string; campaignUid: string },
  text: string,
): Promise<CommentDoc> {
  const response = await fetch(`${node.httpUrl}/shopapiv2/comment/playerComment`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ ...show, text }),
  });
  if (response.status !== 200)
    throw new Error(`posting a comment: ${response.status} ${await response.text()}`);
  return (await response.json()) as CommentDoc;
}
