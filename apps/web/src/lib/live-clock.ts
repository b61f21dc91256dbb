import { type CueTimingRecord, streamClockPosition } from '@vitrine/domain';

/** A source attached to a video element, with the stream's wall clock where it has one. */
export interface AttachedStream {
  /** Detaches and stops everything this attachment started. */
  release(): void;
  /**
   * The wall-clock time (ms) of the frame on screen, from the stream's EXT-X-PROGRAM-DATE-TIME
   * tags; null for a source without them (an MP4, an external provider's stream without PDT).
   */
  playingDate(): number | null;
  /** Where a live viewer should be (video seconds), a few segments behind the edge; null when not live. */
  livePosition(): number | null;
  /** Whether the viewer is far enough behind the live target to be offered "back to live" (player/live-catch-up.ts). */
  behindLive(): boolean;
  /** "Back to live": to the live position, playing at normal speed (player/live-catch-up.ts). */
  goLive(): void;
}

/**
 * The stream attached to each video element (player/hls-loader.ts), so hooks that only hold the
 * video's ref (the product timeline, the delay a viewer has, the competitions and flash deals of
 * features/interaction) can read its wall clock without prop drilling.
 */
const streams = new WeakMap<HTMLVideoElement, AttachedStream>();

export function registerStream(video: HTMLVideoElement, stream: AttachedStream): () => void {
  streams.set(video, stream);
  return () => {
    if (streams.get(video) === stream) streams.delete(video);
  };
}

export function streamOf(video: HTMLVideoElement | null): AttachedStream | undefined {
  return video ? streams.get(video) : undefined;
}

/**
 * Sent on a live video when the player has brought the viewer back to live (a catch-up jump, or
 * "back to live"): the watch heartbeat reports her new delay at once.
 */
export const CAUGHT_UP_EVENT = 'vitrine:caught-up';

/** The wall-clock time (ms) of the frame on screen, when the video's stream carries one. */
export function playingDateOf(video: HTMLVideoElement | null): number | null {
  return streamOf(video)?.playingDate() ?? null;
}

/**
 * Where the viewer is on the cue timeline (video seconds, see cue-timing): on a live show whose
 * stream carries program date times, from the stream clock (spec §4: cues fire when the video
 * reaches the stamped moment); otherwise — a replay, an external provider's stream, an MP4 — the
 * video's own position, placed by the event's delays and cdnVideoStartTime as before.
 */
export function cueClockSeconds(
  video: HTMLVideoElement | null,
  record: CueTimingRecord,
  mediaTimeSec: number,
  live: boolean,
): number {
  if (!live) return mediaTimeSec;
  const playingDate = playingDateOf(video);
  return playingDate === null ? mediaTimeSec : streamClockPosition(playingDate, record);
}
