import type { Cue } from '@vitrine/protocol';
import { describe, expect, it } from 'vitest';
import {
  cuesKeptBesideScript,
  DEMO_SCRIPT_CUE_SOURCE,
  firstSegmentVideoOffsetMs,
  loopAt,
  type ScriptedAppearance,
  scriptedCues,
} from './demo-cue-script.ts';

const ANCHOR = Date.UTC(2026, 10, 24, 9, 0, 0);
const LOOP = 60_000;
const MUG: ScriptedAppearance = { productUid: 'mug', startMs: 30_000, endMs: 45_000 };

const scripted = (start: number, end: number): Cue => ({
  source: DEMO_SCRIPT_CUE_SOURCE,
  presentationStartTimestamp: start,
  presentationEndTimestamp: end,
  deleted: false,
});

describe('the demo loop script', () => {
  it('counts loops from the encoder’s first segment', () => {
    expect(loopAt(ANCHOR, LOOP, ANCHOR - 5000)).toBe(0);
    expect(loopAt(ANCHOR, LOOP, ANCHOR + 59_999)).toBe(0);
    expect(loopAt(ANCHOR, LOOP, ANCHOR + 60_000)).toBe(1);
  });

  it('cues the product where the video shows it, on every loop', () => {
    expect(scriptedCues([], MUG, ANCHOR, LOOP, 2)).toEqual([
      scripted(ANCHOR + 30_000, ANCHOR + 45_000),
      scripted(ANCHOR + 90_000, ANCHOR + 105_000),
      scripted(ANCHOR + 150_000, ANCHOR + 165_000),
    ]);
  });

  it('keeps what an earlier encoder showed, drops its future, and keeps the last loops only', () => {
    const earlier = [scripted(ANCHOR - 50_000, ANCHOR - 35_000), scripted(ANCHOR + 10_000, ANCHOR + 25_000)];
    const host: Cue = { ...scripted(ANCHOR - 1000, ANCHOR), source: 'control-center' };
    expect(scriptedCues([...earlier, host], MUG, ANCHOR, LOOP, 0)).toEqual([
      scripted(ANCHOR - 50_000, ANCHOR - 35_000),
      scripted(ANCHOR + 30_000, ANCHOR + 45_000),
    ]);
    const kept = scriptedCues([], MUG, ANCHOR, LOOP, 99, 10);
    expect(kept).toHaveLength(10);
    expect(kept[0]?.presentationStartTimestamp).toBe(ANCHOR + 90 * LOOP + 30_000);
  });

  it('keeps the host’s cues beside the script, not the MP4’s from before the stream', () => {
    const liveStart = ANCHOR - 2000;
    const seeded: Cue = { ...scripted(liveStart - 600_000, liveStart - 585_000), source: 'control-center' };
    const presented: Cue = { ...scripted(ANCHOR + 5000, ANCHOR + 5000), source: 'control-center' };
    const open: Cue = { ...presented, presentationEndTimestamp: null };
    expect(cuesKeptBesideScript([seeded, presented, open, scripted(ANCHOR, ANCHOR + 1)], liveStart)).toEqual([
      presented,
      open,
    ]);
  });
});

describe('the stream’s first segment', () => {
  it('tells where in the video it begins by its length (the lead keyframes 0, 3, 5, 6, …)', () => {
    expect(firstSegmentVideoOffsetMs(3)).toBe(0);
    expect(firstSegmentVideoOffsetMs(3.04)).toBe(0);
    expect(firstSegmentVideoOffsetMs(2)).toBe(3000);
    expect(firstSegmentVideoOffsetMs(1)).toBeNull();
  });
});
