import { describe, expect, it, vi } from 'vitest';
import { logFailure } from '../debug.ts';
import {
  flush,
  key,
  lastSocket,
  makeClient,
  recorder,
  subscribeOnOpenSocket,
  withFakeRealtime,
} from './realtime-test-support.ts';

vi.mock('../debug.ts', () => import('../debug-test-double.ts'));

withFakeRealtime();

// Live queries over the socket: states, merging, resume, errors, timeouts (realtime-subscriptions.ts).
describe('realtime subscriptions', () => {
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
    const { rec, socket, id } = subscribeOnOpenSocket('products');
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
    const { rec, socket, id } = subscribeOnOpenSocket();
    socket.receive({ type: 'snapshot', id, seq: 5, docs: [] });
    const added = { type: 'changes', id, seq: 6, changes: [{ type: 'added', docId: 'a', doc: { n: 1 } }] };
    socket.receive(added);
    const after = rec.last;
    socket.receive(added);
    socket.receive({ type: 'changes', id, seq: 4, changes: [{ type: 'added', docId: 'old', doc: {} }] });
    expect(rec.last).toBe(after);
    expect(rec.last.docs).toEqual([{ docId: 'a', uid: 'a', n: 1 }]);
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
    const { rec, socket } = subscribeOnOpenSocket();
    socket.receive({ type: 'error', id: '', code: 'unauthenticated', message: 'bad token' });
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

  it('asks again by itself after a server failure (internal), on the reconnect table', () => {
    const { rec, socket, id } = subscribeOnOpenSocket();
    socket.receive({ type: 'error', id, code: 'internal', message: 'database busy' });
    expect(rec.last.status).toBe('ERROR');
    for (const delay of [1000, 2000]) {
      const sent = socket.sent.length;
      vi.advanceTimersByTime(delay - 1);
      expect(socket.sent).toHaveLength(sent);
      vi.advanceTimersByTime(1);
      expect(socket.sent.slice(sent)).toEqual([{ type: 'subscribe', id, query: 'comments', params: {} }]);
      expect(rec.last.status).toBe('CONNECTING');
      if (delay === 1000) socket.receive({ type: 'error', id, code: 'internal', message: 'still busy' });
    }
    socket.receive({ type: 'snapshot', id, seq: 1, docs: [{ docId: 'a', doc: {} }] });
    expect(rec.last.status).toBe('SUBSCRIBED');
    // Answered: the next failure starts the table over.
    socket.receive({ type: 'error', id, code: 'internal', message: 'again' });
    const sent = socket.sent.length;
    vi.advanceTimersByTime(1000);
    expect(socket.sent).toHaveLength(sent + 1);
  });
});
