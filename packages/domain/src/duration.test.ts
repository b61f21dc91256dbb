import { describe, expect, it } from 'vitest';
import { formatDuration } from './duration.ts';

describe('formatDuration', () => {
  it('shows zero seconds as "0:00" with zero-padded seconds (spec §4 "Product timing and order", §9)', () => {
    expect(formatDuration(0)).toBe('0:00');
  });

  it('shows 59 seconds as "0:59", still under one minute (spec §4, §9)', () => {
    expect(formatDuration(59)).toBe('0:59');
  });

  it('rolls 60 seconds over to "1:00" (spec §4, §9)', () => {
    expect(formatDuration(60)).toBe('1:00');
  });

  it('shows 75 seconds as "1:15" (spec §4, §9)', () => {
    expect(formatDuration(75)).toBe('1:15');
  });

  it('pads single-digit seconds with a zero: 65 s is "1:05" (spec §4 "two-digit seconds", §9)', () => {
    expect(formatDuration(65)).toBe('1:05');
  });

  it('keeps counting minutes past an hour: 3725 s is "62:05", no hours field (spec §4 "minutes:seconds", §9)', () => {
    expect(formatDuration(3725)).toBe('62:05');
  });

  it('treats negative durations as zero (spec §4, §9: minutes and zero-padded seconds)', () => {
    expect(formatDuration(-1)).toBe('0:00');
    expect(formatDuration(-3725)).toBe('0:00');
  });

  it('treats NaN and infinite durations as zero (spec §4, §9)', () => {
    expect(formatDuration(Number.NaN)).toBe('0:00');
    expect(formatDuration(Number.POSITIVE_INFINITY)).toBe('0:00');
    expect(formatDuration(Number.NEGATIVE_INFINITY)).toBe('0:00');
  });

  it('truncates fractional seconds rather than rounding (spec §4, §9)', () => {
    expect(formatDuration(59.999)).toBe('0:59');
    expect(formatDuration(75.5)).toBe('1:15');
    expect(formatDuration(0.4)).toBe('0:00');
  });

  it('treats a fraction just below zero as zero (spec §4, §9)', () => {
    expect(formatDuration(-0.5)).toBe('0:00');
  });
});
