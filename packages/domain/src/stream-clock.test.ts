import { describe, expect, it } from 'vitest';
import { DEFAULT_BROADCAST_DELAY_MS, DELAYED_CDN_PROVIDER } from './constants.ts';
import { activeProductUid, timeInVideo } from './cue-timing.ts';
import {
  liveDelayMs,
  STREAM_RETRY_DELAYS_MS,
  stallAction,
  streamClockCueTime,
  streamClockPosition,
  streamRetryDelayMs,
} from './stream-clock.ts';
import { cuedProduct, stampedCue, type TimingFields, timingRecord } from './test-support/cue-fixtures.ts';

const START = Date.UTC(2026, 10, 24, 6, 0, 0);

/** Live at START, a minute after its planned start; no CDN video start of its own. */
const STARTS = { cdnVideoStartTime: null, liveStartTime: START, eventStartTimestamp: START - 60_000 };
const record = (overrides: Partial<TimingFields> = {}) => timingRecord(STARTS, overrides);

/** A product the control center presented at `at`, still presented. */
const cued = (uid: string, at: number) =>
  cuedProduct(uid, { cues: [stampedCue('control-center', at, null)] });

describe('the stream clock', () => {
  it('shows a cue stamped at T when the playing date reaches T plus the broadcast delay', () => {
    const stamped = START + 30_000;
    const products = [cued('mug', stamped)];
    const show = streamClockCueTime(stamped, record());
    expect(show).toBe(stamped + DEFAULT_BROADCAST_DELAY_MS);
    expect(activeProductUid(products, record(), streamClockPosition(show - 1, record()))).toBeNull();
    expect(activeProductUid(products, record(), streamClockPosition(show, record()))).toBe('mug');
  });

  it('does not depend on how far behind the viewer is: the playing date carries the delay', () => {
    const stamped = START + 30_000;
    const products = [cued('mug', stamped)];
    // Two viewers, 1 s and 4 s behind, both at the same playing date: the same product.
    for (const viewerDelay of [1000, 4000]) {
      const now = stamped + DEFAULT_BROADCAST_DELAY_MS + viewerDelay;
      const playingDate = now - viewerDelay;
      expect(activeProductUid(products, record(), streamClockPosition(playingDate, record()))).toBe('mug');
      expect(liveDelayMs(playingDate, now)).toBe(viewerDelay);
    }
  });

  it('lets the CDN delay cancel out: the stream clock already holds the delivery delay', () => {
    const delayed = record({ cdn: DELAYED_CDN_PROVIDER, broadcastDelayMs: 500 });
    const stamped = START + 10_000;
    expect(streamClockPosition(stamped + 500, delayed)).toBeCloseTo(timeInVideo(stamped, delayed), 9);
    expect(
      streamClockPosition(stamped + 500, record({ cdnDelayMs: 2000, broadcastDelayMs: 500 })),
    ).toBeCloseTo(timeInVideo(stamped, record({ cdnDelayMs: 2000, broadcastDelayMs: 500 })), 9);
  });

  it('measures the viewer delay as now minus the playing date, never below zero', () => {
    expect(liveDelayMs(START, START + 3200)).toBe(3200);
    expect(liveDelayMs(START + 50, START)).toBe(0);
  });
});

describe('stream recovery rules', () => {
  it('retries after 1, 2, 5 s and then every 10 s', () => {
    expect([0, 1, 2, 3, 4, 50].map(streamRetryDelayMs)).toEqual([1000, 2000, 5000, 10_000, 10_000, 10_000]);
    expect(streamRetryDelayMs(-1)).toBe(STREAM_RETRY_DELAYS_MS[0]);
  });

  it('waits, then nudges once, then reloads a stalled stream', () => {
    expect(stallAction(1000, false)).toBe('wait');
    expect(stallAction(3000, false)).toBe('nudge');
    expect(stallAction(5000, true)).toBe('wait');
    expect(stallAction(8000, true)).toBe('reload');
  });
});
