import { type DocumentChange, mergeChanges } from '@vitrine/domain';
import type {
  ChangesFrame,
  ClientFrame,
  ErrorCode,
  ErrorFrame,
  ServerFrame,
  SnapshotFrame,
  SubscriptionStatus,
} from '@vitrine/protocol';
import { debugLog, logFailure } from '../debug.ts';
import {
  CLOSE_CODES,
  REALTIME_PATH,
  REALTIME_PROTOCOL_VERSION,
  RECONNECT_DELAYS_MS,
  subscriptionKey,
} from './wire.ts';

/** SubscriptionStatus plus the wait for the first answer (supabase's "joining"). */
export type LiveQueryStatus = SubscriptionStatus | 'CONNECTING';

/** `unsupported_version`: the server closed with CLOSE_CODES.unsupportedVersion (a reload may help). */
export type RealtimeErrorCode = ErrorCode | 'unsupported_version';
export interface RealtimeError {
  code: RealtimeErrorCode;
  message: string;
}

/** A held document: its data plus the store's document id. */
export type LiveDoc<T> = T & { docId: string };

/** What a subscriber sees. The same object comes back until something in it changes. */
export interface LiveQueryState<T> {
  status: LiveQueryStatus;
  docs: readonly LiveDoc<T>[];
  error?: RealtimeError;
}

export type LiveQueryListener<T> = (state: LiveQueryState<T>) => void;

export interface SubscribeOptions {
  /** Keep records the server removes (lists that must keep what a viewer has already seen). */
  suppressRemoval?: boolean;
}

/** The part of a WebSocket the client uses; `typeof WebSocket` fits. */
export type RealtimeSocket = Pick<
  WebSocket,
  'readyState' | 'onopen' | 'onmessage' | 'onclose' | 'onerror' | 'send' | 'close'
>;
export type RealtimeSocketConstructor = new (url: string) => RealtimeSocket;

type TimerHandle = ReturnType<typeof setTimeout>;

export interface RealtimeClientOptions {
  url: string;
  getToken?: () => Promise<string | null>;
  WebSocketImpl?: RealtimeSocketConstructor;
  /** Time for the server to answer a subscribe before the subscription is TIMED_OUT. */
  subscribeTimeoutMs?: number;
  /** How long the socket stays open after the last subscription leaves (route changes resubscribe). */
  lingerMs?: number;
  now?: () => number;
  setTimer?: (callback: () => void, ms: number) => TimerHandle;
  clearTimer?: (handle: TimerHandle) => void;
}

export interface RealtimeClient {
  /** Subscribes to a live query; the listener is called at once with the current state. */
  subscribe<T>(
    query: string,
    params: unknown,
    listener: LiveQueryListener<T>,
    options?: SubscribeOptions,
  ): () => void;
  /** The current state of a query, or the CONNECTING state when nobody subscribes to it. */
  getState<T>(query: string, params: unknown, options?: SubscribeOptions): LiveQueryState<T>;
  /** Uses this token from now on and sends it on the open socket (token refresh, sign-out). */
  setToken(token: string | null): void;
  /** Asks getToken again and sends the result on the open socket. */
  refreshAuth(): Promise<void>;
  /** Ends every subscription (CLOSED) and the socket, for good. */
  close(): void;
}

export const DEFAULT_SUBSCRIBE_TIMEOUT_MS = 10_000;
export const DEFAULT_LINGER_MS = 1000;
/** A socket that stayed open this long counts as a success for the reconnect table. */
export const STABLE_CONNECTION_MS = 10_000;

const OPEN = 1;
const NORMAL_CLOSURE = 1000;
const CONNECTING_STATE: LiveQueryState<never> = Object.freeze({ status: 'CONNECTING', docs: [] });
const CLOSED_STATE: LiveQueryState<never> = Object.freeze({ status: 'CLOSED', docs: [] });

/** A held record: the document's fields plus its id; matched by searchUid, else uid, else docId. */
type Held = { docId: string; searchUid?: string | null; uid?: string | null; [field: string]: unknown };

interface Entry {
  listener: LiveQueryListener<unknown>;
  suppressRemoval: boolean;
}

interface Subscription {
  key: string;
  query: string;
  params: unknown;
  entries: Set<Entry>;
  status: LiveQueryStatus;
  error: RealtimeError | undefined;
  /** The list with removals applied. */
  docs: Held[];
  /** The list with removals suppressed; kept only while a subscriber asks for it. */
  kept: Held[] | null;
  /** Sequence number of the last snapshot or changes frame; null before the first. */
  lastSeq: number | null;
  /** Waiting for the server to (re)confirm the subscription. */
  awaiting: boolean;
  timeout: TimerHandle | null;
  states: { plain?: LiveQueryState<unknown>; kept?: LiveQueryState<unknown> };
}

/**
 * One WebSocket per client, shared by all live queries (the realtime protocol of
 * packages/protocol/src/realtime.ts). It opens with the first subscription, resumes every
 * subscription after a reconnect from its last sequence number, and closes shortly after the
 * last subscription leaves.
 */
export function createRealtimeClient(options: RealtimeClientOptions): RealtimeClient {
  const SocketImpl = options.WebSocketImpl ?? globalThis.WebSocket;
  const subscribeTimeoutMs = options.subscribeTimeoutMs ?? DEFAULT_SUBSCRIBE_TIMEOUT_MS;
  const lingerMs = options.lingerMs ?? DEFAULT_LINGER_MS;
  const now = options.now ?? Date.now;
  const setTimer = options.setTimer ?? ((callback: () => void, ms: number) => setTimeout(callback, ms));
  const clearTimer = options.clearTimer ?? ((handle: TimerHandle) => clearTimeout(handle));

  let getToken = options.getToken;
  const subs = new Map<string, Subscription>();
  let socket: RealtimeSocket | null = null;
  /** The auth step of the current socket is done: subscribe frames may go out. */
  let ready = false;
  let openedAt: number | null = null;
  /** The token the current socket authenticated with. */
  let sentToken: string | null = null;
  let refreshPending = false;
  let authRequest = 0;
  let attempt = 0;
  let reconnectTimer: TimerHandle | null = null;
  let lingerTimer: TimerHandle | null = null;
  let closed = false;
  /** Set when the server does not speak our protocol version: nothing reconnects any more. */
  let fatal: RealtimeError | null = null;

  // ── subscriptions ───────────────────────────────────────────────────────────

  function stateOf(sub: Subscription, suppressRemoval: boolean): LiveQueryState<unknown> {
    const useKept = suppressRemoval && sub.kept !== null;
    const slot = useKept ? 'kept' : 'plain';
    let state = sub.states[slot];
    if (!state) {
      const docs = useKept ? (sub.kept as Held[]) : sub.docs;
      // The shared initial state, so a subscriber that read getState() first sees no change.
      if (sub.status === 'CONNECTING' && docs.length === 0) return CONNECTING_STATE;
      state = { status: sub.status, docs };
      if (sub.error) state.error = sub.error;
      sub.states[slot] = state;
    }
    return state;
  }

  function call(entry: Entry, state: LiveQueryState<unknown>) {
    try {
      entry.listener(state);
    } catch (error) {
      logFailure('realtime listener failed', error);
    }
  }

  /** Drops the cached state objects and tells every subscriber of `sub`. */
  function changed(sub: Subscription) {
    sub.states = {};
    for (const entry of [...sub.entries]) call(entry, stateOf(sub, entry.suppressRemoval));
  }

  function clearTimeoutOf(sub: Subscription) {
    if (sub.timeout !== null) clearTimer(sub.timeout);
    sub.timeout = null;
  }

  function awaitAnswer(sub: Subscription) {
    sub.awaiting = true;
    if (sub.timeout !== null) return;
    sub.timeout = setTimer(() => {
      sub.timeout = null;
      if (!sub.awaiting || subs.get(sub.key) !== sub) return;
      if (sub.status === 'ERROR' || sub.status === 'TIMED_OUT') return;
      debugLog(`realtime: ${sub.key} timed out`);
      sub.status = 'TIMED_OUT';
      changed(sub);
    }, subscribeTimeoutMs);
  }

  function answered(sub: Subscription) {
    sub.awaiting = false;
    clearTimeoutOf(sub);
    sub.status = 'SUBSCRIBED';
    sub.error = undefined;
  }

  function fail(sub: Subscription, error: RealtimeError) {
    sub.awaiting = false;
    clearTimeoutOf(sub);
    sub.status = 'ERROR';
    sub.error = error;
    sub.docs = [];
    if (sub.kept) sub.kept = [];
    sub.lastSeq = null;
    changed(sub);
  }

  function send(frame: ClientFrame) {
    if (socket?.readyState !== OPEN) return;
    debugLog(`realtime: send ${frame.type}`, frame);
    socket.send(JSON.stringify(frame));
  }

  function sendSubscribe(sub: Subscription) {
    const frame: ClientFrame = { type: 'subscribe', id: sub.key, query: sub.query, params: sub.params };
    if (sub.lastSeq !== null) frame.resume = { seq: sub.lastSeq };
    send(frame);
  }

  function subscribe<T>(
    query: string,
    params: unknown,
    listener: LiveQueryListener<T>,
    subscribeOptions: SubscribeOptions = {},
  ): () => void {
    const entry: Entry = {
      listener: listener as LiveQueryListener<unknown>,
      suppressRemoval: subscribeOptions.suppressRemoval === true,
    };
    if (closed) {
      call(entry, CLOSED_STATE);
      return () => {};
    }
    const key = subscriptionKey(query, params);
    let sub = subs.get(key);
    let start = false;
    if (!sub) {
      sub = {
        key,
        query,
        params,
        entries: new Set(),
        status: 'CONNECTING',
        error: undefined,
        docs: [],
        kept: null,
        lastSeq: null,
        awaiting: false,
        timeout: null,
        states: {},
      };
      subs.set(key, sub);
      start = true;
    } else if (sub.status === 'ERROR' && !fatal) {
      // A failed query is not retried by itself; a new subscriber asks again (after sign-in, say).
      sub.status = 'CONNECTING';
      sub.error = undefined;
      start = true;
    }
    if (entry.suppressRemoval && sub.kept === null) {
      sub.kept = [...sub.docs];
      sub.states.kept = undefined;
    }
    sub.entries.add(entry);
    const current = sub;
    if (fatal) {
      if (start) fail(current, fatal);
      else call(entry, stateOf(current, entry.suppressRemoval));
    } else {
      if (start) {
        awaitAnswer(current);
        if (ready) sendSubscribe(current);
      }
      connect();
      if (start && current.entries.size > 1) changed(current);
      else call(entry, stateOf(current, entry.suppressRemoval));
    }
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      unsubscribe(current, entry);
    };
  }

  function unsubscribe(sub: Subscription, entry: Entry) {
    if (!sub.entries.delete(entry)) return;
    call(entry, { ...stateOf(sub, entry.suppressRemoval), status: 'CLOSED' });
    if (sub.entries.size > 0) {
      if (entry.suppressRemoval && ![...sub.entries].some((other) => other.suppressRemoval)) {
        sub.kept = null;
        sub.states.kept = undefined;
      }
      return;
    }
    subs.delete(sub.key);
    clearTimeoutOf(sub);
    // After an error frame the server no longer holds the subscription.
    if (ready && sub.status !== 'ERROR') send({ type: 'unsubscribe', id: sub.key });
    sub.status = 'CLOSED';
    if (subs.size === 0) scheduleLinger();
  }

  function getState<T>(query: string, params: unknown, stateOptions: SubscribeOptions = {}) {
    const sub = subs.get(subscriptionKey(query, params));
    const state = sub ? stateOf(sub, stateOptions.suppressRemoval === true) : CONNECTING_STATE;
    return state as LiveQueryState<T>;
  }

  // ── server frames ───────────────────────────────────────────────────────────

  function onMessage(data: unknown) {
    let value: unknown;
    try {
      value = typeof data === 'string' ? JSON.parse(data) : undefined;
    } catch {
      value = undefined;
    }
    const frame = asServerFrame(value);
    if (!frame) {
      debugLog('realtime: ignored a malformed frame', data);
      return;
    }
    debugLog(`realtime: received ${frame.type}`, frame);
    attempt = 0;
    switch (frame.type) {
      case 'snapshot':
        return onSnapshot(frame);
      case 'changes':
        return onChanges(frame);
      case 'error':
        return onError(frame);
      case 'auth_result':
        return;
    }
  }

  function subscriptionFor(frame: { id: string; type: string }): Subscription | null {
    const sub = subs.get(frame.id);
    if (sub && sub.status !== 'ERROR') return sub;
    debugLog(`realtime: ${frame.type} for no current subscription`, frame.id);
    return null;
  }

  function onSnapshot(frame: SnapshotFrame) {
    const sub = subscriptionFor(frame);
    if (!sub) return;
    const added = frame.docs.map((doc): DocumentChange<Held> => toChange('added', doc.docId, doc.doc));
    sub.docs = mergeChanges([], added);
    // A snapshot replaces the list, but a list that keeps removed records keeps them here too:
    // a resync after a reconnect must not remove what an incremental change would not have.
    if (sub.kept) sub.kept = mergeChanges(sub.kept, added, { suppressRemoval: true });
    sub.lastSeq = frame.seq;
    answered(sub);
    changed(sub);
  }

  function onChanges(frame: ChangesFrame) {
    const sub = subscriptionFor(frame);
    if (!sub) return;
    if (sub.lastSeq !== null && frame.seq <= sub.lastSeq) {
      // Already merged (a resume overlapping what we hold); it still confirms the subscription.
      debugLog(`realtime: ${sub.key} ignored changes up to ${frame.seq}, holding ${sub.lastSeq}`);
      if (sub.status !== 'SUBSCRIBED' || sub.awaiting) {
        answered(sub);
        changed(sub);
      }
      return;
    }
    const changes = frame.changes.map((change) => toChange(change.type, change.docId, change.doc));
    sub.docs = mergeChanges(sub.docs, changes);
    if (sub.kept) sub.kept = mergeChanges(sub.kept, changes, { suppressRemoval: true });
    sub.lastSeq = frame.seq;
    answered(sub);
    changed(sub);
  }

  function onError(frame: ErrorFrame) {
    if (frame.id === '') {
      logFailure(`realtime: ${frame.code}`, frame.message);
      return;
    }
    const sub = subscriptionFor(frame);
    if (sub) fail(sub, { code: frame.code, message: frame.message });
  }

  // ── connection ──────────────────────────────────────────────────────────────

  /** Opens the socket unless it is open, opening or waiting to reconnect; keeps it from closing. */
  function connect() {
    if (lingerTimer !== null) clearTimer(lingerTimer);
    lingerTimer = null;
    if (closed || fatal || socket || reconnectTimer !== null) return;
    open();
  }

  function open() {
    reconnectTimer = null;
    let ws: RealtimeSocket;
    try {
      ws = new SocketImpl(options.url);
    } catch (error) {
      logFailure('realtime: cannot open the socket', error);
      scheduleReconnect(false);
      return;
    }
    debugLog(`realtime: connecting to ${options.url}`);
    socket = ws;
    ready = false;
    sentToken = null;
    openedAt = null;
    ws.onopen = () => {
      if (socket !== ws) return;
      openedAt = now();
      handshake(ws);
    };
    ws.onmessage = (event) => {
      if (socket === ws) onMessage(event.data);
    };
    ws.onclose = (event) => {
      if (socket === ws) onClose(event.code, event.reason);
    };
    ws.onerror = () => {
      if (socket === ws) debugLog('realtime: socket error');
    };
  }

  /** Sends the auth frame (when there is a token), then every subscription. */
  function handshake(ws: RealtimeSocket) {
    const finish = (token: string | null) => {
      if (socket !== ws || ws.readyState !== OPEN) return;
      if (token) {
        send({ type: 'auth', token });
        sentToken = token;
      }
      ready = true;
      for (const sub of subs.values()) {
        if (sub.status === 'ERROR') continue;
        awaitAnswer(sub);
        sendSubscribe(sub);
      }
      if (refreshPending) void refreshAuth();
    };
    refreshPending = false;
    if (!getToken) {
      finish(null);
      return;
    }
    authRequest++;
    void fetchToken().then(finish);
  }

  async function fetchToken(): Promise<string | null> {
    if (!getToken) return null;
    try {
      return (await getToken()) || null;
    } catch (error) {
      logFailure('realtime: no token', error);
      return null;
    }
  }

  async function refreshAuth(): Promise<void> {
    if (!socket) return; // the next socket asks for the token when it opens
    if (!ready) {
      refreshPending = true; // the handshake in progress may hold an older token
      return;
    }
    const ws = socket;
    const request = ++authRequest;
    const token = await fetchToken();
    if (socket !== ws || request !== authRequest || !ready) return;
    if (token) {
      send({ type: 'auth', token });
      sentToken = token;
    } else if (sentToken) {
      // The protocol has no sign-out frame: a fresh connection is anonymous.
      debugLog('realtime: signed out, reconnecting');
      detach(ws, 'signed out');
      lost();
      open();
    }
  }

  function setToken(token: string | null) {
    getToken = () => Promise.resolve(token);
    void refreshAuth();
  }

  /** Forgets the socket (so its late events are ignored) and closes it. */
  function detach(ws: RealtimeSocket, reason: string) {
    socket = null;
    ready = false;
    openedAt = null;
    ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
    try {
      ws.close(NORMAL_CLOSURE, reason);
    } catch (error) {
      debugLog('realtime: close failed', error);
    }
  }

  /** Every live subscription now waits for the next socket to confirm it. */
  function lost() {
    for (const sub of subs.values()) if (sub.status !== 'ERROR') awaitAnswer(sub);
  }

  function onClose(code: number, reason: string) {
    debugLog(`realtime: socket closed (${code}${reason ? ` ${reason}` : ''})`);
    const stayedUp = openedAt !== null && now() - openedAt >= STABLE_CONNECTION_MS;
    socket = null;
    ready = false;
    openedAt = null;
    if (stayedUp) attempt = 0;
    if (code === CLOSE_CODES.unsupportedVersion) {
      fatal = {
        code: 'unsupported_version',
        message: reason || 'The server does not speak this client version.',
      };
      for (const sub of subs.values()) fail(sub, fatal);
      return;
    }
    lost();
    scheduleReconnect(code === CLOSE_CODES.slowConsumer);
  }

  function scheduleReconnect(soon: boolean) {
    if (closed || subs.size === 0 || reconnectTimer !== null) return;
    const delays: readonly number[] = RECONNECT_DELAYS_MS;
    const delay = soon
      ? RECONNECT_DELAYS_MS[0]
      : (delays[Math.min(attempt, delays.length - 1)] ?? RECONNECT_DELAYS_MS[0]);
    if (!soon) attempt++;
    debugLog(`realtime: reconnecting in ${delay} ms`);
    reconnectTimer = setTimer(open, delay);
  }

  function scheduleLinger() {
    if (lingerTimer !== null) return;
    lingerTimer = setTimer(() => {
      lingerTimer = null;
      if (subs.size > 0) return;
      if (reconnectTimer !== null) clearTimer(reconnectTimer);
      reconnectTimer = null;
      attempt = 0;
      if (socket) detach(socket, 'idle');
    }, lingerMs);
  }

  function close() {
    if (closed) return;
    closed = true;
    for (const sub of subs.values()) {
      clearTimeoutOf(sub);
      sub.awaiting = false;
      sub.status = 'CLOSED';
      changed(sub);
    }
    subs.clear();
    if (reconnectTimer !== null) clearTimer(reconnectTimer);
    if (lingerTimer !== null) clearTimer(lingerTimer);
    reconnectTimer = lingerTimer = null;
    if (socket) detach(socket, 'client closed');
  }

  return { subscribe, getState, setToken, refreshAuth, close };
}

// ── frames, by hand (zod stays out of the web bundle) ─────────────────────────

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isSeq = (value: unknown) => typeof value === 'number' && Number.isInteger(value) && value >= 0;
const isLiveDocument = (value: unknown) => isRecord(value) && typeof value.docId === 'string';
const CHANGE_TYPES: readonly unknown[] = ['added', 'modified', 'removed'];
const isChange = (value: unknown) =>
  isLiveDocument(value) && CHANGE_TYPES.includes((value as { type: unknown }).type);

/** The frame when it has the shape the client relies on (type, id, seq, lists), else null. */
export function asServerFrame(value: unknown): ServerFrame | null {
  if (!isRecord(value)) return null;
  const ok = (() => {
    switch (value.type) {
      case 'snapshot':
        return (
          typeof value.id === 'string' &&
          isSeq(value.seq) &&
          Array.isArray(value.docs) &&
          value.docs.every(isLiveDocument)
        );
      case 'changes':
        return (
          typeof value.id === 'string' &&
          isSeq(value.seq) &&
          Array.isArray(value.changes) &&
          value.changes.every(isChange)
        );
      case 'error':
        return (
          typeof value.id === 'string' && typeof value.code === 'string' && typeof value.message === 'string'
        );
      case 'auth_result':
        return value.userUid === null || typeof value.userUid === 'string';
      default:
        return false;
    }
  })();
  return ok ? (value as ServerFrame) : null;
}

function toChange(type: DocumentChange<Held>['type'], docId: string, doc: unknown): DocumentChange<Held> {
  return { type, docId, doc: isRecord(doc) ? { ...doc, docId } : { docId } };
}

// ── helpers for the React binding ─────────────────────────────────────────────

/**
 * The socket URL for a main-connection base URL (empty: the page's origin), http→ws, with the
 * protocol version: `https://shop.example/api` → `wss://shop.example/api/realtime?v=1`.
 */
export function realtimeSocketUrl(mainUrl: string, pageUrl: string): string {
  const url = new URL(`${mainUrl.replace(/\/+$/, '')}${REALTIME_PATH}`, pageUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : url.protocol === 'http:' ? 'ws:' : url.protocol;
  url.search = '';
  url.hash = '';
  url.searchParams.set('v', String(REALTIME_PROTOCOL_VERSION));
  return url.toString();
}

/**
 * A store for useSyncExternalStore over one query: getSnapshot returns the client's cached
 * state object, so React re-renders only when the state changes.
 */
export function createLiveQueryStore<T>(
  client: RealtimeClient,
  query: string,
  params: unknown,
  options: SubscribeOptions = {},
) {
  let current = client.getState<T>(query, params, options);
  return {
    subscribe(onChange: () => void): () => void {
      return client.subscribe<T>(
        query,
        params,
        (state) => {
          if (state === current) return;
          current = state;
          onChange();
        },
        options,
      );
    },
    getSnapshot: (): LiveQueryState<T> => current,
  };
}
