import { broadcastDelayMs, type CueTimingRecord, cdnDelayMs, videoStartTimestamp } from './cue-timing.ts';

/**
 * Where a viewer of a live HLS stream is on the cue timeline, in the video seconds the cue-timing
 * functions use, from the wall-clock time of the frame on screen (`playingDate`, the stream's
 * EXT-X-PROGRAM-DATE-TIME clock, stamped by the server as the frames arrive).
 *
 * A cue stamped at server time T then shows when `playingDate` reaches T plus the broadcast
 * (host-to-server) delay, whatever the viewer's own delay: `timeInVideo(T)` adds the broadcast and
 * CDN delays to T − start, and this adds the CDN delay to playingDate − start, so the CDN delay
 * cancels out. It must: the stream clock already includes all delivery delay, so a viewer 4 s
 * behind sees the product 4 s later, in step with the video.
 */
export function streamClockPosition(playingDateMs: number, record: CueTimingRecord): number {
  return (playingDateMs - videoStartTimestamp(record) + cdnDelayMs(record)) / 1000;
}

/** The wall-clock time (ms) at which `playingDate` reaches a cue stamped at `cueMs`. */
export function streamClockCueTime(cueMs: number, record: CueTimingRecord): number {
  return cueMs + broadcastDelayMs(record);
}

/** How often a player samples its live delay (ms): the figure on its stage, in its heartbeats and in the studio's preview. */
export const LIVE_DELAY_SAMPLE_MS = 1000;

/** The viewer's delay behind the server's clock (glass to glass, minus the host's upload): now − playingDate, never negative. */
export function liveDelayMs(playingDateMs: number, nowMs: number): number {
  return Math.max(0, nowMs - playingDateMs);
}

/**
 * The "video delay" a winner notice waits for before its extra 5 s (spec §4 "Competitions"): the
 * delay this viewer really has behind the server's clock when the player measures one (a live
 * stream with program date times), else the spec's rule — the event's broadcast and CDN delays,
 * which is all an external provider's stream tells.
 */
export function noticeVideoDelayMs(measuredDelayMs: number | null, record: CueTimingRecord): number {
  if (measuredDelayMs !== null && Number.isFinite(measuredDelayMs)) return Math.max(0, measuredDelayMs);
  return broadcastDelayMs(record) + cdnDelayMs(record);
}

/**
 * The wait before reloading a live stream after its `attempt`-th fatal network error in a row
 * (0-based): 1, 2, 5, then every 10 s, so a short blip heals fast and a long outage does not
 * hammer the server.
 */
export const STREAM_RETRY_DELAYS_MS = [1000, 2000, 5000, 10_000] as const;
export function streamRetryDelayMs(attempt: number): number {
  const index = Math.min(Math.max(0, Math.floor(attempt)), STREAM_RETRY_DELAYS_MS.length - 1);
  return STREAM_RETRY_DELAYS_MS[index] ?? 10_000;
}

/** How long the position may stand still while the video should play before the watchdog acts. */
export const STALL_NUDGE_AFTER_MS = 3000;
/** How long before the watchdog gives up nudging and reloads the stream. */
export const STALL_RELOAD_AFTER_MS = 8000;

/** What the stall watchdog does after the position has not moved for `stalledForMs` while playing. */
export type StallAction = 'wait' | 'nudge' | 'reload';
export function stallAction(stalledForMs: number, alreadyNudged: boolean): StallAction {
  if (stalledForMs >= STALL_RELOAD_AFTER_MS) return 'reload';
  if (stalledForMs >= STALL_NUDGE_AFTER_MS && !alreadyNudged) return 'nudge';
  return 'wait';
}
