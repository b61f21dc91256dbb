import { afterEach, beforeEach, vi } from 'vitest';
import { debugLog, logFailure } from '../debug.ts';
import { createRealtimeClient, type LiveQueryState, type RealtimeClientOptions } from './realtime-client.ts';
import * as wire from './wire.ts';

// Shared by the realtime client's tests (connection, subscriptions, client). Each test file mocks
// ../debug.ts itself (debug.ts reads `window` when it loads; these tests run in node).

/** A scripted in-memory WebSocket: the test opens it, feeds it frames and drops it. */
export class FakeSocket {
  static instances: FakeSocket[] = [];
  readyState: 0 | 1 | 2 | 3 = 0;
  /** Frames the client sent, parsed. */
  sent: Array<Record<string, unknown>> = [];
  closedWith: { code: number | undefined; reason: string | undefined } | null = null;
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  onerror: (() => void) | null = null;

  constructor(readonly url: string) {
    FakeSocket.instances.push(this);
  }

  send(data: string) {
    if (this.readyState !== 1) throw new Error('send on a socket that is not open');
    this.sent.push(JSON.parse(data));
  }

  close(code?: number, reason?: string) {
    this.closedWith = { code, reason };
    this.readyState = 3;
  }

  // ── scripting ──
  open() {
    this.readyState = 1;
    this.onopen?.();
  }

  receive(frame: unknown) {
    this.onmessage?.({ data: typeof frame === 'string' ? frame : JSON.stringify(frame) });
  }

  drop(code = 1006, reason = '') {
    this.readyState = 3;
    this.onclose?.({ code, reason });
  }

  types() {
    return this.sent.map((frame) => frame.type);
  }
}

export const SOCKET_URL = 'ws://test/realtime?v=1';
export const key = wire.subscriptionKey;

/**
 * A client on the fake socket and clock, with the table's delays exactly (no jitter), no liveness
 * pings and no browser hints unless a test asks for them.
 */
export function makeClient(options: Partial<RealtimeClientOptions> = {}) {
  return createRealtimeClient({
    url: SOCKET_URL,
    WebSocketImpl: FakeSocket,
    random: () => 0,
    pingIntervalMs: null,
    hints: () => () => {},
    ...options,
  });
}

export const sockets = () => FakeSocket.instances;
export const lastSocket = () => {
  const socket = FakeSocket.instances.at(-1);
  if (!socket) throw new Error('no socket');
  return socket;
};

/** Records every state a listener receives. */
export function recorder<T = Record<string, unknown>>() {
  const states: LiveQueryState<T>[] = [];
  const listener = (state: LiveQueryState<T>) => states.push(state);
  return {
    listener,
    states,
    get last() {
      const state = states.at(-1);
      if (!state) throw new Error('no state yet');
      return state;
    },
  };
}

/**
 * Where most tests start: a client with one recorded subscription, on a socket that has opened.
 * `id` is the subscription's key, for the frames the test feeds it.
 */
export function subscribeOnOpenSocket(
  query = 'comments',
  params: Record<string, unknown> = {},
  options: Partial<RealtimeClientOptions> = {},
) {
  const client = makeClient(options);
  const rec = recorder();
  client.subscribe(query, params, rec.listener);
  const socket = lastSocket();
  socket.open();
  return { client, rec, socket, id: key(query, params) };
}

/** Lets the promise of getToken settle. */
export const flush = () => vi.advanceTimersByTimeAsync(0);

/** Fake timers and fresh sockets and log mocks for every test of the file that calls it. */
export function withFakeRealtime() {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeSocket.instances = [];
    vi.mocked(debugLog).mockClear();
    vi.mocked(logFailure).mockClear();
  });

  afterEach(() => {
    vi.useRealTimers();
  });
}
