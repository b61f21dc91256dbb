import { describe, expect, it } from 'vitest';
import {
  CLIP_MAX_MS,
  chapterClipWindows,
  clipSegments,
  HIGHLIGHT_BEFORE_MS,
  highlightWindow,
  trimRefusal,
} from './show-clips.ts';

const cue = (start: number, end: number | null, deleted = false) => ({
  presentationStartTimestamp: start,
  presentationEndTimestamp: end,
  deleted,
});

describe('chapterClipWindows', () => {
  it('gives each presented product its first chapter, within the broadcast', () => {
    const windows = chapterClipWindows(
      [
        { uid: 'a', cues: [cue(500, 10_000), cue(40_000, 45_000)] },
        { uid: 'b', cues: [cue(20_000, null)] },
        { uid: 'c', cues: [] },
        { uid: 'd', cues: [cue(30_000, 31_000, true)] },
      ],
      1_000,
      60_000,
    );
    expect(windows).toEqual([
      { eventProductUid: 'a', start: 1_000, end: 10_000 },
      { eventProductUid: 'b', start: 20_000, end: 40_000 },
    ]);
  });

  it('caps a long chapter and leaves out one too short', () => {
    const windows = chapterClipWindows(
      [
        { uid: 'long', cues: [cue(0, 500_000)] },
        { uid: 'blink', cues: [cue(600_000, 600_500)] },
      ],
      0,
      700_000,
    );
    expect(windows).toEqual([{ eventProductUid: 'long', start: 0, end: CLIP_MAX_MS }]);
  });
});

describe('highlightWindow', () => {
  it('covers the moment, never before Go live nor after End', () => {
    expect(highlightWindow(100_000, 0, null)).toEqual({ start: 100_000 - HIGHLIGHT_BEFORE_MS, end: 110_000 });
    expect(highlightWindow(5_000, 2_000, 8_000)).toEqual({ start: 2_000, end: 8_000 });
  });
});

describe('trimRefusal', () => {
  const bounds = { start: 0, end: 30_000 };
  it('accepts a trim within the window', () =>
    expect(trimRefusal(bounds, { start: 1_000, end: 9_000 })).toBeNull());
  it('refuses one outside, too short or too long', () => {
    expect(trimRefusal(bounds, { start: -1, end: 9_000 })).toBe('outside-window');
    expect(trimRefusal(bounds, { start: 1_000, end: 2_000 })).toBe('too-short');
    expect(trimRefusal({ start: 0, end: 200_000 }, { start: 0, end: 100_000 })).toBe('too-long');
  });
});

describe('clipSegments', () => {
  const segment = (index: number, run = 'r1') => ({
    uri: `${run}-${index}.m4s`,
    initUri: `${run}-init.mp4`,
    duration: 1,
    programDateTime: 10_000 + index * 1000,
  });
  const recording = [0, 1, 2, 3, 4, 5].map((index) => segment(index));

  it('takes the segments the window falls in, keyframe to keyframe', () => {
    const cut = clipSegments(recording, { start: 11_400, end: 13_200 });
    expect(cut?.segments.map((s) => s.uri)).toEqual(['r1-1.m4s', 'r1-2.m4s', 'r1-3.m4s']);
    expect(cut?.cutStart).toBe(11_000);
    expect(cut?.cutEnd).toBe(14_000);
  });

  it('stops where the packager run does, and finds nothing outside the recording', () => {
    const mixed = [...recording.slice(0, 3), { ...segment(3, 'r2') }];
    expect(clipSegments(mixed, { start: 11_000, end: 14_000 })?.segments).toHaveLength(2);
    expect(clipSegments(recording, { start: 20_000, end: 30_000 })).toBeNull();
  });
});
