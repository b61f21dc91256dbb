import { describe, expect, it } from 'vitest';
import {
  BACK_TO_LIVE_AFTER_SEC,
  CATCH_UP_MAX_RATE,
  type CatchUpState,
  catchUpAction,
  catchUpJumpAfterSec,
  catchUpRate,
  decayedTargetLatency,
  holdEnds,
  type LiveLag,
  LL_STALL_BACK_OFF_DECAY_MS,
  lagBehindTarget,
  offerBackToLive,
} from './live-catch-up.ts';

/** A viewer `behind` seconds past a 2.5 s target on a 1-second-segment playlist, 3 s buffered. */
function lag(behind: number, overrides: Partial<LiveLag> = {}): LiveLag {
  return { latencySec: 2.5 + behind, targetSec: 2.5, targetDurationSec: 1, bufferAheadSec: 3, ...overrides };
}

const playing: CatchUpState = { paused: false, rate: 1, held: false };

describe('live catch-up', () => {
  it('leaves a viewer at the target alone, within the jitter of its measure', () => {
    expect(catchUpAction(lag(0), playing)).toEqual({ kind: 'none' });
    expect(catchUpAction(lag(0.9), playing)).toEqual({ kind: 'none' });
    // Ahead of the target (a fresh playlist) is not behind.
    expect(lagBehindTarget(lag(-1))).toBe(0);
    expect(catchUpAction(lag(-1), playing)).toEqual({ kind: 'none' });
  });

  it('plays slightly faster when slightly behind, never faster than 1.1', () => {
    expect(catchUpAction(lag(1.2), playing)).toEqual({ kind: 'rate', rate: 1.1 });
    expect(catchUpAction(lag(1.8), playing)).toEqual({ kind: 'rate', rate: 1.1 });
    expect(catchUpAction(lag(3.9), playing)).toEqual({ kind: 'rate', rate: 1.1 });
    expect(catchUpRate(0)).toBe(1);
    for (const behind of [0.1, 0.6, 1, 2.5, 3, 10, 100]) {
      expect(catchUpRate(behind)).toBeGreaterThanOrEqual(1);
      expect(catchUpRate(behind)).toBeLessThanOrEqual(CATCH_UP_MAX_RATE);
    }
    // Already at the wanted rate: nothing to change.
    expect(catchUpAction(lag(1.8), { ...playing, rate: 1.1 })).toEqual({ kind: 'none' });
  });

  it('keeps catching up until close to the target, then plays at normal speed (no flapping)', () => {
    // 0.8 s behind: not enough to start, but a player already catching up goes on.
    expect(catchUpAction(lag(0.8), playing)).toEqual({ kind: 'none' });
    expect(catchUpAction(lag(0.8), { ...playing, rate: 1.1 })).toEqual({ kind: 'none' });
    expect(catchUpAction(lag(0.4), { ...playing, rate: 1.1 })).toEqual({ kind: 'rate', rate: 1 });
  });

  it('does not speed up into an empty buffer', () => {
    expect(catchUpAction(lag(2, { bufferAheadSec: 0.5 }), playing)).toEqual({ kind: 'none' });
    expect(catchUpAction(lag(2, { bufferAheadSec: 0.5 }), { ...playing, rate: 1.1 })).toEqual({
      kind: 'rate',
      rate: 1,
    });
  });

  it('jumps when far behind: more than a few target durations (a tab back from the background)', () => {
    expect(catchUpJumpAfterSec(1)).toBe(4);
    expect(catchUpJumpAfterSec(2)).toBe(6);
    expect(catchUpJumpAfterSec(6)).toBe(18);
    expect(catchUpAction(lag(4.5), playing)).toEqual({ kind: 'jump' });
    // 50–100 s behind, whatever the rate or buffer: straight back.
    expect(catchUpAction(lag(60, { bufferAheadSec: 0 }), { ...playing, rate: 1.1 })).toEqual({
      kind: 'jump',
    });
    expect(catchUpAction(lag(100), playing)).toEqual({ kind: 'jump' });
    // A long target duration (6-second segments) plays a 10 s lag off instead.
    expect(catchUpAction(lag(10, { targetDurationSec: 6 }), playing)).toEqual({ kind: 'rate', rate: 1.1 });
  });

  it('never moves a paused viewer, nor one who chose her delay', () => {
    expect(catchUpAction(lag(30), { ...playing, paused: true })).toEqual({ kind: 'none' });
    expect(catchUpAction(lag(30), { ...playing, held: true })).toEqual({ kind: 'none' });
    expect(catchUpAction(lag(2), { ...playing, held: true })).toEqual({ kind: 'none' });
    // Caught mid catch-up by her pause or seek: back to normal speed.
    expect(catchUpAction(lag(2), { paused: false, rate: 1.1, held: true })).toEqual({
      kind: 'rate',
      rate: 1,
    });
  });

  it('does nothing without a measured lag (no live playlist yet)', () => {
    expect(catchUpAction(null, playing)).toEqual({ kind: 'none' });
    expect(catchUpAction(null, { ...playing, rate: 1.1 })).toEqual({ kind: 'rate', rate: 1 });
  });

  it('offers back to live when paused or more than a few seconds behind', () => {
    expect(offerBackToLive(lag(0), true)).toBe(true);
    expect(offerBackToLive(null, true)).toBe(true);
    expect(offerBackToLive(lag(BACK_TO_LIVE_AFTER_SEC - 0.1), false)).toBe(false);
    expect(offerBackToLive(lag(BACK_TO_LIVE_AFTER_SEC + 0.1), false)).toBe(true);
    expect(offerBackToLive(lag(80), false)).toBe(true);
    expect(offerBackToLive(null, false)).toBe(false);
  });

  it('ends a hold once the viewer plays within a few seconds of live (no back to live offered then)', () => {
    expect(holdEnds(lag(20), false)).toBe(false);
    expect(holdEnds(lag(BACK_TO_LIVE_AFTER_SEC + 0.1), false)).toBe(false);
    expect(holdEnds(lag(0.2), true)).toBe(false);
    expect(holdEnds(lag(0.2), false)).toBe(true);
    // A short pause: she plays on 2 s behind, and the player plays it off.
    expect(holdEnds(lag(2), false)).toBe(true);
    expect(holdEnds(null, false)).toBe(false);
  });

  it('keeps an LL-HLS viewer closer: speeds up from half a second behind, jumps from two', () => {
    const ll = (behind: number, overrides: Partial<LiveLag> = {}) =>
      lag(behind, { targetSec: 0.7, latencySec: 0.7 + behind, lowLatency: true, ...overrides });
    expect(catchUpAction(ll(0.4), playing)).toEqual({ kind: 'none' });
    expect(catchUpAction(ll(0.6), playing)).toEqual({ kind: 'rate', rate: CATCH_UP_MAX_RATE });
    // Catching up goes on down to 0.2 s behind, then normal speed.
    expect(catchUpAction(ll(0.3), { ...playing, rate: 1.1 })).toEqual({ kind: 'none' });
    expect(catchUpAction(ll(0.15), { ...playing, rate: 1.1 })).toEqual({ kind: 'rate', rate: 1 });
    // A stall of a couple of seconds: back to the edge at once, not 20 s at 1.1x.
    expect(catchUpAction(ll(2.1), playing)).toEqual({ kind: 'jump' });
    expect(catchUpAction(ll(1.9), playing)).toEqual({ kind: 'rate', rate: CATCH_UP_MAX_RATE });
    // With a few parts buffered it speeds up; with less it does not run into a stall.
    expect(catchUpAction(ll(1, { bufferAheadSec: 0.7 }), playing)).toEqual({ kind: 'rate', rate: 1.1 });
    expect(catchUpAction(ll(1, { bufferAheadSec: 0.4 }), playing)).toEqual({ kind: 'none' });
    // A paused or held LL viewer is never moved.
    expect(catchUpAction(ll(5), { ...playing, paused: true })).toEqual({ kind: 'none' });
    expect(catchUpAction(ll(5), { ...playing, held: true })).toEqual({ kind: 'none' });
    // The regular stream's rules are unchanged.
    expect(catchUpJumpAfterSec(1, false)).toBe(4);
    expect(catchUpJumpAfterSec(1, true)).toBe(2);
  });
});

describe('giving back the target latency stalls raised (LL streams)', () => {
  const raised = { targetSec: 1.702, partHoldBackSec: 0.702 };

  it('sets PART-HOLD-BACK again once the last stall is long enough past', () => {
    expect(decayedTargetLatency({ ...raised, sinceStallMs: LL_STALL_BACK_OFF_DECAY_MS })).toBe(0.702);
    expect(decayedTargetLatency({ ...raised, sinceStallMs: 60_000 })).toBe(0.702);
  });

  it('keeps the raised target while stalls are recent', () => {
    expect(decayedTargetLatency({ ...raised, sinceStallMs: LL_STALL_BACK_OFF_DECAY_MS - 1 })).toBeNull();
    expect(decayedTargetLatency({ ...raised, sinceStallMs: 0 })).toBeNull();
  });

  it('leaves a target that is not raised, and a stream without PART-HOLD-BACK', () => {
    expect(
      decayedTargetLatency({ targetSec: 0.702, partHoldBackSec: 0.702, sinceStallMs: 60_000 }),
    ).toBeNull();
    expect(
      decayedTargetLatency({ targetSec: 0.74, partHoldBackSec: 0.702, sinceStallMs: 60_000 }),
    ).toBeNull();
    expect(decayedTargetLatency({ targetSec: 3.5, partHoldBackSec: 0, sinceStallMs: 60_000 })).toBeNull();
  });
});
