import { describe, expect, it } from 'vitest';
import {
  FLV_TIMESTAMPS,
  type IngestClock,
  ingestFrameArrived,
  ingestWallClock,
  ingestWallClockOfTimestamp,
  RTP_VIDEO_TIMESTAMPS,
  segmentProgramDateTime,
  startIngestClock,
} from './ingest-clock.ts';

const T0 = Date.UTC(2026, 10, 24, 9, 0, 0);

/** Feeds frames (raw timestamp, arrival) and answers the clock and each frame's media time. */
function feed(clock: IngestClock, frames: [raw: number, arrivedAt: number][]) {
  const media: number[] = [];
  for (const [raw, arrivedAt] of frames) {
    const step = ingestFrameArrived(clock, raw, arrivedAt);
    clock = step.clock;
    media.push(step.mediaMs);
  }
  return { clock, media };
}

describe('the ingest clock', () => {
  it('has no wall clock before the first frame', () => {
    expect(ingestWallClock(startIngestClock(FLV_TIMESTAMPS), 0)).toBeNull();
  });

  it('anchors on the arrival of the first frame, whatever its raw timestamp', () => {
    const { clock, media } = feed(startIngestClock(FLV_TIMESTAMPS), [
      [5000, T0],
      [5033, T0 + 33],
      [5066, T0 + 66],
    ]);
    expect(media).toEqual([0, 33, 66]);
    expect(ingestWallClock(clock, 0)).toBe(T0);
    expect(ingestWallClock(clock, 1000)).toBe(T0 + 1000);
  });

  it('takes the fastest frame: a held-back first burst does not make the clock late', () => {
    // The key check paused the socket: the first second arrived in one burst when it resumed.
    const frames: [number, number][] = [];
    for (let i = 0; i < 30; i += 1) frames.push([i * 33, T0 + 1000 + i]);
    for (let i = 30; i < 60; i += 1) frames.push([i * 33, T0 + i * 33 + 20]);
    const { clock } = feed(startIngestClock(FLV_TIMESTAMPS), frames);
    expect(ingestWallClock(clock, 0)).toBe(T0 + 20);
  });

  it('is not moved later by a network stall (frames arrive late, their timestamps stay)', () => {
    const { clock, media } = feed(startIngestClock(FLV_TIMESTAMPS), [
      [0, T0],
      [33, T0 + 33],
      [66, T0 + 12_000],
      [99, T0 + 12_001],
    ]);
    expect(media).toEqual([0, 33, 66, 99]);
    expect(clock.resets).toBe(0);
    expect(ingestWallClock(clock, 99)).toBe(T0 + 99);
  });

  it('runs on across the 32-bit wrap of RTP timestamps (a random start near the top)', () => {
    const top = 2 ** 32 - 4500; // 50 ms before the wrap at 90 kHz
    const { clock, media } = feed(startIngestClock(RTP_VIDEO_TIMESTAMPS), [
      [top, T0],
      [top + 3000, T0 + 33],
      [(top + 6000) % 2 ** 32, T0 + 67],
      [(top + 9000) % 2 ** 32, T0 + 100],
    ]);
    expect(media.map((ms) => Math.round(ms))).toEqual([0, 33, 67, 100]);
    expect(clock.resets).toBe(0);
    expect(ingestWallClock(clock, media[3] ?? 0)).toBe(T0 + 100);
  });

  it('runs on across the wrap of FLV milliseconds', () => {
    const { media } = feed(startIngestClock(FLV_TIMESTAMPS), [
      [2 ** 32 - 10, T0],
      [23, T0 + 33],
    ]);
    expect(media).toEqual([0, 33]);
  });

  it('keeps B-frame reordering (small steps back) as it is', () => {
    const { media, clock } = feed(startIngestClock(FLV_TIMESTAMPS), [
      [1000, T0],
      [1100, T0 + 33],
      [1033, T0 + 66],
    ]);
    expect(media).toEqual([0, 100, 33]);
    expect(clock.resets).toBe(0);
  });

  it('bridges a timestamp reset by the arrival gap: frames after it keep the time they arrived', () => {
    // The encoder restarted its counter at 0 after 60 s, 2 s after its last frame.
    const { clock, media } = feed(startIngestClock(FLV_TIMESTAMPS), [
      [0, T0],
      [60_000, T0 + 60_000],
      [0, T0 + 62_000],
      [1000, T0 + 63_000],
    ]);
    expect(clock.resets).toBe(1);
    expect(media).toEqual([0, 60_000, 62_000, 63_000]);
    expect(ingestWallClock(clock, 63_000)).toBe(T0 + 63_000);
  });

  it('treats a jump far ahead of the elapsed time as a reset, not as an hour of media', () => {
    const { clock, media } = feed(startIngestClock(FLV_TIMESTAMPS), [
      [0, T0],
      [33, T0 + 33],
      [3_600_000, T0 + 66],
    ]);
    expect(clock.resets).toBe(1);
    expect(media[2]).toBe(66);
  });

  it('follows an encoder clock that runs fast (the offset only moves earlier)', () => {
    // 1 % fast: after 10 s of arrivals the timestamps say 10.1 s.
    const { clock } = feed(startIngestClock(FLV_TIMESTAMPS), [
      [0, T0],
      [10_100, T0 + 10_000],
    ]);
    expect(ingestWallClock(clock, 10_100)).toBe(T0 + 10_000);
  });

  it('maps a raw timestamp near the latest frame to the wall clock, across the wrap', () => {
    expect(ingestWallClockOfTimestamp(startIngestClock(FLV_TIMESTAMPS), 0)).toBeNull();
    const { clock } = feed(startIngestClock(FLV_TIMESTAMPS), [
      [2 ** 32 - 1000, T0],
      [2 ** 32 - 500, T0 + 500],
    ]);
    expect(ingestWallClockOfTimestamp(clock, 2 ** 32 - 1000)).toBe(T0);
    expect(ingestWallClockOfTimestamp(clock, 500)).toBe(T0 + 1500);
  });

  it('ignores timestamps that are not numbers', () => {
    const first = feed(startIngestClock(FLV_TIMESTAMPS), [[0, T0]]).clock;
    const { clock, mediaMs } = ingestFrameArrived(first, Number.NaN, T0 + 10);
    expect(clock).toBe(first);
    expect(mediaMs).toBe(0);
  });
});

describe('a segment program date time', () => {
  it('is the run anchor plus the decode time since the run’s first segment', () => {
    expect(segmentProgramDateTime(T0, 90_000, 90_000, 90_000)).toBe(T0);
    expect(segmentProgramDateTime(T0, 90_000, 180_000, 90_000)).toBe(T0 + 1000);
    expect(segmentProgramDateTime(T0, 0, 15_360 * 3, 15_360)).toBe(T0 + 3000);
  });
});
