import * as protocol from '@vitrine/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { debugLog, logFailure } from '../debug.ts';
import {
  asServerFrame,
  createLiveQueryStore,
  createRealtimeClient,
  type LiveQueryState,
  type RealtimeClientOptions,
  realtimeSocketUrl,
} from './realtime-client.ts';
import * as wire from './wire.ts';

// debug.ts reads `window` when it loads; this test runs in node.
vi.mock('../debug.ts', () => ({ debugLog: vi.fn(), logFailure: vi.fn(), isDebugEnabled: () => false }));

/** A scripted in-memory WebSocket: the test opens it, feeds it frames and drops it. */
class FakeSocket {
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

const SOCKET_URL = 'ws://test/realtime?v=1';
const key = wire.subscriptionKey;

function makeClient(options: Partial<RealtimeClientOptions> = {}) {
  return createRealtimeClient({ url: SOCKET_URL, WebSocketImpl: FakeSocket, ...options });
}

const sockets = () => FakeSocket.instances;
const lastSocket = () => {
  const socket = FakeSocket.instances.at(-1);
  if (!socket) throw new Error('no socket');
  return socket;
};

/** Records every state a listener receives. */
function recorder<T = Record<string, unknown>>() {
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

/** Lets the promise of getToken settle. */
const flush = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.instances = [];
  vi.mocked(debugLog).mockClear();
  vi.mocked(logFailure).mockClear();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('wire mirror', () => {
  it('matches the protocol package', () => {
    expect(wire.REALTIME_PROTOCOL_VERSION).toBe(protocol.REALTIME_PROTOCOL_VERSION);
    expect(wire.REALTIME_PATH).toBe(protocol.REALTIME_PATH);
    expect(wire.CLOSE_CODES).toEqual(protocol.CLOSE_CODES);
    expect(wire.RECONNECT_DELAYS_MS).toEqual(protocol.RECONNECT_DELAYS_MS);
    const samples: unknown[] = [
      { eventId: 'e1', limit: 20 },
      { b: [1, { d: null, c: undefined }], a: 'x"y' },
      null,
      undefined,
      ['z', 2, true],
      'plain',
    ];
    for (const params of samples) {
      expect(wire.subscriptionKey('comments', params)).toBe(protocol.subscriptionKey('comments', params));
    }
  });

  it('accepts the frames the protocol schema accepts, and not malformed ones', () => {
    const good = [
      { type: 'snapshot', id: 'q:{}', seq: 0, docs: [{ docId: 'a', doc: { uid: 'a' } }] },
      { type: 'changes', id: 'q:{}', seq: 3, changes: [{ type: 'removed', docId: 'a', doc: null }] },
      { type: 'error', id: '', code: 'internal', message: 'boom' },
      { type: 'auth_result', userUid: null },
    ];
    for (const frame of good) {
      expect(protocol.ServerFrame.safeParse(frame).success).toBe(true);
      expect(asServerFrame(frame)).toBe(frame);
    }
    const bad = [
      null,
      [],
      { type: 'snapshot', id: 1, seq: 0, docs: [] },
      { type: 'snapshot', id: 'q', seq: -1, docs: [] },
      { type: 'snapshot', id: 'q', seq: 1.5, docs: [] },
      { type: 'snapshot', id: 'q', seq: 1, docs: [{ doc: {} }] },
      { type: 'changes', id: 'q', seq: '2', changes: [] },
      { type: 'changes', id: 'q', seq: 2, changes: [{ type: 'renamed', docId: 'a' }] },
      { type: 'error', id: 'q', code: 'internal' },
      { type: 'hello' },
    ];
    for (const frame of bad) {
      expect(protocol.ServerFrame.safeParse(frame).success).toBe(false);
      expect(asServerFrame(frame)).toBeNull();
    }
  });
});

describe('realtime client', () => {
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

  it('is SUBSCRIBED with the documents after a snapshot', () => {
    const client = makeClient();
    const rec = recorder();
    client.subscribe('comments', { eventId: 'e1' }, rec.listener);
    expect(rec.last).toEqual({ status: 'CONNECTING', docs: [] });
    const socket = lastSocket();
    socket.open();
    socket.receive({
      type: 'snapshot',
      id: key('comments', { eventId: 'e1' }),
      seq: 4,
      docs: [
        { docId: 'd1', doc: { uid: 'u1', text: 'hi' } },
        { docId: 'd2', doc: { text: 'no uid' } },
      ],
    });
    expect(rec.last).toEqual({
      status: 'SUBSCRIBED',
      docs: [
        { docId: 'd1', uid: 'u1', text: 'hi' },
        { docId: 'd2', uid: 'd2', text: 'no uid' },
      ],
    });
  });

  it('merges added, modified and removed by searchUid, else uid, else document id', () => {
    const client = makeClient();
    const rec = recorder();
    client.subscribe('products', {}, rec.listener);
    const socket = lastSocket();
    socket.open();
    const id = key('products', {});
    socket.receive({
      type: 'snapshot',
      id,
      seq: 1,
      docs: [
        { docId: 'd1', doc: { searchUid: 's1', uid: 'u1', name: 'one' } },
        { docId: 'd2', doc: { uid: 'u2', name: 'two' } },
        { docId: 'd3', doc: { name: 'three' } },
      ],
    });
    socket.receive({
      type: 'changes',
      id,
      seq: 2,
      changes: [
        // Same searchUid under another document and uid: replaces d1 in place.
        { type: 'modified', docId: 'd9', doc: { searchUid: 's1', uid: 'other', name: 'one*' } },
        { type: 'modified', docId: 'd2', doc: { uid: 'u2', name: 'two*' } },
        { type: 'removed', docId: 'd3', doc: { name: 'three' } },
        { type: 'added', docId: 'd4', doc: { uid: 'u4', name: 'four' } },
      ],
    });
    expect(rec.last.status).toBe('SUBSCRIBED');
    expect(rec.last.docs).toEqual([
      { docId: 'd9', searchUid: 's1', uid: 'other', name: 'one*' },
      { docId: 'd2', uid: 'u2', name: 'two*' },
      { docId: 'd4', uid: 'u4', name: 'four' },
    ]);
  });

  it('keeps removed records for a subscriber that suppresses removal', () => {
    const client = makeClient();
    const plain = recorder();
    const keeping = recorder();
    client.subscribe('comments', {}, plain.listener);
    client.subscribe('comments', {}, keeping.listener, { suppressRemoval: true });
    const socket = lastSocket();
    socket.open();
    expect(socket.types()).toEqual(['subscribe']);
    const id = key('comments', {});
    socket.receive({ type: 'snapshot', id, seq: 1, docs: [{ docId: 'a', doc: { uid: 'a' } }] });
    socket.receive({
      type: 'changes',
      id,
      seq: 2,
      changes: [
        { type: 'removed', docId: 'a', doc: { uid: 'a' } },
        { type: 'added', docId: 'b', doc: { uid: 'b' } },
      ],
    });
    expect(plain.last.docs.map((doc) => doc.docId)).toEqual(['b']);
    expect(keeping.last.docs.map((doc) => doc.docId)).toEqual(['a', 'b']);
    // A resync snapshot does not remove them either.
    socket.receive({ type: 'snapshot', id, seq: 9, docs: [{ docId: 'c', doc: { uid: 'c' } }] });
    expect(plain.last.docs.map((doc) => doc.docId)).toEqual(['c']);
    expect(keeping.last.docs.map((doc) => doc.docId)).toEqual(['a', 'b', 'c']);
  });

  it('ignores changes it already holds (duplicate seq)', () => {
    const client = makeClient();
    const rec = recorder();
    client.subscribe('comments', {}, rec.listener);
    const socket = lastSocket();
    socket.open();
    const id = key('comments', {});
    socket.receive({ type: 'snapshot', id, seq: 5, docs: [] });
    const added = { type: 'changes', id, seq: 6, changes: [{ type: 'added', docId: 'a', doc: { n: 1 } }] };
    socket.receive(added);
    const after = rec.last;
    socket.receive(added);
    socket.receive({ type: 'changes', id, seq: 4, changes: [{ type: 'added', docId: 'old', doc: {} }] });
    expect(rec.last).toBe(after);
    expect(rec.last.docs).toEqual([{ docId: 'a', uid: 'a', n: 1 }]);
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

  it('resumes every subscription from its last seq after a reconnect', async () => {
    const client = makeClient({ getToken: async () => 'tok' });
    client.subscribe('comments', { eventId: 'e1' }, () => {});
    client.subscribe('notifications', {}, () => {});
    let socket = lastSocket();
    socket.open();
    await flush();
    socket.receive({ type: 'snapshot', id: key('comments', { eventId: 'e1' }), seq: 7, docs: [] });
    socket.receive({ type: 'changes', id: key('comments', { eventId: 'e1' }), seq: 9, changes: [] });
    socket.drop(1006);
    vi.advanceTimersByTime(1000);
    socket = lastSocket();
    socket.open();
    await flush();
    expect(socket.sent).toEqual([
      { type: 'auth', token: 'tok' },
      {
        type: 'subscribe',
        id: key('comments', { eventId: 'e1' }),
        query: 'comments',
        params: { eventId: 'e1' },
        resume: { seq: 9 },
      },
      // Never answered: no resume.
      { type: 'subscribe', id: key('notifications', {}), query: 'notifications', params: {} },
    ]);
  });

  it('resumes with a seq of 0 too', () => {
    const client = makeClient();
    client.subscribe('comments', {}, () => {});
    lastSocket().open();
    lastSocket().receive({ type: 'snapshot', id: key('comments', {}), seq: 0, docs: [] });
    lastSocket().drop(1006);
    vi.advanceTimersByTime(1000);
    lastSocket().open();
    expect(lastSocket().sent[0]).toMatchObject({ type: 'subscribe', resume: { seq: 0 } });
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

  it('takes an already-held changes frame after a resume as the confirmation', () => {
    const client = makeClient({ subscribeTimeoutMs: 5000 });
    const rec = recorder();
    client.subscribe('comments', {}, rec.listener);
    const id = key('comments', {});
    lastSocket().open();
    lastSocket().receive({ type: 'snapshot', id, seq: 3, docs: [] });
    lastSocket().drop(1006);
    vi.advanceTimersByTime(1000);
    lastSocket().open();
    lastSocket().receive({ type: 'changes', id, seq: 3, changes: [] });
    vi.advanceTimersByTime(10_000);
    expect(rec.last.status).toBe('SUBSCRIBED');
  });

  it('goes to ERROR on an error frame and does not resubscribe', () => {
    const client = makeClient();
    const failing = recorder();
    const fine = recorder();
    client.subscribe('checkout', { id: 'c1' }, failing.listener);
    client.subscribe('comments', {}, fine.listener);
    const socket = lastSocket();
    socket.open();
    socket.receive({
      type: 'error',
      id: key('checkout', { id: 'c1' }),
      code: 'forbidden',
      message: 'not yours',
    });
    expect(failing.last).toEqual({
      status: 'ERROR',
      docs: [],
      error: { code: 'forbidden', message: 'not yours' },
    });
    expect(fine.last.status).toBe('CONNECTING');
    // Frames for it are ignored now.
    socket.receive({ type: 'snapshot', id: key('checkout', { id: 'c1' }), seq: 1, docs: [] });
    expect(failing.last.status).toBe('ERROR');
    socket.drop(1006);
    vi.advanceTimersByTime(1000);
    lastSocket().open();
    expect(lastSocket().sent.map((frame) => frame.id)).toEqual([key('comments', {})]);
    // No timeout turns it into TIMED_OUT either.
    vi.advanceTimersByTime(20_000);
    expect(failing.last.status).toBe('ERROR');
  });

  it('asks again when a new subscriber comes to a failed query', () => {
    const client = makeClient();
    const first = recorder();
    client.subscribe('checkout', { id: 'c1' }, first.listener);
    const socket = lastSocket();
    socket.open();
    const id = key('checkout', { id: 'c1' });
    socket.receive({ type: 'error', id, code: 'unauthenticated', message: 'sign in' });
    const second = recorder();
    client.subscribe('checkout', { id: 'c1' }, second.listener);
    expect(socket.types()).toEqual(['subscribe', 'subscribe']);
    expect(first.last.status).toBe('CONNECTING');
    socket.receive({ type: 'snapshot', id, seq: 1, docs: [] });
    expect(first.last.status).toBe('SUBSCRIBED');
    expect(second.last).toBe(first.last);
  });

  it('logs a connection-level error frame without failing subscriptions', () => {
    const client = makeClient();
    const rec = recorder();
    client.subscribe('comments', {}, rec.listener);
    lastSocket().open();
    lastSocket().receive({ type: 'error', id: '', code: 'unauthenticated', message: 'bad token' });
    expect(logFailure).toHaveBeenCalled();
    expect(rec.last.status).toBe('CONNECTING');
  });

  it('is TIMED_OUT without an answer, and retries on reconnect', () => {
    const client = makeClient({ subscribeTimeoutMs: 3000 });
    const rec = recorder();
    client.subscribe('comments', {}, rec.listener);
    const id = key('comments', {});
    lastSocket().open();
    vi.advanceTimersByTime(2999);
    expect(rec.last.status).toBe('CONNECTING');
    vi.advanceTimersByTime(1);
    expect(rec.last.status).toBe('TIMED_OUT');
    const count = rec.states.length;
    vi.advanceTimersByTime(60_000);
    expect(rec.states).toHaveLength(count);
    lastSocket().drop(1006);
    vi.advanceTimersByTime(1000);
    lastSocket().open();
    expect(lastSocket().sent).toEqual([{ type: 'subscribe', id, query: 'comments', params: {} }]);
    lastSocket().receive({ type: 'snapshot', id, seq: 1, docs: [] });
    expect(rec.last.status).toBe('SUBSCRIBED');
  });

  it('is TIMED_OUT when the server cannot be reached', () => {
    const client = makeClient({ subscribeTimeoutMs: 10_000 });
    const rec = recorder();
    client.subscribe('comments', {}, rec.listener);
    for (let i = 0; i < 4; i++) {
      lastSocket().drop(1006);
      vi.advanceTimersByTime(3000);
    }
    expect(rec.last.status).toBe('TIMED_OUT');
  });

  it('goes from SUBSCRIBED to TIMED_OUT when a lost connection does not come back in time', () => {
    const client = makeClient({ subscribeTimeoutMs: 4000 });
    const rec = recorder();
    client.subscribe('comments', {}, rec.listener);
    lastSocket().open();
    lastSocket().receive({
      type: 'snapshot',
      id: key('comments', {}),
      seq: 1,
      docs: [{ docId: 'a', doc: {} }],
    });
    lastSocket().drop(1006);
    vi.advanceTimersByTime(3999);
    expect(rec.last.status).toBe('SUBSCRIBED');
    vi.advanceTimersByTime(1);
    expect(rec.last.status).toBe('TIMED_OUT');
    expect(rec.last.docs).toHaveLength(1); // the last known records stay visible
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

  it('shares one server subscription among subscribers of the same key', () => {
    const client = makeClient();
    const a = recorder();
    const b = recorder();
    const stopA = client.subscribe('comments', { eventId: 'e1', limit: 20 }, a.listener);
    const socket = lastSocket();
    socket.open();
    const id = key('comments', { eventId: 'e1', limit: 20 });
    socket.receive({ type: 'snapshot', id, seq: 1, docs: [{ docId: 'd', doc: { uid: 'd' } }] });
    // Same params in another key order: same subscription, and it gets the held records at once.
    const stopB = client.subscribe('comments', { limit: 20, eventId: 'e1' }, b.listener);
    expect(b.last).toBe(a.last);
    expect(socket.types()).toEqual(['subscribe']);
    stopA();
    expect(socket.types()).toEqual(['subscribe']);
    socket.receive({
      type: 'changes',
      id,
      seq: 2,
      changes: [{ type: 'removed', docId: 'd', doc: { uid: 'd' } }],
    });
    expect(b.last.docs).toEqual([]);
    stopB();
    expect(socket.sent.at(-1)).toEqual({ type: 'unsubscribe', id });
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
    const client = makeClient();
    const rec = recorder();
    client.subscribe('comments', {}, rec.listener);
    const socket = lastSocket();
    socket.open();
    const id = key('comments', {});
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
    const client = makeClient();
    const rec = recorder();
    client.subscribe('comments', {}, rec.listener);
    lastSocket().open();
    lastSocket().drop(protocol.CLOSE_CODES.unsupportedVersion, 'use v2');
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

  it('close() ends every subscription and the socket', () => {
    const client = makeClient();
    const a = recorder();
    const b = recorder();
    client.subscribe('comments', {}, a.listener);
    client.subscribe('notifications', {}, b.listener);
    const socket = lastSocket();
    socket.open();
    client.close();
    expect(a.last.status).toBe('CLOSED');
    expect(b.last.status).toBe('CLOSED');
    expect(socket.closedWith?.code).toBe(1000);
    vi.advanceTimersByTime(60_000);
    expect(sockets()).toHaveLength(1);
    const late = recorder();
    client.subscribe('comments', {}, late.listener);
    expect(late.last.status).toBe('CLOSED');
    expect(sockets()).toHaveLength(1);
  });

  it('keeps listeners apart: one that throws does not stop the others', () => {
    const client = makeClient();
    const rec = recorder();
    client.subscribe('comments', {}, () => {
      throw new Error('render bug');
    });
    client.subscribe('comments', {}, rec.listener);
    lastSocket().open();
    lastSocket().receive({ type: 'snapshot', id: key('comments', {}), seq: 1, docs: [] });
    expect(rec.last.status).toBe('SUBSCRIBED');
    expect(logFailure).toHaveBeenCalled();
  });
});

describe('live query store', () => {
  it('returns the same snapshot object until the state changes', () => {
    const client = makeClient();
    const store = createLiveQueryStore(client, 'comments', { eventId: 'e1' });
    const initial = store.getSnapshot();
    expect(initial).toEqual({ status: 'CONNECTING', docs: [] });
    const onChange = vi.fn();
    const stop = store.subscribe(onChange);
    expect(store.getSnapshot()).toBe(initial);
    expect(onChange).not.toHaveBeenCalled();
    lastSocket().open();
    lastSocket().receive({ type: 'snapshot', id: key('comments', { eventId: 'e1' }), seq: 1, docs: [] });
    expect(onChange).toHaveBeenCalledTimes(1);
    const subscribed = store.getSnapshot();
    expect(subscribed.status).toBe('SUBSCRIBED');
    expect(store.getSnapshot()).toBe(subscribed);
    lastSocket().receive({ type: 'changes', id: key('comments', { eventId: 'e1' }), seq: 1, changes: [] });
    expect(store.getSnapshot()).toBe(subscribed);
    expect(onChange).toHaveBeenCalledTimes(1);
    stop();
    expect(store.getSnapshot().status).toBe('CLOSED');
  });

  it('starts from the held state of a query another component already shows', () => {
    const client = makeClient();
    client.subscribe('comments', {}, () => {});
    lastSocket().open();
    lastSocket().receive({
      type: 'snapshot',
      id: key('comments', {}),
      seq: 1,
      docs: [{ docId: 'a', doc: {} }],
    });
    const store = createLiveQueryStore(client, 'comments', {});
    expect(store.getSnapshot().docs).toHaveLength(1);
  });
});

describe('realtimeSocketUrl', () => {
  it('turns the main connection URL into the socket URL', () => {
    expect(realtimeSocketUrl('', 'https://shop.example/p/x?vitrine-debug=1')).toBe(
      'wss://shop.example/realtime?v=1',
    );
    expect(realtimeSocketUrl('', 'http://127.0.0.1:3000/')).toBe('ws://127.0.0.1:3000/realtime?v=1');
    expect(realtimeSocketUrl('https://api.example/base/', 'https://shop.example/')).toBe(
      'wss://api.example/base/realtime?v=1',
    );
    expect(realtimeSocketUrl('/api', 'http://localhost:5173/w/1')).toBe(
      'ws://localhost:5173/api/realtime?v=1',
    );
  });
});
