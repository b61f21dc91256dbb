import { describe, expect, it } from 'vitest';
import {
  checkPremiereSchedule,
  PREMIERE_END_SLACK_SECONDS,
  premiereOffsetSeconds,
  premierePlayedOut,
  premiereReplaceable,
} from './premiere.ts';

const START = Date.UTC(2026, 10, 24, 19, 0);

describe('premiereOffsetSeconds', () => {
  it('is null before the start and the seconds since it after', () => {
    expect(premiereOffsetSeconds(START, 60, START - 1)).toBeNull();
    expect(premiereOffsetSeconds(START, 60, START)).toBe(0);
    expect(premiereOffsetSeconds(START, 60, START + 12_500)).toBe(12.5);
  });

  it('stops at the end of the file', () => {
    expect(premiereOffsetSeconds(START, 60, START + 3_600_000)).toBe(60);
  });
});

describe('premierePlayedOut', () => {
  it('is played out once less than one segment remains', () => {
    expect(premierePlayedOut(START, 60, START - 5)).toBe(false);
    expect(premierePlayedOut(START, 60, START + 30_000)).toBe(false);
    expect(premierePlayedOut(START, 60, START + (60 - PREMIERE_END_SLACK_SECONDS) * 1000 - 1)).toBe(false);
    expect(premierePlayedOut(START, 60, START + (60 - PREMIERE_END_SLACK_SECONDS) * 1000 + 1)).toBe(true);
    expect(premierePlayedOut(START, 60, START + 120_000)).toBe(true);
  });
});

describe('checkPremiereSchedule', () => {
  const base = { state: 'ready' as const, startsAt: START, now: START - 60_000, showStreaming: false };

  it('takes an uploaded or scheduled premiere and a time to come', () => {
    expect(checkPremiereSchedule(base)).toEqual({ ok: true });
    expect(checkPremiereSchedule({ ...base, state: 'scheduled' })).toEqual({ ok: true });
  });

  it('refuses without a file, in the past, once started or over', () => {
    expect(checkPremiereSchedule({ ...base, state: null })).toEqual({ ok: false, reason: 'not-uploaded' });
    expect(checkPremiereSchedule({ ...base, state: 'failed' })).toEqual({
      ok: false,
      reason: 'not-uploaded',
    });
    expect(checkPremiereSchedule({ ...base, now: START })).toEqual({ ok: false, reason: 'in-the-past' });
    expect(checkPremiereSchedule({ ...base, state: 'playing' })).toEqual({
      ok: false,
      reason: 'already-started',
    });
    expect(checkPremiereSchedule({ ...base, showStreaming: true })).toEqual({
      ok: false,
      reason: 'already-started',
    });
    expect(checkPremiereSchedule({ ...base, state: 'ended' })).toEqual({ ok: false, reason: 'show-over' });
  });
});

describe('premiereReplaceable', () => {
  it('lets a file be replaced only before the premiere plays', () => {
    expect(
      [null, 'ready', 'scheduled', 'failed', 'playing', 'ended'].map((s) => premiereReplaceable(s as never)),
    ).toEqual([true, true, true, true, false, false]);
  });
});
