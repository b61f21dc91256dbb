import { describe, expect, it } from 'vitest';
import {
  nextPackagerFeedStep,
  PACKAGER_FEED_FLOWING,
  PACKAGER_FEED_LIMITS,
  type PackagerFeedState,
} from './packager-feed.ts';

const limits = PACKAGER_FEED_LIMITS;
const packet = (lagMs: number, waitingBytes: number, resumable: boolean, now: number) => ({
  lagMs,
  waitingBytes,
  resumable,
  now,
});

describe('nextPackagerFeedStep', () => {
  it('writes while the packager keeps up', () => {
    expect(nextPackagerFeedStep(PACKAGER_FEED_FLOWING, packet(900, 200_000, false, 0))).toEqual({
      state: PACKAGER_FEED_FLOWING,
      action: 'write',
    });
  });

  it('drops once the waiting media is too far behind, or too large at any bitrate', () => {
    expect(nextPackagerFeedStep(PACKAGER_FEED_FLOWING, packet(limits.dropLagMs, 1000, true, 5)).action).toBe(
      'drop',
    );
    const bySize = nextPackagerFeedStep(PACKAGER_FEED_FLOWING, packet(10, limits.dropBytes, false, 7));
    expect(bySize).toEqual({ state: { dropping: true, since: 7, dropped: 1 }, action: 'drop' });
  });

  it('takes up again only at a keyframe once caught up', () => {
    const dropping: PackagerFeedState = { dropping: true, since: 0, dropped: 10 };
    // Caught up, but ffmpeg cannot start from a delta frame.
    expect(nextPackagerFeedStep(dropping, packet(100, 1000, false, 50))).toEqual({
      state: { dropping: true, since: 0, dropped: 11 },
      action: 'drop',
    });
    // A keyframe, but still behind.
    expect(nextPackagerFeedStep(dropping, packet(limits.resumeLagMs + 1, 1000, true, 50)).action).toBe(
      'drop',
    );
    expect(
      nextPackagerFeedStep(dropping, packet(limits.resumeLagMs, limits.resumeBytes + 1, true, 50)).action,
    ).toBe('drop');
    expect(nextPackagerFeedStep(dropping, packet(limits.resumeLagMs, limits.resumeBytes, true, 50))).toEqual({
      state: PACKAGER_FEED_FLOWING,
      action: 'write',
    });
  });

  it('gives up when dropping does not let the packager catch up in time', () => {
    const dropping: PackagerFeedState = { dropping: true, since: 1000, dropped: 400 };
    expect(nextPackagerFeedStep(dropping, packet(9000, 0, true, 1000 + limits.giveUpMs - 1)).action).toBe(
      'drop',
    );
    expect(nextPackagerFeedStep(dropping, packet(9000, 0, true, 1000 + limits.giveUpMs)).action).toBe(
      'give-up',
    );
  });
});
