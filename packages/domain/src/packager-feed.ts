/**
 * Back-pressure on a packager's input: a publisher's stream waits in a buffer until ffmpeg reads
 * it. A packager slower than real time (a transcode beyond the node's CPU, a stalled process)
 * would let that buffer grow without end; instead the feed drops media until the next keyframe
 * (where ffmpeg can take up again) once the buffer holds too much, and the publish ends when
 * dropping does not let the packager catch up.
 */

export interface PackagerFeedLimits {
  /** Dropping starts when the oldest frame ffmpeg did not read yet has waited this long (ms)… */
  dropLagMs: number;
  /** …or this many bytes wait (whatever the bitrate, never more is held). */
  dropBytes: number;
  /** Writing resumes at a keyframe once the waiting media is down to this lag and size. */
  resumeLagMs: number;
  resumeBytes: number;
  /** Dropping this long without catching up ends the publish: the packager cannot keep up. */
  giveUpMs: number;
}

export const PACKAGER_FEED_LIMITS: PackagerFeedLimits = {
  dropLagMs: 6000,
  dropBytes: 24 * 1024 * 1024,
  resumeLagMs: 2000,
  resumeBytes: 4 * 1024 * 1024,
  giveUpMs: 10_000,
};

/** Whether the feed writes, and since when it drops (wall clock, ms) and how many packets it dropped. */
export type PackagerFeedState = { dropping: false } | { dropping: true; since: number; dropped: number };

export const PACKAGER_FEED_FLOWING: PackagerFeedState = { dropping: false };

export interface PackagerFeedPacket {
  /** How long (ms) the oldest media still waiting for the packager has waited: how far it is behind real time. */
  lagMs: number;
  /** Bytes waiting for the packager. */
  waitingBytes: number;
  /** Whether the packager can start again at this packet (a video keyframe, or audio of an audio-only stream). */
  resumable: boolean;
  /** The wall clock now (ms). */
  now: number;
}

/**
 * What to do with the next packet of a packager's feed: write it, drop it, or give up (end the
 * publish, the packager fell behind for good).
 */
export function nextPackagerFeedStep(
  state: PackagerFeedState,
  packet: PackagerFeedPacket,
  limits: PackagerFeedLimits = PACKAGER_FEED_LIMITS,
): { state: PackagerFeedState; action: 'write' | 'drop' | 'give-up' } {
  if (!state.dropping) {
    if (packet.lagMs < limits.dropLagMs && packet.waitingBytes < limits.dropBytes) {
      return { state, action: 'write' };
    }
    return { state: { dropping: true, since: packet.now, dropped: 1 }, action: 'drop' };
  }
  const caughtUp = packet.lagMs <= limits.resumeLagMs && packet.waitingBytes <= limits.resumeBytes;
  if (caughtUp && packet.resumable) return { state: PACKAGER_FEED_FLOWING, action: 'write' };
  if (packet.now - state.since >= limits.giveUpMs) return { state, action: 'give-up' };
  return { state: { ...state, dropped: state.dropped + 1 }, action: 'drop' };
}
