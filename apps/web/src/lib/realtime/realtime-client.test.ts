import { describe, expect, it, vi } from 'vitest';
import { createLiveQueryStore, realtimeSocketUrl } from './realtime-client.ts';
import { key, lastSocket, makeClient, recorder, sockets, withFakeRealtime } from './realtime-test-support.ts';

vi.mock('../debug.ts', () => import('../debug-test-double.ts'));

withFakeRealtime();

// The client as its users see it: close(), the React store and the socket URL.
describe('realtime client', () => {
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
