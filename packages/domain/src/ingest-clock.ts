/**
 * The stream clock of an ingest: which wall-clock moment a frame of the publisher's stream stands
 * for. Anchored on when frames ARRIVED at our ingest (an RTMP packet read off the socket, an RTP
 * packet off WebRTC), not on when the packager later wrote them: the packager's own clock runs
 * late by its input probing and buffering, and everything stamped on the stream clock (cues,
 * the viewers' delay) would be late by as much.
 *
 * wall(frame) = offset + mediaMs(frame), where mediaMs is the frame's timestamp made continuous
 * (unwrapped, and bridged over a reset) and offset is the smallest arrival − mediaMs seen: the
 * frame that travelled fastest is the best estimate of the encoder's own timing (a burst of
 * frames the encoder held back, or a socket paused while the key was checked, only ever arrives
 * later). It is a running minimum, so an encoder clock that runs slightly fast is followed too.
 */

/** How a protocol counts time: ticks per second and the counter's width (it wraps at 2^bits). */
export interface MediaTimestampScale {
  readonly ticksPerSecond: number;
  readonly bits: number;
}

/** FLV / RTMP: milliseconds in 32 bits (wraps after 49.7 days). */
export const FLV_TIMESTAMPS: MediaTimestampScale = { ticksPerSecond: 1000, bits: 32 };
/** RTP video: 90 kHz in 32 bits, from a random start (so it may wrap minutes into a show). */
export const RTP_VIDEO_TIMESTAMPS: MediaTimestampScale = { ticksPerSecond: 90_000, bits: 32 };
/** RTP Opus audio: 48 kHz in 32 bits. */
export const RTP_AUDIO_TIMESTAMPS: MediaTimestampScale = { ticksPerSecond: 48_000, bits: 32 };

/**
 * A timestamp this far before the previous one is a new timeline (the encoder restarted its
 * counter), not reordering: B-frames and audio/video interleaving move back far less.
 */
export const INGEST_CLOCK_BACKWARD_RESET_MS = 1000;
/**
 * A timestamp this far ahead of what the time between the arrivals allows is a new timeline too
 * (a counter restarted elsewhere). A stalled network delivers late, never ahead.
 */
export const INGEST_CLOCK_FORWARD_RESET_MS = 10_000;

export interface IngestClock {
  readonly scale: MediaTimestampScale;
  /** The previous frame: its raw timestamp, continuous media time (ms) and arrival. */
  readonly last: { raw: number; mediaMs: number; arrivedAt: number } | null;
  /** wall − media time (ms): the smallest arrival − mediaMs so far; null before the first frame. */
  readonly offsetMs: number | null;
  /** How many times the timestamps restarted (a reconnect into the same clock, an encoder reset). */
  readonly resets: number;
}

export function startIngestClock(scale: MediaTimestampScale): IngestClock {
  return { scale, last: null, offsetMs: null, resets: 0 };
}

/** `raw − previous` in ticks as the shortest signed step around the counter's wrap. */
function wrappedDelta(raw: number, previous: number, bits: number): number {
  const range = 2 ** bits;
  let delta = (raw - previous) % range;
  if (delta < 0) delta += range;
  return delta >= range / 2 ? delta - range : delta;
}

/**
 * A frame with timestamp `raw` (ticks, as the protocol sends it) arrived at `arrivedAt` (epoch ms).
 * Answers the clock moved on and the frame's continuous media time (ms since the stream's first
 * frame, across wraps and resets).
 */
export function ingestFrameArrived(
  clock: IngestClock,
  raw: number,
  arrivedAt: number,
): { clock: IngestClock; mediaMs: number } {
  const { scale, last } = clock;
  if (!Number.isFinite(raw) || !Number.isFinite(arrivedAt)) return { clock, mediaMs: last?.mediaMs ?? 0 };
  let mediaMs = 0;
  let resets = clock.resets;
  if (last) {
    const stepMs = (wrappedDelta(raw, last.raw, scale.bits) / scale.ticksPerSecond) * 1000;
    const arrivalGapMs = Math.max(0, arrivedAt - last.arrivedAt);
    const restarted =
      stepMs < -INGEST_CLOCK_BACKWARD_RESET_MS || stepMs > arrivalGapMs + INGEST_CLOCK_FORWARD_RESET_MS;
    if (restarted) {
      // The new timeline continues where the old one would be now: its frames keep the wall
      // time they arrived at, and the offset is not disturbed.
      mediaMs = last.mediaMs + arrivalGapMs;
      resets += 1;
    } else mediaMs = last.mediaMs + stepMs;
  }
  const lag = arrivedAt - mediaMs;
  const offsetMs = clock.offsetMs === null ? lag : Math.min(clock.offsetMs, lag);
  return { clock: { scale, last: { raw, mediaMs, arrivedAt }, offsetMs, resets }, mediaMs };
}

/** The wall-clock time (epoch ms) of the frame at continuous media time `mediaMs`; null before any frame. */
export function ingestWallClock(clock: IngestClock, mediaMs: number): number | null {
  return clock.offsetMs === null ? null : Math.round(clock.offsetMs + mediaMs);
}

/**
 * The wall-clock time of a raw timestamp near the latest frame's (a packager's output, which
 * kept the input's timestamps): continuous from the latest frame across the counter's wrap.
 * Null before any frame.
 */
export function ingestWallClockOfTimestamp(clock: IngestClock, raw: number): number | null {
  if (clock.offsetMs === null || clock.last === null) return null;
  const { scale, last } = clock;
  const mediaMs = last.mediaMs + (wrappedDelta(raw, last.raw, scale.bits) / scale.ticksPerSecond) * 1000;
  return Math.round(clock.offsetMs + mediaMs);
}

/**
 * A segment's program date time from its packager run's anchor: the run's first frame stands at
 * `firstFrameWallClock`, and a later segment starts `decodeTime − firstDecodeTime` after it on the
 * packager's output timeline (the same timestamps as the input's, since the packager keeps them).
 */
export function segmentProgramDateTime(
  firstFrameWallClock: number,
  firstDecodeTime: number,
  decodeTime: number,
  timescale: number,
): number {
  return Math.round(firstFrameWallClock + ((decodeTime - firstDecodeTime) / timescale) * 1000);
}
