import {
  type ConnectionHints,
  createRealtimeConnection,
  type RealtimeSocketConstructor,
  type Scheduler,
  type TimerHandle,
} from './realtime-connection.ts';
import {
  createSubscriptionRegistry,
  type LiveQuerySource,
  type LiveQueryState,
  type SubscribeOptions,
} from './realtime-subscriptions.ts';
import { REALTIME_PATH, REALTIME_PROTOCOL_VERSION } from './wire.ts';

export {
  DEFAULT_LINGER_MS,
  type RealtimeError,
  type RealtimeErrorCode,
  type RealtimeSocket,
  type RealtimeSocketConstructor,
  STABLE_CONNECTION_MS,
} from './realtime-connection.ts';
export {
  DEFAULT_SUBSCRIBE_TIMEOUT_MS,
  type LiveDoc,
  type LiveQueryListener,
  type LiveQueryState,
  type LiveQueryStatus,
  type SubscribeOptions,
} from './realtime-subscriptions.ts';
export { asServerFrame } from './server-frames.ts';

export interface RealtimeClientOptions {
  url: string;
  getToken?: () => Promise<string | null>;
  WebSocketImpl?: RealtimeSocketConstructor;
  /** Time for the server to answer a subscribe before the subscription is TIMED_OUT. */
  subscribeTimeoutMs?: number;
  /** How long the socket stays open after the last subscription leaves (route changes resubscribe). */
  lingerMs?: number;
  /** How often an open socket checks the server is there (ping → pong); null: never. */
  pingIntervalMs?: number | null;
  /** How long a ping waits for an answer before the socket is taken for dead and replaced. */
  pongTimeoutMs?: number;
  /** Online/visibility hints that cut a reconnect wait short; the page's by default. */
  hints?: ConnectionHints;
  now?: () => number;
  setTimer?: (callback: () => void, ms: number) => TimerHandle;
  clearTimer?: (handle: TimerHandle) => void;
  /** Draws in [0, 1) for the reconnect jitter; Math.random by default. */
  random?: () => number;
}

export interface RealtimeClient extends LiveQuerySource {
  /** Uses this token from now on and sends it on the open socket (token refresh, sign-out). */
  setToken(token: string | null): void;
  /** Asks getToken again and sends the result on the open socket. */
  refreshAuth(): Promise<void>;
  /** Ends every subscription (CLOSED) and the socket, for good. */
  close(): void;
}

/**
 * Live queries over one WebSocket (the realtime protocol of packages/protocol/src/realtime.ts):
 * the subscriptions (realtime-subscriptions.ts) over the connection (realtime-connection.ts). The
 * socket opens with the first subscription, every subscription resumes from its last sequence
 * number after a reconnect, and the socket closes shortly after the last subscription leaves.
 */
export function createRealtimeClient(options: RealtimeClientOptions): RealtimeClient {
  const scheduler: Scheduler = {
    now: options.now ?? Date.now,
    setTimer: options.setTimer ?? ((callback: () => void, ms: number) => setTimeout(callback, ms)),
    clearTimer: options.clearTimer ?? ((handle: TimerHandle) => clearTimeout(handle)),
    random: options.random ?? Math.random,
  };
  const connection = createRealtimeConnection(options, scheduler, {
    onReady: () => subscriptions.sendAll(),
    onFrame: (frame) => subscriptions.receive(frame),
    onLost: () => subscriptions.lost(),
    onFatal: (error) => subscriptions.failAll(error),
    isNeeded: () => subscriptions.size > 0,
  });
  const subscriptions = createSubscriptionRegistry(connection, scheduler, options.subscribeTimeoutMs);
  return {
    subscribe: subscriptions.subscribe,
    getState: subscriptions.getState,
    setToken: connection.setToken,
    refreshAuth: connection.refreshAuth,
    close() {
      subscriptions.closeAll();
      connection.close();
    },
  };
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
