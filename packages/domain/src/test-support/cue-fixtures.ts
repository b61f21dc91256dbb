import type { CuedProduct, CueFields, CueTimingRecord } from '../cue-timing.ts';

/** The timing fields of a show's record (spec §3 "Live event record") that the cue rules read. */
export type TimingFields = CueTimingRecord['event'];

/**
 * A show's timing record for the rules' tests: the app's own CDN with no delays set (the rules'
 * defaults apply), its three start times from `starts`, then `overrides`.
 */
export function timingRecord(
  starts: Pick<TimingFields, 'cdnVideoStartTime' | 'liveStartTime' | 'eventStartTimestamp'>,
  overrides: Partial<TimingFields> = {},
): CueTimingRecord {
  return { event: { cdn: 'vitrine', broadcastDelayMs: null, cdnDelayMs: null, ...starts, ...overrides } };
}

/** A cue from `source` presented from `start` to `end` (ms; null: still presented). */
export function stampedCue(source: string, start: number, end: number | null, deleted = false): CueFields {
  return { source, presentationStartTimestamp: start, presentationEndTimestamp: end, deleted };
}

/** A show's product with no cues or presentation times, then `overrides`. */
export function cuedProduct(uid: string, overrides: Partial<CuedProduct> = {}): CuedProduct {
  return {
    uid,
    cues: [],
    relativeCues: [],
    absoluteCues: [],
    presentationTime: null,
    presentationEndTime: null,
    studioControlled: false,
    ...overrides,
  };
}

/** Delays set to none (the rules' defaults would add some): video seconds are seconds of the stream. */
export const NO_DELAYS = { broadcastDelayMs: 0, cdnDelayMs: 0 } as const;
