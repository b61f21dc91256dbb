import * as protocol from '@vitrine/protocol';
import { describe, expect, it, vi } from 'vitest';
import { debugLog } from '../debug.ts';
import { type ConnectionHint, RECONNECT_JITTER, reconnectDelay } from './realtime-connection.ts';
import {
  flush,
  key,
  lastSocket,
  makeClient,
  recorder,
  SOCKET_URL,
  sockets,
  subscribeOnOpenSocket,
  withFakeRealtime,
} from './realtime-test-support.ts';
import { RECONNECT_DELAYS_MS } from './wire.ts';

vi.mock('../debug.ts', () => import('../debug-test-double.ts'));

withFakeRealtime();

// The socket: opening, auth, the reconnect table, linger, version (realtime-connection.ts).
describe('realtime connection', () => {
  it('shares one socket between subscriptions and opens it lazily', () => {
    const client = makeClient();
    expect(sockets()).toHaveLength(0);
    client.subscribe('comments', { eventId: 'e1' }, () => {});
    client.subscribe('notifications', {}, () => {});
    expect(sockets()).toHaveLength(1);
    const socket = lastSocket();
    expect(socket.url).toBe(SOCKET_URL);
    socket.open();
    expect(socket.sent).toEqual([
      {
        type: 'subscribe',
        id: key('comments', { eventId: 'e1' }),
        query: 'comments',
        params: { eventId: 'e1' },
      },
      { type: 'subscribe', id: key('notifications', {}), query: 'notifications', params: {} },
    ]);
    client.subscribe('checkout', { id: 'c1' }, () => {});
    expect(socket.types()).toEqual(['subscribe', 'subscribe', 'subscribe']);
    expect(sockets()).toHaveLength(1);
  });

  it('sends the auth frame before any subscribe', async () => {
    const client = makeClient({ getToken: async () => 'token-1' });
    client.subscribe('comments', { eventId: 'e1' }, () => {});
    const socket = lastSocket();
    socket.open();
    client.subscribe('notifications', {}, () => {}); // while the token is on its way
    expect(socket.sent).toEqual([]);
    await flush();
    expect(socket.sent[0]).toEqual({ type: 'auth', token: 'token-1' });
    expect(socket.types()).toEqual(['auth', 'subscribe', 'subscribe']);
  });

  it('sends no auth frame without a token', async () => {
    const client = makeClient({ getToken: async () => null });
    client.subscribe('comments', {}, () => {});
    lastSocket().open();
    await flush();
    expect(lastSocket().types()).toEqual(['subscribe']);
  });

  it('reconnects after an unexpected close with the delay table, the last delay repeating', () => {
    const client = makeClient();
    client.subscribe('comments', {}, () => {});
    lastSocket().open();
    for (const delay of [1000, 2000, 5000, 10000, 10000]) {
      const count = sockets().length;
      lastSocket().drop(1006);
      vi.advanceTimersByTime(delay - 1);
      expect(sockets()).toHaveLength(count);
      vi.advanceTimersByTime(1);
      expect(sockets()).toHaveLength(count + 1);
    }
  });

  it('counts failed opens as attempts and starts over after a frame', () => {
    const client = makeClient();
    client.subscribe('comments', {}, () => {});
    lastSocket().drop(1006); // never opened
    vi.advanceTimersByTime(1000);
    lastSocket().drop(1006);
    vi.advanceTimersByTime(2000);
    const socket = lastSocket();
    socket.open();
    socket.receive({ type: 'snapshot', id: key('comments', {}), seq: 1, docs: [] });
    socket.drop(1001, 'going away');
    const count = sockets().length;
    vi.advanceTimersByTime(1000);
    expect(sockets()).toHaveLength(count + 1);
  });

  it('starts over after a connection that stayed up, even without frames', () => {
    let time = 0;
    const client = makeClient({ now: () => time });
    client.subscribe('comments', {}, () => {});
    lastSocket().drop(1006);
    vi.advanceTimersByTime(1000);
    lastSocket().drop(1006);
    vi.advanceTimersByTime(2000);
    lastSocket().open();
    time += 60_000;
    lastSocket().drop(1006);
    const count = sockets().length;
    vi.advanceTimersByTime(1000);
    expect(sockets()).toHaveLength(count + 1);
  });

  it('reconnects after the first delay when closed as a slow consumer, and resumes', () => {
    const client = makeClient();
    const rec = recorder();
    client.subscribe('comments', {}, rec.listener);
    const id = key('comments', {});
    // Build up attempts first: the slow-consumer close does not wait for them.
    lastSocket().drop(1006);
    vi.advanceTimersByTime(1000);
    lastSocket().drop(1006);
    vi.advanceTimersByTime(2000);
    lastSocket().open();
    lastSocket().drop(protocol.CLOSE_CODES.slowConsumer, 'slow');
    const count = sockets().length;
    vi.advanceTimersByTime(1000);
    expect(sockets()).toHaveLength(count + 1);
    const socket = lastSocket();
    socket.open();
    socket.receive({ type: 'snapshot', id, seq: 3, docs: [] });
    socket.drop(protocol.CLOSE_CODES.slowConsumer, 'slow');
    vi.advanceTimersByTime(1000);
    lastSocket().open();
    expect(lastSocket().sent).toEqual([
      { type: 'subscribe', id, query: 'comments', params: {}, resume: { seq: 3 } },
    ]);
    // Changes after the resume point are merged; the status stays SUBSCRIBED throughout.
    lastSocket().receive({
      type: 'changes',
      id,
      seq: 4,
      changes: [{ type: 'added', docId: 'x', doc: { uid: 'x' } }],
    });
    expect(rec.last).toEqual({ status: 'SUBSCRIBED', docs: [{ docId: 'x', uid: 'x' }] });
  });

  it('sends unsubscribe, reports CLOSED and closes the socket after the last subscription', () => {
    const client = makeClient({ lingerMs: 500 });
    const rec = recorder();
    const stop = client.subscribe('comments', {}, rec.listener);
    const stopOther = client.subscribe('notifications', {}, () => {});
    const socket = lastSocket();
    socket.open();
    stop();
    expect(rec.last.status).toBe('CLOSED');
    expect(socket.sent.at(-1)).toEqual({ type: 'unsubscribe', id: key('comments', {}) });
    stop(); // twice is harmless
    expect(socket.types()).toEqual(['subscribe', 'subscribe', 'unsubscribe']);
    stopOther();
    vi.advanceTimersByTime(499);
    expect(socket.closedWith).toBeNull();
    vi.advanceTimersByTime(1);
    expect(socket.closedWith).toEqual({ code: 1000, reason: 'idle' });
    // Its late close event does not reconnect.
    socket.drop(1000);
    vi.advanceTimersByTime(60_000);
    expect(sockets()).toHaveLength(1);
    // A new subscription opens a new socket.
    client.subscribe('comments', {}, () => {});
    expect(sockets()).toHaveLength(2);
  });

  it('keeps the socket when a subscription comes back within the linger', () => {
    const client = makeClient({ lingerMs: 500 });
    const stop = client.subscribe('comments', {}, () => {});
    lastSocket().open();
    stop();
    vi.advanceTimersByTime(200);
    client.subscribe('comments', {}, () => {});
    vi.advanceTimersByTime(10_000);
    expect(sockets()).toHaveLength(1);
    expect(lastSocket().closedWith).toBeNull();
    expect(lastSocket().types()).toEqual(['subscribe', 'unsubscribe', 'subscribe']);
  });

  it('stops reconnecting when nothing is subscribed', () => {
    const client = makeClient({ lingerMs: 500 });
    const stop = client.subscribe('comments', {}, () => {});
    lastSocket().drop(1006);
    stop();
    vi.advanceTimersByTime(60_000);
    expect(sockets()).toHaveLength(1);
  });

  it('re-sends auth on token refresh', async () => {
    let token = 'token-1';
    const client = makeClient({ getToken: async () => token });
    client.subscribe('comments', {}, () => {});
    const socket = lastSocket();
    socket.open();
    await flush();
    token = 'token-2';
    await client.refreshAuth();
    expect(socket.sent.at(-1)).toEqual({ type: 'auth', token: 'token-2' });
    client.setToken('token-3');
    await flush();
    expect(socket.sent.at(-1)).toEqual({ type: 'auth', token: 'token-3' });
    expect(socket.types()).toEqual(['auth', 'subscribe', 'auth', 'auth']);
    // The next connection uses the latest token.
    socket.drop(1006);
    vi.advanceTimersByTime(1000);
    lastSocket().open();
    await flush();
    expect(lastSocket().sent[0]).toEqual({ type: 'auth', token: 'token-3' });
  });

  it('applies a token refresh that arrives during the handshake', async () => {
    let release: (token: string) => void = () => {};
    const client = makeClient({ getToken: () => new Promise<string>((resolve) => (release = resolve)) });
    client.subscribe('comments', {}, () => {});
    const socket = lastSocket();
    socket.open();
    client.setToken('fresh');
    release('stale');
    await flush();
    expect(socket.sent.filter((frame) => frame.type === 'auth')).toEqual([
      { type: 'auth', token: 'stale' },
      { type: 'auth', token: 'fresh' },
    ]);
  });

  it('reconnects anonymously and resumes when the token goes away', async () => {
    const client = makeClient({ getToken: async () => 'token-1' });
    client.subscribe('comments', {}, () => {});
    const socket = lastSocket();
    socket.open();
    await flush();
    socket.receive({ type: 'snapshot', id: key('comments', {}), seq: 2, docs: [] });
    client.setToken(null);
    await flush();
    expect(socket.closedWith?.code).toBe(1000);
    expect(sockets()).toHaveLength(2);
    lastSocket().open();
    await flush();
    expect(lastSocket().sent).toEqual([
      { type: 'subscribe', id: key('comments', {}), query: 'comments', params: {}, resume: { seq: 2 } },
    ]);
  });

  it('logs and ignores malformed frames', () => {
    const { rec, socket, id } = subscribeOnOpenSocket();
    socket.receive('not json');
    socket.receive({ type: 'snapshot', id, docs: [] });
    socket.receive({ type: 'changes', id, seq: 1, changes: 'nope' });
    expect(rec.states).toHaveLength(1);
    expect(vi.mocked(debugLog).mock.calls.filter(([message]) => message.includes('malformed'))).toHaveLength(
      3,
    );
    socket.receive({ type: 'snapshot', id, seq: 1, docs: [] });
    expect(rec.last.status).toBe('SUBSCRIBED');
  });

  it('stops for good when the server does not speak this version', () => {
    const { client, rec, socket } = subscribeOnOpenSocket();
    socket.drop(protocol.CLOSE_CODES.unsupportedVersion, 'use v2');
    expect(rec.last).toEqual({
      status: 'ERROR',
      docs: [],
      error: { code: 'unsupported_version', message: 'use v2' },
    });
    vi.advanceTimersByTime(60_000);
    const later = recorder();
    client.subscribe('notifications', {}, later.listener);
    expect(later.last.status).toBe('ERROR');
    expect(sockets()).toHaveLength(1);
  });

  it('waits the table delay plus a random share of it (jitter), drawn from the injected randomness', () => {
    const client = makeClient({ random: () => 0.5 });
    client.subscribe('comments', {}, () => {});
    lastSocket().open();
    lastSocket().drop(1006);
    const count = sockets().length;
    vi.advanceTimersByTime(1749); // 1000 × (1 + 1.5 × 0.5)
    expect(sockets()).toHaveLength(count);
    vi.advanceTimersByTime(1);
    expect(sockets()).toHaveLength(count + 1);
  });

  it('pings an open socket and replaces it when nothing answers in time', () => {
    const client = makeClient({ pingIntervalMs: 5000, pongTimeoutMs: 2000 });
    const rec = recorder();
    client.subscribe('comments', {}, rec.listener);
    const id = key('comments', {});
    const socket = lastSocket();
    socket.open();
    socket.receive({ type: 'snapshot', id, seq: 3, docs: [] });
    vi.advanceTimersByTime(5000);
    expect(socket.types()).toEqual(['subscribe', 'ping']);
    socket.receive({ type: 'pong' });
    vi.advanceTimersByTime(2000);
    expect(socket.closedWith).toBeNull();
    // Any frame shows the socket is alive, not only a pong.
    vi.advanceTimersByTime(3000);
    expect(socket.types()).toEqual(['subscribe', 'ping', 'ping']);
    socket.receive({ type: 'changes', id, seq: 4, changes: [] });
    vi.advanceTimersByTime(2000);
    expect(socket.closedWith).toBeNull();
    // The network went away under an open-looking socket: no answer to the next ping.
    vi.advanceTimersByTime(3000);
    expect(socket.types()).toEqual(['subscribe', 'ping', 'ping', 'ping']);
    vi.advanceTimersByTime(1999);
    expect(socket.closedWith).toBeNull();
    vi.advanceTimersByTime(1);
    expect(socket.closedWith).toEqual({ code: 1000, reason: 'no pong' });
    vi.advanceTimersByTime(1000);
    const next = lastSocket();
    expect(next).not.toBe(socket);
    next.open();
    expect(next.sent).toEqual([{ type: 'subscribe', id, query: 'comments', params: {}, resume: { seq: 4 } }]);
    expect(rec.last.status).toBe('SUBSCRIBED');
  });

  it('reconnects at once when the browser is online again or the tab is shown, instead of waiting', () => {
    const browser: { hint: ((name: ConnectionHint) => void) | null } = { hint: null };
    const client = makeClient({
      pingIntervalMs: 30_000,
      hints: (onHint) => {
        browser.hint = onHint;
        return () => {
          browser.hint = null;
        };
      },
    });
    const stop = client.subscribe('comments', {}, () => {});
    lastSocket().open();
    for (const name of ['online', 'visible'] as const) {
      lastSocket().drop(1006);
      const count = sockets().length;
      browser.hint?.(name);
      expect(sockets()).toHaveLength(count + 1);
      lastSocket().open();
    }
    // Shown again with a socket that looks open: a ping finds out at once whether it still is.
    expect(lastSocket().types()).toEqual(['subscribe']);
    browser.hint?.('visible');
    expect(lastSocket().types()).toEqual(['subscribe', 'ping']);
    // With nothing subscribed a hint opens nothing; after close() nobody listens any more.
    stop();
    vi.advanceTimersByTime(60_000);
    const count = sockets().length;
    browser.hint?.('online');
    expect(sockets()).toHaveLength(count);
    client.close();
    expect(browser.hint).toBeNull();
  });
});

/** A small seeded generator (mulberry32), so the spread below is the same on every run. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** The most delays that fall in any one window of `windowMs`. */
function busiestWindow(delays: number[], windowMs: number): number {
  const sorted = [...delays].sort((a, b) => a - b);
  let most = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    while ((sorted[end] ?? 0) - (sorted[start] ?? 0) >= windowMs) start++;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

describe('reconnect jitter', () => {
  it('spreads 10,000 viewers returning after a server restart over more than a second', () => {
    const random = seededRandom(11);
    const viewers = 10_000;
    for (const [attempt, base] of RECONNECT_DELAYS_MS.entries()) {
      const delays = Array.from({ length: viewers }, () => reconnectDelay(attempt, random));
      expect(Math.min(...delays)).toBeGreaterThanOrEqual(base);
      expect(Math.max(...delays)).toBeLessThanOrEqual(base * (1 + RECONNECT_JITTER));
      // Proportional to the delay: about 1 / (1.5 × base in seconds) of them in the busiest second.
      const expectedShare = 1 / (RECONNECT_JITTER * (base / 1000));
      expect(busiestWindow(delays, 1000) / viewers).toBeLessThan(expectedShare + 0.03);
    }
    // The first wave, the one that matters after a restart: no second holds even 70 % of them.
    const first = Array.from({ length: viewers }, () => reconnectDelay(0, random));
    expect(busiestWindow(first, 1000)).toBeLessThan(viewers * 0.7);
  });
});
