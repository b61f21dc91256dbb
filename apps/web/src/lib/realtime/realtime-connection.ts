import type { ClientFrame, ErrorCode, ServerFrame } from '@vitrine/protocol';
import { debugLog, logFailure } from '../debug.ts';
import { asServerFrame } from './server-frames.ts';
import { CLOSE_CODES, RECONNECT_DELAYS_MS } from './wire.ts';

/** `unsupported_version`: the server closed with CLOSE_CODES.unsupportedVersion (a reload may help). */
export type RealtimeErrorCode = ErrorCode | 'unsupported_version';
export interface RealtimeError {
  code: RealtimeErrorCode;
  message: string;
}

/** The part of a WebSocket the client uses; `typeof WebSocket` fits. */
export type RealtimeSocket = Pick<
  WebSocket,
  'readyState' | 'onopen' | 'onmessage' | 'onclose' | 'onerror' | 'send' | 'close'
>;
export type RealtimeSocketConstructor = new (url: string) => RealtimeSocket;

export type TimerHandle = ReturnType<typeof setTimeout>;

/** Timers and randomness, injectable so tests run on a fake clock with seeded draws. */
export interface Scheduler {
  now: () => number;
  setTimer: (callback: () => void, ms: number) => TimerHandle;
  clearTimer: (handle: TimerHandle) => void;
  /** A draw in [0, 1), for the reconnect jitter. */
  random: () => number;
}

/** What the browser says that makes a reconnect worth trying now rather than at its time. */
export type ConnectionHint = 'online' | 'visible';
/** Starts reporting hints; returns the way to stop. */
export type ConnectionHints = (onHint: (hint: ConnectionHint) => void) => () => void;

export interface ConnectionOptions {
  url: string;
  getToken?: (() => Promise<string | null>) | undefined;
  WebSocketImpl?: RealtimeSocketConstructor | undefined;
  /** How long the socket stays open after nothing needs it any more (route changes resubscribe). */
  lingerMs?: number | undefined;
  /** How often an open socket asks the server for a pong; null: never. */
  pingIntervalMs?: number | null | undefined;
  /** How long a ping waits for any frame before the socket counts as dead. */
  pongTimeoutMs?: number | undefined;
  /** Where online/visibility hints come from; the page's window and document by default. */
  hints?: ConnectionHints | undefined;
}

/** What the connection tells the layer above it (the subscriptions). */
export interface ConnectionEvents {
  /** The socket is open and authenticated: subscribe frames may go out. */
  onReady(): void;
  onFrame(frame: ServerFrame): void;
  /** The socket went away; a new one follows on the reconnect schedule. */
  onLost(): void;
  /** The server does not speak this client's version: nothing reconnects any more. */
  onFatal(error: RealtimeError): void;
  /** Whether anything still needs the socket (else it is not reopened and closes after the linger). */
  isNeeded(): boolean;
}

export interface RealtimeConnection {
  /** Whether the socket is open and authenticated. */
  readonly ready: boolean;
  /** Set once the server refused this client's version. */
  readonly fatal: RealtimeError | null;
  /** Opens the socket unless it is open, opening or waiting to reconnect; keeps it from closing. */
  want(): void;
  /** Nothing needs the socket now: it closes after the linger unless wanted again. */
  release(): void;
  /** Sends a frame on the open socket; nothing when there is none. */
  send(frame: ClientFrame): void;
  setToken(token: string | null): void;
  refreshAuth(): Promise<void>;
  /** Closes the socket for good. */
  close(): void;
}

export const DEFAULT_LINGER_MS = 1000;
/** A socket that stayed open this long counts as a success for the reconnect table. */
export const STABLE_CONNECTION_MS = 10_000;
export const DEFAULT_PING_INTERVAL_MS = 25_000;
export const DEFAULT_PONG_TIMEOUT_MS = 10_000;
/**
 * Each reconnect waits its table delay plus up to this share of it more, drawn at random: after a
 * server restart its viewers come back spread over 1–2.5 s, 2–5 s, … instead of all in one second.
 */
export const RECONNECT_JITTER = 1.5;

const OPEN = 1;
const NORMAL_CLOSURE = 1000;

/** The wait before reconnect attempt `attempt` (0-based): the table's delay, the last repeating, plus jitter. */
export function reconnectDelay(attempt: number, random: () => number): number {
  const delays: readonly number[] = RECONNECT_DELAYS_MS;
  const base = delays[Math.min(attempt, delays.length - 1)] ?? RECONNECT_DELAYS_MS[0];
  return Math.round(base * (1 + RECONNECT_JITTER * random()));
}

/** The page's hints: the network came back (`online`), the tab is shown again (`visibilitychange`). */
export const browserHints: ConnectionHints = (onHint) => {
  if (typeof window === 'undefined' || typeof document === 'undefined') return () => {};
  const online = () => onHint('online');
  const visibility = () => {
    if (document.visibilityState === 'visible') onHint('visible');
  };
  window.addEventListener('online', online);
  document.addEventListener('visibilitychange', visibility);
  return () => {
    window.removeEventListener('online', online);
    document.removeEventListener('visibilitychange', visibility);
  };
};

/**
 * The realtime socket apart from what travels on it (after tldraw's ClientWebSocketAdapter): it
 * opens when wanted, authenticates, reconnects on the table with jitter (sooner on an online or
 * visibility hint), pings to find a socket that died silently, and closes a while after nothing
 * needs it.
 */
export function createRealtimeConnection(
  options: ConnectionOptions,
  scheduler: Scheduler,
  events: ConnectionEvents,
): RealtimeConnection {
  const SocketImpl = options.WebSocketImpl ?? globalThis.WebSocket;
  const lingerMs = options.lingerMs ?? DEFAULT_LINGER_MS;
  const pingIntervalMs =
    options.pingIntervalMs === undefined ? DEFAULT_PING_INTERVAL_MS : options.pingIntervalMs;
  const pongTimeoutMs = options.pongTimeoutMs ?? DEFAULT_PONG_TIMEOUT_MS;
  const { now, setTimer, clearTimer, random } = scheduler;

  let getToken = options.getToken;
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
  let pingTimer: TimerHandle | null = null;
  let pongTimer: TimerHandle | null = null;
  let closed = false;
  let fatal: RealtimeError | null = null;
  const stopHints = (options.hints ?? browserHints)(onHint);

  function send(frame: ClientFrame) {
    if (socket?.readyState !== OPEN) return;
    debugLog(`realtime: send ${frame.type}`, frame);
    socket.send(JSON.stringify(frame));
  }

  function want() {
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
    // Any frame shows the socket is alive, not only the pong.
    stopPongWait();
    if (frame.type === 'pong' || frame.type === 'auth_result') return;
    events.onFrame(frame);
  }

  /** Sends the auth frame (when there is a token), then lets the subscriptions go out. */
  function handshake(ws: RealtimeSocket) {
    const finish = (token: string | null) => {
      if (socket !== ws || ws.readyState !== OPEN) return;
      if (token) {
        send({ type: 'auth', token });
        sentToken = token;
      }
      ready = true;
      schedulePing();
      events.onReady();
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
      events.onLost();
      open();
    }
  }

  function setToken(token: string | null) {
    getToken = () => Promise.resolve(token);
    void refreshAuth();
  }

  // ── liveness ────────────────────────────────────────────────────────────────

  function schedulePing() {
    if (pingIntervalMs === null || pingTimer !== null) return;
    pingTimer = setTimer(() => {
      pingTimer = null;
      ping();
      schedulePing();
    }, pingIntervalMs);
  }

  /** Asks for a pong; with no frame at all before the timeout the socket is taken for dead. */
  function ping() {
    const ws = socket;
    if (!ws || !ready || pongTimer !== null) return;
    send({ type: 'ping' });
    pongTimer = setTimer(() => {
      pongTimer = null;
      if (socket !== ws) return;
      debugLog('realtime: no pong, reconnecting');
      detach(ws, 'no pong');
      events.onLost();
      scheduleReconnect(false);
    }, pongTimeoutMs);
  }

  function stopPongWait() {
    if (pongTimer !== null) clearTimer(pongTimer);
    pongTimer = null;
  }

  function stopPing() {
    stopPongWait();
    if (pingTimer !== null) clearTimer(pingTimer);
    pingTimer = null;
  }

  function onHint(hint: ConnectionHint) {
    if (closed || fatal || !events.isNeeded()) return;
    if (reconnectTimer !== null) {
      // Waiting out a delay that was meant for a network that was down or a tab that slept.
      debugLog(`realtime: ${hint}, reconnecting now`);
      clearTimer(reconnectTimer);
      open();
    } else if (hint === 'visible' && pingIntervalMs !== null) {
      // A tab that slept may hold a socket that died meanwhile: find out now.
      ping();
    }
  }

  // ── closing and reconnecting ────────────────────────────────────────────────

  /** Forgets the socket (so its late events are ignored) and closes it. */
  function detach(ws: RealtimeSocket, reason: string) {
    socket = null;
    ready = false;
    openedAt = null;
    stopPing();
    ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
    try {
      ws.close(NORMAL_CLOSURE, reason);
    } catch (error) {
      debugLog('realtime: close failed', error);
    }
  }

  function onClose(code: number, reason: string) {
    debugLog(`realtime: socket closed (${code}${reason ? ` ${reason}` : ''})`);
    const stayedUp = openedAt !== null && now() - openedAt >= STABLE_CONNECTION_MS;
    socket = null;
    ready = false;
    openedAt = null;
    stopPing();
    if (stayedUp) attempt = 0;
    if (code === CLOSE_CODES.unsupportedVersion) {
      fatal = {
        code: 'unsupported_version',
        message: reason || 'The server does not speak this client version.',
      };
      events.onFatal(fatal);
      return;
    }
    events.onLost();
    scheduleReconnect(code === CLOSE_CODES.slowConsumer);
  }

  function scheduleReconnect(soon: boolean) {
    if (closed || !events.isNeeded() || reconnectTimer !== null) return;
    const delay = reconnectDelay(soon ? 0 : attempt, random);
    if (!soon) attempt++;
    debugLog(`realtime: reconnecting in ${delay} ms`);
    reconnectTimer = setTimer(open, delay);
  }

  function release() {
    if (lingerTimer !== null) return;
    lingerTimer = setTimer(() => {
      lingerTimer = null;
      if (events.isNeeded()) return;
      if (reconnectTimer !== null) clearTimer(reconnectTimer);
      reconnectTimer = null;
      attempt = 0;
      if (socket) detach(socket, 'idle');
    }, lingerMs);
  }

  function close() {
    if (closed) return;
    closed = true;
    stopHints();
    if (reconnectTimer !== null) clearTimer(reconnectTimer);
    if (lingerTimer !== null) clearTimer(lingerTimer);
    reconnectTimer = lingerTimer = null;
    if (socket) detach(socket, 'client closed');
  }

  return {
    get ready() {
      return ready;
    },
    get fatal() {
      return fatal;
    },
    want,
    release,
    send,
    setToken,
    refreshAuth,
    close,
  };
}
