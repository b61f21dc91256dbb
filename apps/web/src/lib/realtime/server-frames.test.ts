import * as protocol from '@vitrine/protocol';
import { describe, expect, it, vi } from 'vitest';
import { asServerFrame } from './realtime-client.ts';
import { withFakeRealtime } from './realtime-test-support.ts';
import * as wire from './wire.ts';

vi.mock('../debug.ts', () => import('../debug-test-double.ts'));

withFakeRealtime();

// The wire as the web mirrors it without zod: plain values and server frames checked by hand.
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
      { type: 'pong' },
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
