/**
 * Catching a live viewer up with the live edge (issue 30 item 2). A viewer who fell behind without
 * wanting to (a stall, a slow device, a tab in the background) is brought back to the player's
 * target: slightly behind, by playing a little faster; far behind, by a jump to the live
 * position. A viewer who chose her delay (she paused, or went back in the show) keeps it: she is
 * offered "back to live" instead, and nothing moves her while she is paused.
 */

/** The fastest catch-up playback: a tenth faster is not heard as a change of pitch or pace. */
export const CATCH_UP_MAX_RATE = 1.1;
/**
 * Behind the target by more than this (s), the player starts playing faster: above the ±0.5 s the
 * measure moves by as playlists arrive.
 */
export const CATCH_UP_START_SEC = 1;
/**
 * Back within this much of the target (s), it plays at normal speed again: apart from the start, so
 * it does not flap, and not much closer, or a loaded machine's small stalls keep it at 1.1x for good.
 */
export const CATCH_UP_STOP_SEC = 0.5;
/** Speeding up with less buffered ahead than this (s) would only run into a stall. */
export const CATCH_UP_MIN_BUFFER_SEC = 1;
/** Behind the target by more than this many target durations, the player jumps instead. */
export const CATCH_UP_JUMP_TARGET_DURATIONS = 3;
/** …and never by less than this (s): a jump costs a moment of picture, a short lag is cheaper to play off. */
export const CATCH_UP_JUMP_MIN_SEC = 4;
/** How far behind the target (s) the viewer may be before "back to live" is offered. */
export const BACK_TO_LIVE_AFTER_SEC = 3;

/**
 * The same rules for an LL-HLS stream (parts of ~0.2 s, blocking reloads), whose measure moves by
 * a part, not a segment, as playlists arrive: being close is its whole point, so it speeds up
 * from half a second behind and jumps from two (issue 30: glass to glass p95 ≤ 3.5 s). After a
 * stall of a second or two an LL viewer is back at the edge at once instead of 10–20 s at 1.1x.
 */
export const LL_CATCH_UP_START_SEC = 0.5;
export const LL_CATCH_UP_STOP_SEC = 0.2;
export const LL_CATCH_UP_JUMP_SEC = 2;
/** An LL viewer speeds up with at least this much buffered (s): a few parts. */
export const LL_CATCH_UP_MIN_BUFFER_SEC = 0.6;

/**
 * hls.js raises its target latency after each stall (`liveSyncOnStallIncrease`: a second, at most
 * a target duration in all) and lowers it again only for a new source. On an LL stream that is
 * more than PART-HOLD-BACK itself: bench/live measured LL viewers sitting ~2.2 s behind the newest
 * media they held, instead of 0.7 s, after a stall or two early in the show. After this long
 * without a stall the player gives the raised target back, so one hiccup does not cost a viewer a
 * second and a half for the rest of the show; a network that keeps stalling keeps it raised.
 */
export const LL_STALL_BACK_OFF_DECAY_MS = 20_000;

/**
 * The target latency (s) to set back to on an LL stream, or null to leave it: when hls.js's target
 * stands above PART-HOLD-BACK (raised by stalls) and the last stall (or the stream's start) is
 * LL_STALL_BACK_OFF_DECAY_MS past.
 */
export function decayedTargetLatency(stream: {
  targetSec: number;
  partHoldBackSec: number;
  sinceStallMs: number;
}): number | null {
  const { targetSec, partHoldBackSec, sinceStallMs } = stream;
  if (!(partHoldBackSec > 0) || targetSec <= partHoldBackSec + 0.05) return null;
  return sinceStallMs >= LL_STALL_BACK_OFF_DECAY_MS ? partHoldBackSec : null;
}

/** Where a live viewer stands, as the player measures it. */
export interface LiveLag {
  /** Seconds behind the live edge (the end of the newest listed media, aged since it was listed). */
  latencySec: number;
  /** Seconds behind the edge the player aims to be. */
  targetSec: number;
  /** The playlist's target duration (s): a few of them is "far behind". */
  targetDurationSec: number;
  /** Seconds of media buffered ahead of the position. */
  bufferAheadSec: number;
  /** An LL-HLS stream (parts, blocking reloads): the tighter LL_CATCH_UP_* thresholds apply. */
  lowLatency?: boolean;
}

export interface CatchUpState {
  paused: boolean;
  /** The playback rate now. */
  rate: number;
  /** The viewer chose her delay (paused or went back herself) and has not gone back to live since. */
  held: boolean;
}

export type CatchUpAction = { kind: 'none' } | { kind: 'rate'; rate: number } | { kind: 'jump' };

/** Seconds behind the player's target (never negative). */
export function lagBehindTarget(lag: LiveLag): number {
  return Math.max(0, lag.latencySec - lag.targetSec);
}

/** The lag (s behind the target) past which the player jumps to the live position. */
export function catchUpJumpAfterSec(targetDurationSec: number, lowLatency = false): number {
  if (lowLatency) return LL_CATCH_UP_JUMP_SEC;
  return Math.max(CATCH_UP_JUMP_MIN_SEC, CATCH_UP_JUMP_TARGET_DURATIONS * targetDurationSec);
}

/**
 * The catch-up rate for a lag (s behind the target): CATCH_UP_MAX_RATE throughout. A gentler 1.05
 * barely gained on a loaded machine, whose small stalls ate most of it (measured in the catch-up
 * e2e: 1.05 for 73 s gained 0.3 s).
 */
export function catchUpRate(behindSec: number): number {
  return behindSec > 0 ? CATCH_UP_MAX_RATE : 1;
}

/**
 * What the player does now about the viewer's lag: nothing, a playback rate, or a jump to the
 * live position. A paused or held viewer plays at normal speed and is never moved; otherwise a
 * lag past catchUpJumpAfterSec jumps, a lag past CATCH_UP_START_SEC (or, while already
 * catching up, CATCH_UP_STOP_SEC) plays faster when there is buffer to play faster into.
 */
export function catchUpAction(lag: LiveLag | null, state: CatchUpState): CatchUpAction {
  const normal: CatchUpAction = state.rate === 1 ? { kind: 'none' } : { kind: 'rate', rate: 1 };
  if (lag === null || state.paused || state.held) return normal;
  const behind = lagBehindTarget(lag);
  const ll = lag.lowLatency ?? false;
  if (behind > catchUpJumpAfterSec(lag.targetDurationSec, ll)) return { kind: 'jump' };
  const catchingUp = state.rate > 1;
  const threshold = catchingUp
    ? ll
      ? LL_CATCH_UP_STOP_SEC
      : CATCH_UP_STOP_SEC
    : ll
      ? LL_CATCH_UP_START_SEC
      : CATCH_UP_START_SEC;
  const wanted =
    behind > threshold && lag.bufferAheadSec > (ll ? LL_CATCH_UP_MIN_BUFFER_SEC : CATCH_UP_MIN_BUFFER_SEC)
      ? catchUpRate(behind)
      : 1;
  return wanted === state.rate ? { kind: 'none' } : { kind: 'rate', rate: wanted };
}

/** Whether "back to live" is offered: while paused in a live show, or when far enough behind the target. */
export function offerBackToLive(lag: LiveLag | null, paused: boolean): boolean {
  return paused || (lag !== null && lagBehindTarget(lag) > BACK_TO_LIVE_AFTER_SEC);
}

/**
 * Whether a viewer who held her delay no longer does: she plays within a few seconds of the target
 * ("back to live", a short pause, or the stream could not keep her that far back and the player
 * went on from its live position). Then no "back to live" is offered and the player catches up.
 */
export function holdEnds(lag: LiveLag | null, paused: boolean): boolean {
  return !paused && lag !== null && lagBehindTarget(lag) <= BACK_TO_LIVE_AFTER_SEC;
}

/** A seek backwards by more than this (s) is the viewer going back in the show: the player never seeks back. */
export const VIEWER_SEEK_BACK_SEC = 1;
