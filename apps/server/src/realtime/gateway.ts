import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  CLOSE_CODES,
  ClientFrame,
  type ErrorCode,
  type LiveChange,
  type LiveQueryName,
  LiveQueryParams,
  type LiveQueryParamsOf,
  REALTIME_PATH,
  REALTIME_PROTOCOL_VERSION,
  subscriptionKey,
} from '@vitrine/protocol';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import { HttpError } from '../http/errors.ts';
import type { ChangeBatch, ChangeBus } from './change-bus.ts';
import type { AccessDecision, CallerContext, LiveQueryCatalogue, LiveQueryDefinition } from './live-query.ts';

/** A client whose unsent data passes this is not reading; it is disconnected (and resumes later). */
export const SLOW_CONSUMER_BYTES = 1024 * 1024;
/** Most subscriptions one connection may hold. */
export const MAX_SUBSCRIPTIONS_PER_CONNECTION = 100;
const MAX_FRAME_BYTES = 64 * 1024;
const HEARTBEAT_MS = 30_000;
/**
 * How long a loaded snapshot of a public query keeps serving the viewers who join after it, as
 * long as the topic has no new batch: a show that starts brings thousands within seconds, and
 * one query (and one encoded frame) serves them all. The first batch after it ends that, so a
 * newcomer never gets as changes what a fresh snapshot would have held.
 */
export const PUBLIC_SNAPSHOT_TICK_MS = 1000;
/** A snapshot still loading stops taking newcomers once this many batches followed its seq (a busy topic). */
const SHARED_SNAPSHOT_MAX_BATCHES = 100;
/** What a socket is told when the sign-in its token came from ends. */
export const SESSION_ENDED_MESSAGE = 'This sign-in has ended (logged out); sign in again.';

export interface GatewayOptions {
  bus: ChangeBus;
  catalogue: LiveQueryCatalogue;
  /**
   * Resolves an id token to its user and the sign-in it belongs to (`sessionId`, when known);
   * throws when the token is not valid.
   */
  verifyToken(token: string): Promise<{ userUid: string; sessionId?: string | null }>;
  /**
   * A bus topic whose changes' docIds are sign-ins that ended (logout): sockets authenticated
   * from one of them lose their authentication, and what it let them read.
   */
  sessionsEndedTopic?: string;
  log: FastifyBaseLogger;
}

interface Connection {
  socket: WebSocket;
  caller: CallerContext;
  /** The sign-in the caller's token came from, so a logout elsewhere reaches this socket. */
  sessionId: string | null;
  subscriptions: Set<string>;
  /** Frames are handled one after another so an auth frame applies to the subscribes after it. */
  queue: Promise<void>;
  alive: boolean;
  closed: boolean;
}

/** One live query with one set of params, shared by every connection subscribed to it on this node. */
interface QueryInstance {
  key: string;
  name: LiveQueryName;
  definition: LiveQueryDefinition<LiveQueryName>;
  params: unknown;
  topic: string;
  /** Connections that have their snapshot and get the shared frames. */
  live: Set<Connection>;
  /** Connections still loading their snapshot (or replay), with the batches that arrived meanwhile. */
  pending: Map<Connection, ChangeBatch[]>;
  /** Changes of this tick not yet sent to `live`, and the sequence number they reach. */
  outgoing: LiveChange[];
  outgoingSeq: number;
  flushScheduled: boolean;
  /** The snapshot loading (or, for a public query, loaded and still current) that newcomers share. */
  shared: SharedSnapshot | null;
}

/**
 * One snapshot query shared by every subscriber who joins while it loads (and, for public
 * queries, after, until a batch or a tick passes). Its seq is read before the query runs, and the topic's batches from
 * then on are kept beside it: a subscriber gets the snapshot and every kept batch above its seq,
 * whenever it joined, so nothing between the snapshot and its own listening is lost.
 */
interface SharedSnapshot {
  loaded: Promise<{ seq: number; frame: Buffer }>;
  batches: ChangeBatch[];
  done: boolean;
}

interface TopicListener {
  instances: Set<QueryInstance>;
  stop: Promise<() => Promise<void>>;
}

export interface GatewayStats {
  connections: number;
  queryInstances: number;
  topics: number;
  /** Subscriptions still loading their snapshot or replay. */
  loading: number;
  /** Snapshot queries run since the gateway started (shared ones count once). */
  snapshotQueries: number;
}

/**
 * The realtime gateway: serves the live query catalogue over one WebSocket per client at
 * /realtime. Each (query, params) pair is one shared instance per node that follows one bus topic;
 * a topic's changes are selected, serialized once per instance and tick, and the same frame goes
 * to every connection of that instance.
 */
export function registerRealtimeGateway(app: FastifyInstance, options: GatewayOptions) {
  const { bus, catalogue, log } = options;
  const sockets = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_FRAME_BYTES,
    perMessageDeflate: false,
  });
  const connections = new Set<Connection>();
  const instances = new Map<string, QueryInstance>();
  const topics = new Map<string, TopicListener>();
  let snapshotQueries = 0;

  app.server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== REALTIME_PATH) {
      socket.destroy();
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => {
      const version = Number(url.searchParams.get('v') ?? REALTIME_PROTOCOL_VERSION);
      if (version !== REALTIME_PROTOCOL_VERSION) {
        ws.close(CLOSE_CODES.unsupportedVersion, `protocol version ${REALTIME_PROTOCOL_VERSION} only`);
        return;
      }
      accept(ws);
    });
  });

  // Followed for the node's life; when the bus is unreachable (a node started while Redis was
  // down), tried again with backoff until it works.
  let gatewayClosed = false;
  let wakeSessionsRetry = () => {};
  const followSessionsEnded = async (topic: string): Promise<() => Promise<void>> => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await bus.listen(topic, (batch) => {
          for (const change of batch.changes) endSession(change.docId);
        });
      } catch (error) {
        if (gatewayClosed) throw error;
        if (attempt === 0) log.error({ err: error }, 'following ended sign-ins failed; retrying');
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(5000, 100 * 2 ** attempt));
          timer.unref();
          wakeSessionsRetry = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        if (gatewayClosed) throw error;
      }
    }
  };
  const sessionsEnded = options.sessionsEndedTopic
    ? followSessionsEnded(options.sessionsEndedTopic)
    : undefined;
  sessionsEnded?.catch(() => {});

  const heartbeat = setInterval(() => {
    for (const connection of connections) {
      if (!connection.alive) {
        connection.socket.terminate();
        continue;
      }
      connection.alive = false;
      connection.socket.ping();
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();

  // preClose, not onClose: the HTTP server's close waits for every socket, upgraded ones included,
  // and runs before onClose hooks, so sockets still open then would keep it waiting for ever.
  app.addHook('preClose', async () => {
    clearInterval(heartbeat);
    for (const connection of connections)
      closeWithin(connection.socket, CLOSE_CODES.goingAway, 'server shutting down');
  });
  app.addHook('onClose', async () => {
    gatewayClosed = true;
    wakeSessionsRetry();
    await (await sessionsEnded?.catch(() => undefined))?.();
    await Promise.all([...topics.values()].map(async (listener) => (await listener.stop)()));
    topics.clear();
    sockets.close();
  });

  const PONG_FRAME = JSON.stringify({ type: 'pong' });

  function accept(socket: WebSocket) {
    const connection: Connection = {
      socket,
      caller: { userUid: null },
      sessionId: null,
      subscriptions: new Set(),
      queue: Promise.resolve(),
      alive: true,
      closed: false,
    };
    connections.add(connection);
    socket.on('pong', () => {
      connection.alive = true;
    });
    socket.on('message', (data: RawData, isBinary: boolean) => {
      connection.queue = connection.queue
        .then(() => handleMessage(connection, data, isBinary))
        .catch((error: unknown) => log.error({ err: error }, 'realtime frame failed'));
    });
    socket.on('close', () => drop(connection));
    socket.on('error', (error) => log.debug({ err: error }, 'realtime socket error'));
  }

  function drop(connection: Connection) {
    if (connection.closed) return;
    connection.closed = true;
    connections.delete(connection);
    for (const key of connection.subscriptions) leave(connection, key);
    connection.subscriptions.clear();
  }

  /** Sends a text frame: a string, or UTF-8 bytes shared by every connection of a fan-out (see flush). */
  function send(connection: Connection, frame: string | Buffer) {
    if (connection.closed || connection.socket.readyState !== WebSocket.OPEN) return;
    if (connection.socket.bufferedAmount > SLOW_CONSUMER_BYTES) {
      // The client stopped reading: drop it rather than hold its frames; it resumes on reconnect.
      log.info({ buffered: connection.socket.bufferedAmount }, 'disconnecting a slow realtime consumer');
      // Nothing more is queued for it; the close frame reaches it if it reads again soon.
      drop(connection);
      closeWithin(connection.socket, CLOSE_CODES.slowConsumer, 'slow consumer: reconnect and resume');
      return;
    }
    connection.socket.send(frame, { binary: false });
  }

  function sendError(connection: Connection, id: string, code: ErrorCode, message: string) {
    send(connection, JSON.stringify({ type: 'error', id, code, message }));
  }

  async function handleMessage(connection: Connection, data: RawData, isBinary: boolean) {
    if (connection.closed) return;
    let json: unknown;
    try {
      json = isBinary ? undefined : JSON.parse(data.toString());
    } catch {
      json = undefined;
    }
    const parsed = ClientFrame.safeParse(json);
    if (!parsed.success) {
      const id = typeof (json as { id?: unknown })?.id === 'string' ? (json as { id: string }).id : '';
      sendError(
        connection,
        id,
        'invalid_request',
        `Not a valid frame: ${parsed.error.issues[0]?.message ?? 'not JSON'}`,
      );
      return;
    }
    const frame = parsed.data;
    switch (frame.type) {
      case 'auth':
        return authenticate(connection, frame.token);
      case 'subscribe':
        return subscribe(connection, frame.id, frame.query, frame.params, frame.resume?.seq);
      case 'unsubscribe':
        if (connection.subscriptions.delete(frame.id)) leave(connection, frame.id);
        return;
      case 'ping':
        // The client's liveness check; it comes after the frames before it, like any answer.
        send(connection, PONG_FRAME);
        return;
    }
  }

  async function authenticate(connection: Connection, token: string) {
    try {
      const { userUid, sessionId } = await options.verifyToken(token);
      connection.caller = { userUid };
      connection.sessionId = sessionId ?? null;
    } catch (error) {
      connection.caller = { userUid: null };
      connection.sessionId = null;
      sendError(connection, '', 'unauthenticated', error instanceof Error ? error.message : 'Invalid token.');
    }
    await applyCaller(connection);
  }

  /**
   * A sign-in ended (logout, on any node): its sockets continue unauthenticated, as after a
   * refused auth frame, in frame order so a newer auth frame already handled is not undone.
   */
  function endSession(sessionId: string) {
    for (const connection of connections) {
      if (connection.sessionId !== sessionId) continue;
      connection.queue = connection.queue
        .then(async () => {
          if (connection.closed || connection.sessionId !== sessionId) return;
          connection.caller = { userUid: null };
          connection.sessionId = null;
          sendError(connection, '', 'unauthenticated', SESSION_ENDED_MESSAGE);
          await applyCaller(connection);
        })
        .catch((error: unknown) => log.error({ err: error }, 'ending a realtime sign-in failed'));
    }
  }

  /** Re-checks the subscriptions against the connection's (new) caller and reports the caller. */
  async function applyCaller(connection: Connection) {
    // A new identity may not read what the previous one could: those subscriptions fail whole.
    await recheckSubscriptions(connection, () => true);
    send(connection, JSON.stringify({ type: 'auth_result', userUid: connection.caller.userUid }));
  }

  /**
   * Asks `authorize` again for the connection's subscriptions that `which` picks, and ends those it
   * refuses now, with its error. Runs in the connection's frame order (its caller is stable).
   */
  async function recheckSubscriptions(connection: Connection, which: (instance: QueryInstance) => boolean) {
    for (const key of [...connection.subscriptions]) {
      const instance = instances.get(key);
      if (!instance || !which(instance)) continue;
      let decision: AccessDecision;
      try {
        decision = await instance.definition.authorize(instance.params as never, connection.caller);
      } catch (error) {
        log.error({ err: error, query: instance.name }, 'checking a live query subscriber failed');
        decision = { allowed: false, code: 'internal', message: 'The query failed on our side.' };
      }
      if (!decision.allowed && connection.subscriptions.has(key)) {
        connection.subscriptions.delete(key);
        leave(connection, key);
        sendError(connection, key, decision.code, decision.message);
      }
    }
  }

  async function subscribe(
    connection: Connection,
    id: string,
    query: string,
    rawParams: unknown,
    resumeSeq?: number,
  ) {
    if (!Object.hasOwn(LiveQueryParams, query)) {
      return sendError(connection, id, 'unknown_query', `Unknown live query "${query}".`);
    }
    const name = query as LiveQueryName;
    const definition = catalogue[name] as LiveQueryDefinition<LiveQueryName>;
    const params = definition.params.safeParse(rawParams);
    if (!params.success) {
      const issue = params.error.issues[0];
      return sendError(
        connection,
        id,
        'invalid_request',
        `${issue?.path.join('.') || 'params'}: ${issue?.message}`,
      );
    }
    if (id !== subscriptionKey(name, rawParams)) {
      return sendError(
        connection,
        id,
        'invalid_request',
        'The subscription id must be subscriptionKey(query, params).',
      );
    }
    if (connection.subscriptions.has(id)) return;
    if (connection.subscriptions.size >= MAX_SUBSCRIPTIONS_PER_CONNECTION) {
      return sendError(
        connection,
        id,
        'invalid_request',
        `At most ${MAX_SUBSCRIPTIONS_PER_CONNECTION} subscriptions per connection.`,
      );
    }
    // Awaited: a staff query reads the caller's role. Frames of this connection wait meanwhile,
    // so the caller it was decided for is still the connection's when it joins.
    let decision: AccessDecision;
    try {
      decision = await definition.authorize(params.data as never, connection.caller);
    } catch (error) {
      log.error({ err: error, query: name }, 'authorizing a live query failed');
      return sendError(connection, id, 'internal', 'The query failed on our side.');
    }
    if (!decision.allowed) return sendError(connection, id, decision.code, decision.message);
    if (connection.closed || connection.subscriptions.has(id)) return;

    connection.subscriptions.add(id);
    let instance: QueryInstance | undefined;
    try {
      instance = instanceFor(id, name, definition, params.data);
      // Registered before any await, so the instance is not dropped while this connection loads.
      const missed: ChangeBatch[] = [];
      instance.pending.set(connection, missed);
      await followed(instance);
      if (!instance.pending.has(connection) || connection.closed) return;
      let covered = await catchUp(connection, instance, resumeSeq, missed);
      // Batches that arrived while loading, beyond what the snapshot or replay covered; a shared
      // snapshot's batches and this connection's own overlap, so each seq goes out once, in order.
      missed.sort((a, b) => a.seq - b.seq);
      for (const batch of missed) {
        if (batch.seq <= covered) continue;
        covered = batch.seq;
        const changes = selectChanges(instance, batch);
        if (changes.length)
          send(connection, JSON.stringify({ type: 'changes', id, changes, seq: batch.seq }));
      }
      if (!instance.pending.delete(connection) || connection.closed) return;
      // Frames already queued for this tick were covered above; send them before joining.
      flush(instance);
      instance.live.add(connection);
    } catch (error) {
      connection.subscriptions.delete(id);
      if (instance) {
        instance.pending.delete(connection);
        leaveIfUnused(instance);
      }
      const { code, message } = describeFailure(error);
      // While the bus is unreachable every subscription fails; the bus logs that outage itself.
      if (code === 'internal' && bus.reachable())
        log.error({ err: error, query: name }, 'live query subscription failed');
      sendError(connection, id, code, message);
    }
  }

  /**
   * Sends what the connection lacks: the missed changes when the log still has them, else a
   * snapshot; returns the seq that covers, and adds to `missed` the batches a shared snapshot kept.
   */
  async function catchUp(
    connection: Connection,
    instance: QueryInstance,
    resumeSeq: number | undefined,
    missed: ChangeBatch[],
  ) {
    if (resumeSeq !== undefined) {
      const batches = await bus.replay(instance.topic, resumeSeq);
      if (batches !== null) {
        const changes = batches.flatMap((batch) => selectChanges(instance, batch));
        const seq = batches.at(-1)?.seq ?? resumeSeq;
        send(connection, JSON.stringify({ type: 'changes', id: instance.key, changes, seq }));
        return seq;
      }
    }
    const shared = instance.shared ?? shareSnapshot(instance);
    const { seq, frame } = await shared.loaded;
    // Copied after the load: every batch it kept so far (later ones reach `missed` directly).
    missed.push(...shared.batches);
    send(connection, frame);
    return seq;
  }

  /** Starts the instance's snapshot query, for every subscriber who joins before it is forgotten. */
  function shareSnapshot(instance: QueryInstance): SharedSnapshot {
    const shared: SharedSnapshot = {
      batches: [],
      loaded: Promise.resolve({ seq: 0, frame: Buffer.alloc(0) }),
      done: false,
    };
    const forget = () => {
      if (instance.shared === shared) instance.shared = null;
    };
    shared.loaded = (async () => {
      snapshotQueries++;
      // Read the sequence first: a change committed after it is sent again after the snapshot,
      // which merging by identity makes harmless; reading it after could lose one.
      const seq = await bus.currentSeq(instance.topic);
      const docs = await instance.definition.snapshot(instance.params as never);
      // Encoded once, like a fan-out frame: every subscriber sharing it gets the same bytes.
      return { seq, frame: Buffer.from(JSON.stringify({ type: 'snapshot', id: instance.key, docs, seq })) };
    })();
    instance.shared = shared;
    shared.loaded.then(async () => {
      shared.done = true;
      // Only data anyone may read stays for a tick; a private snapshot serves its load only.
      if (!(await isPublic(instance))) return forget();
      setTimeout(forget, PUBLIC_SNAPSHOT_TICK_MS).unref();
    }, forget);
    return shared;
  }

  async function isPublic(instance: QueryInstance): Promise<boolean> {
    try {
      return (await instance.definition.authorize(instance.params as never, { userUid: null })).allowed;
    } catch {
      return false;
    }
  }

  /** The node's instance of a query with these params, created (and its topic followed) on first use. */
  function instanceFor(
    key: string,
    name: LiveQueryName,
    definition: LiveQueryDefinition<LiveQueryName>,
    params: unknown,
  ): QueryInstance {
    let instance = instances.get(key);
    if (!instance) {
      instance = {
        key,
        name,
        definition,
        params,
        topic: definition.topic(params as never),
        live: new Set(),
        pending: new Map(),
        outgoing: [],
        outgoingSeq: 0,
        flushScheduled: false,
        shared: null,
      };
      instances.set(key, instance);
      let listener = topics.get(instance.topic);
      if (!listener) {
        const topic = instance.topic;
        const created: TopicListener = {
          instances: new Set(),
          stop: bus.listen(topic, (batch) => deliver(created, batch)),
        };
        listener = created;
        topics.set(topic, listener);
      }
      listener.instances.add(instance);
    }
    return instance;
  }

  /** Resolves once the bus delivers the instance's topic, so no batch after a snapshot's seq is missed. */
  async function followed(instance: QueryInstance): Promise<void> {
    const listener = topics.get(instance.topic);
    try {
      await listener?.stop;
    } catch (error) {
      // The bus could not follow the topic: forget it so the next subscriber tries again.
      if (listener && topics.get(instance.topic) === listener) topics.delete(instance.topic);
      for (const stale of listener?.instances ?? []) instances.delete(stale.key);
      throw error;
    }
  }

  function deliver(listener: TopicListener, batch: ChangeBatch) {
    for (const instance of listener.instances) {
      for (const missed of instance.pending.values()) missed.push(batch);
      const shared = instance.shared;
      if (shared) {
        shared.batches.push(batch);
        // A loaded snapshot is out of date now; one still loading takes a tail of batches, up to
        // a point (a busy topic), after which newcomers get a fresh one.
        if (shared.done || shared.batches.length >= SHARED_SNAPSHOT_MAX_BATCHES) instance.shared = null;
      }
      if (instance.live.size === 0) continue;
      const changes = selectChanges(instance, batch);
      if (changes.length === 0) continue;
      instance.outgoing.push(...changes);
      instance.outgoingSeq = batch.seq;
      if (!instance.flushScheduled) {
        instance.flushScheduled = true;
        // Everything arriving in this turn of the event loop goes out as one frame.
        setImmediate(() => flush(instance));
      }
    }
  }

  function flush(instance: QueryInstance) {
    instance.flushScheduled = false;
    if (instance.outgoing.length === 0) return;
    // Encoded to bytes once too: a string would be measured and UTF-8 encoded again for every
    // connection, and a socket that cannot take it at once would keep its own copy; ws writes
    // (never masks or changes) a server's Buffer, so all connections share these bytes.
    const frame = Buffer.from(
      JSON.stringify({
        type: 'changes',
        id: instance.key,
        changes: instance.outgoing,
        seq: instance.outgoingSeq,
      }),
    );
    instance.outgoing = [];
    for (const connection of instance.live) send(connection, frame);
  }

  function selectChanges(instance: QueryInstance, batch: ChangeBatch): LiveChange[] {
    const select = instance.definition.select;
    if (!select) return batch.changes;
    return batch.changes.flatMap((change) => select(change, instance.params as never) ?? []);
  }

  function leave(connection: Connection, key: string) {
    const instance = instances.get(key);
    if (!instance) return;
    instance.live.delete(connection);
    instance.pending.delete(connection);
    leaveIfUnused(instance);
  }

  function leaveIfUnused(instance: QueryInstance) {
    if (instance.live.size > 0 || instance.pending.size > 0) return;
    instances.delete(instance.key);
    const listener = topics.get(instance.topic);
    if (!listener) return;
    listener.instances.delete(instance);
    if (listener.instances.size === 0) {
      topics.delete(instance.topic);
      void listener.stop
        .then((stop) => stop())
        .catch((error: unknown) => log.warn({ err: error }, 'bus unlisten failed'));
    }
  }

  return {
    /**
     * The subscriptions of `query` on this node, each with its params and how many connections
     * hold it (loading or live): one entry per instance, however many viewers it has.
     */
    audience<N extends LiveQueryName>(
      query: N,
    ): Array<{ params: LiveQueryParamsOf<N>; connections: number }> {
      const found: Array<{ params: LiveQueryParamsOf<N>; connections: number }> = [];
      for (const instance of instances.values()) {
        if (instance.name !== query) continue;
        const connections = instance.live.size + instance.pending.size;
        if (connections > 0) found.push({ params: instance.params as LiveQueryParamsOf<N>, connections });
      }
      return found;
    },
    /**
     * Checks every subscriber of `query` on this node against `authorize` again, ending what it
     * refuses now (a staff member removed or demoted while watching); resolves when all are done.
     */
    async recheck(query: LiveQueryName): Promise<void> {
      await Promise.all(
        [...connections].map((connection) => {
          const run = connection.queue.then(() =>
            connection.closed
              ? undefined
              : recheckSubscriptions(connection, (instance) => instance.name === query),
          );
          connection.queue = run.catch((error: unknown) =>
            log.error({ err: error }, 'realtime recheck failed'),
          );
          return connection.queue;
        }),
      );
    },
    stats(): GatewayStats {
      return {
        connections: connections.size,
        queryInstances: instances.size,
        topics: topics.size,
        loading: [...instances.values()].reduce((sum, instance) => sum + instance.pending.size, 0),
        snapshotQueries,
      };
    },
  };
}

/** How long a closing client gets to answer the close handshake before its socket is cut. */
const CLOSE_HANDSHAKE_MS = 2000;

/** Starts the close handshake, and cuts the socket if the client does not complete it in time. */
function closeWithin(socket: WebSocket, code: number, reason: string) {
  socket.close(code, reason);
  setTimeout(() => socket.terminate(), CLOSE_HANDSHAKE_MS).unref();
}

function describeFailure(error: unknown): { code: ErrorCode; message: string } {
  if (error instanceof HttpError) {
    if (error.statusCode === 404) return { code: 'not_found', message: error.message };
    if (error.statusCode === 400) return { code: 'invalid_request', message: error.message };
    if (error.statusCode === 401) return { code: 'unauthenticated', message: error.message };
    if (error.statusCode === 403) return { code: 'forbidden', message: error.message };
  }
  return { code: 'internal', message: 'The query failed on our side.' };
}
