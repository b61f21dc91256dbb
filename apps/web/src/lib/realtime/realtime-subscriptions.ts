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
  type RealtimeError,
  reconnectDelay,
  type Scheduler,
  type TimerHandle,
} from './realtime-connection.ts';
import { isRecord } from './server-frames.ts';
import { subscriptionKey } from './wire.ts';

/** SubscriptionStatus plus the wait for the first answer (supabase's "joining"). */
export type LiveQueryStatus = SubscriptionStatus | 'CONNECTING';

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

/** The connection as the subscriptions use it (realtime-connection.ts). */
export interface SubscriptionTransport {
  readonly ready: boolean;
  readonly fatal: RealtimeError | null;
  want(): void;
  release(): void;
  send(frame: ClientFrame): void;
}

/** Where live queries are subscribed to and their state read: the client, and its registry. */
export interface LiveQuerySource {
  /** Subscribes to a live query; the listener is called at once with the current state. */
  subscribe<T>(
    query: string,
    params: unknown,
    listener: LiveQueryListener<T>,
    options?: SubscribeOptions,
  ): () => void;
  /** The current state of a query, or the CONNECTING state when nobody subscribes to it. */
  getState<T>(query: string, params: unknown, options?: SubscribeOptions): LiveQueryState<T>;
}

export interface SubscriptionRegistry extends LiveQuerySource {
  /** Whether any subscription is held (the connection is needed). */
  readonly size: number;
  /** The connection is ready: every live subscription is (re)sent, resuming from its last seq. */
  sendAll(): void;
  receive(frame: ServerFrame): void;
  /** The connection went away: every live subscription waits for the next one to confirm it. */
  lost(): void;
  /** Nothing will ever answer: every subscription fails with this error. */
  failAll(error: RealtimeError): void;
  /** Ends every subscription (CLOSED) for good. */
  closeAll(): void;
}

export const DEFAULT_SUBSCRIBE_TIMEOUT_MS = 10_000;

/**
 * Errors the server may not give again: a failure on its side. A subscription that gets one is
 * asked again by itself, on the reconnect table with jitter; other errors (forbidden, not found,
 * unauthenticated) wait for a new subscriber, which asks again (after a sign-in, say).
 */
const TRANSIENT_ERRORS: readonly ErrorCode[] = ['internal'];

const CONNECTING_STATE: LiveQueryState<never> = Object.freeze({ status: 'CONNECTING', docs: [] });
export const CLOSED_STATE: LiveQueryState<never> = Object.freeze({ status: 'CLOSED', docs: [] });

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
  /** Automatic retries after a transient error since the last answer, and the one waiting. */
  retries: number;
  retryTimer: TimerHandle | null;
  states: { plain?: LiveQueryState<unknown>; kept?: LiveQueryState<unknown> };
}

/**
 * The live queries held over one connection (supabase realtime-js's channels): one subscription
 * per query and params shared by its subscribers, its state (CONNECTING, SUBSCRIBED, TIMED_OUT,
 * ERROR, CLOSED), and its documents merged from snapshots and changes.
 */
export function createSubscriptionRegistry(
  transport: SubscriptionTransport,
  scheduler: Scheduler,
  subscribeTimeoutMs: number = DEFAULT_SUBSCRIBE_TIMEOUT_MS,
): SubscriptionRegistry {
  const { setTimer, clearTimer, random } = scheduler;
  const subs = new Map<string, Subscription>();
  let closed = false;

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

  function clearTimersOf(sub: Subscription) {
    if (sub.timeout !== null) clearTimer(sub.timeout);
    sub.timeout = null;
    if (sub.retryTimer !== null) clearTimer(sub.retryTimer);
    sub.retryTimer = null;
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
    clearTimersOf(sub);
    sub.retries = 0;
    sub.status = 'SUBSCRIBED';
    sub.error = undefined;
  }

  function fail(sub: Subscription, error: RealtimeError) {
    sub.awaiting = false;
    clearTimersOf(sub);
    sub.status = 'ERROR';
    sub.error = error;
    sub.docs = [];
    if (sub.kept) sub.kept = [];
    sub.lastSeq = null;
    changed(sub);
    if ((TRANSIENT_ERRORS as readonly string[]).includes(error.code)) scheduleRetry(sub);
  }

  function scheduleRetry(sub: Subscription) {
    const delay = reconnectDelay(sub.retries, random);
    sub.retries++;
    debugLog(`realtime: asking again for ${sub.key} in ${delay} ms`);
    sub.retryTimer = setTimer(() => {
      sub.retryTimer = null;
      if (subs.get(sub.key) !== sub || sub.status !== 'ERROR' || transport.fatal) return;
      restart(sub);
      changed(sub);
    }, delay);
  }

  /** A failed subscription asks again: CONNECTING until the server answers. */
  function restart(sub: Subscription) {
    sub.status = 'CONNECTING';
    sub.error = undefined;
    awaitAnswer(sub);
    if (transport.ready) sendSubscribe(sub);
  }

  function sendSubscribe(sub: Subscription) {
    const frame: ClientFrame = { type: 'subscribe', id: sub.key, query: sub.query, params: sub.params };
    if (sub.lastSeq !== null) frame.resume = { seq: sub.lastSeq };
    transport.send(frame);
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
    const fatal = transport.fatal;
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
        retries: 0,
        retryTimer: null,
        states: {},
      };
      subs.set(key, sub);
      start = true;
    } else if (sub.status === 'ERROR' && !fatal) {
      // A new subscriber asks a failed query again at once (after sign-in, say).
      clearTimersOf(sub);
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
        if (transport.ready) sendSubscribe(current);
      }
      transport.want();
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
    clearTimersOf(sub);
    // After an error frame the server no longer holds the subscription.
    if (transport.ready && sub.status !== 'ERROR') transport.send({ type: 'unsubscribe', id: sub.key });
    sub.status = 'CLOSED';
    if (subs.size === 0) transport.release();
  }

  function getState<T>(query: string, params: unknown, stateOptions: SubscribeOptions = {}) {
    const sub = subs.get(subscriptionKey(query, params));
    const state = sub ? stateOf(sub, stateOptions.suppressRemoval === true) : CONNECTING_STATE;
    return state as LiveQueryState<T>;
  }

  // ── server frames ───────────────────────────────────────────────────────────

  function receive(frame: ServerFrame) {
    switch (frame.type) {
      case 'snapshot':
        return onSnapshot(frame);
      case 'changes':
        return onChanges(frame);
      case 'error':
        return onError(frame);
      default:
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

  // ── the connection's turns ──────────────────────────────────────────────────

  function sendAll() {
    for (const sub of subs.values()) {
      if (sub.status === 'ERROR') continue;
      awaitAnswer(sub);
      sendSubscribe(sub);
    }
  }

  function lost() {
    for (const sub of subs.values()) if (sub.status !== 'ERROR') awaitAnswer(sub);
  }

  function failAll(error: RealtimeError) {
    for (const sub of subs.values()) fail(sub, error);
  }

  function closeAll() {
    if (closed) return;
    closed = true;
    for (const sub of subs.values()) {
      clearTimersOf(sub);
      sub.awaiting = false;
      sub.status = 'CLOSED';
      changed(sub);
    }
    subs.clear();
  }

  return {
    subscribe,
    getState,
    get size() {
      return subs.size;
    },
    sendAll,
    receive,
    lost,
    failAll,
    closeAll,
  };
}

function toChange(type: DocumentChange<Held>['type'], docId: string, doc: unknown): DocumentChange<Held> {
  return { type, docId, doc: isRecord(doc) ? { ...doc, docId } : { docId } };
}
