import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TRANSCODE_BUDGET,
  DISK_RESERVE_MIN_BYTES,
  diskOutlook,
  LOW_DISK_BYTES,
  parseTranscodeBudget,
  transcodeRefusal,
} from './live-stream-limits.ts';

const GB = 1024 ** 3;

describe('diskOutlook', () => {
  it('estimates the minutes of recording left at the incoming bitrate', () => {
    // 6,000 kbit/s is 750 kB/s: 45 GB last about 1,000 minutes.
    const outlook = diskOutlook(45 * GB, 6000);
    expect(outlook.minutesLeft).toBe(Math.floor((45 * GB - 7_500_000) / 750_000 / 60));
    expect(outlook.low).toBe(false);
  });

  it('warns under the free-space threshold even without a bitrate', () => {
    expect(diskOutlook(LOW_DISK_BYTES - 1, null)).toMatchObject({ low: true, minutesLeft: null });
    expect(diskOutlook(LOW_DISK_BYTES, null).low).toBe(false);
  });

  it('warns when a high bitrate leaves less than half an hour', () => {
    // 20 GB at 100 Mbit/s (12.5 MB/s): 26 minutes.
    const outlook = diskOutlook(20 * GB, 100_000);
    expect(outlook.minutesLeft).toBe(28);
    expect(outlook.low).toBe(true);
  });

  it('keeps ten seconds of the stream (at least 1 MiB) in reserve', () => {
    expect(diskOutlook(GB, null).reserveBytes).toBe(DISK_RESERVE_MIN_BYTES);
    expect(diskOutlook(GB, 8000).reserveBytes).toBe(10_000_000);
    expect(diskOutlook(5_000_000, 8000).minutesLeft).toBe(0);
  });
});

describe('the transcode budget', () => {
  it('reads WIDTHxHEIGHT@FPS and none, and nothing else', () => {
    expect(parseTranscodeBudget('1920x1080@30')).toEqual(DEFAULT_TRANSCODE_BUDGET);
    expect(parseTranscodeBudget('1280x720@60')).toEqual({ width: 1280, height: 720, framesPerSecond: 60 });
    expect(parseTranscodeBudget('none')).toBe('none');
    for (const bad of ['', '1080p', '1920x1080', '0x1080@30', '1920x1080@0', 'x@30']) {
      expect(parseTranscodeBudget(bad)).toBeNull();
    }
  });

  it('refuses 4K 60 fps beyond 1080p30, and says what to send instead', () => {
    const refusal = transcodeRefusal(
      { width: 3840, height: 2160, framesPerSecond: 60 },
      DEFAULT_TRANSCODE_BUDGET,
    );
    expect(refusal).toBe(
      'This 3840×2160 at 60 fps stream is not H.264, so this node would have to transcode it, and it transcodes at most 1920×1080 at 30 fps. Send H.264 (passed through at any size), or lower the resolution or frame rate.',
    );
  });

  it('takes what fits: 1080p30, 720p60 (fewer pixels a second), and streams that say no size', () => {
    expect(
      transcodeRefusal({ width: 1920, height: 1080, framesPerSecond: 30 }, DEFAULT_TRANSCODE_BUDGET),
    ).toBeNull();
    expect(
      transcodeRefusal({ width: 1280, height: 720, framesPerSecond: 60 }, DEFAULT_TRANSCODE_BUDGET),
    ).toBeNull();
    expect(
      transcodeRefusal({ width: null, height: null, framesPerSecond: 60 }, DEFAULT_TRANSCODE_BUDGET),
    ).toBeNull();
    expect(transcodeRefusal(null, DEFAULT_TRANSCODE_BUDGET)).toBeNull();
  });

  it('refuses a frame larger than the budget whatever its rate, and 1080p60', () => {
    expect(
      transcodeRefusal({ width: 3840, height: 2160, framesPerSecond: 5 }, DEFAULT_TRANSCODE_BUDGET),
    ).toMatch(/^This 3840×2160 at 5 fps stream/);
    expect(
      transcodeRefusal({ width: 1920, height: 1080, framesPerSecond: 60 }, DEFAULT_TRANSCODE_BUDGET),
    ).not.toBeNull();
  });

  it('refuses every stream to transcode on a node that transcodes none', () => {
    expect(transcodeRefusal({ width: 320, height: 240, framesPerSecond: 25 }, 'none')).toMatch(
      /transcodes no video/,
    );
    expect(transcodeRefusal(null, 'none')).toMatch(/transcodes no video/);
  });
});
