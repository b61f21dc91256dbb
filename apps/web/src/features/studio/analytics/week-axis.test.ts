import { describe, expect, it } from 'vitest';
import { WEEK_SECONDS, weekAxisRange, weekTicks } from './week-axis.ts';

describe('the weekly chart’s axis', () => {
  const monday = Date.UTC(2026, 10, 23) / 1000;

  it('spans one week around a single week of data', () => {
    const range = weekAxisRange([monday]);
    expect(range).toEqual([monday - WEEK_SECONDS / 2, monday + WEEK_SECONDS / 2]);
    expect((range?.[1] ?? 0) - (range?.[0] ?? 0)).toBe(WEEK_SECONDS);
  });

  it('spans the data’s weeks with half a week either side, and nothing without data', () => {
    expect(weekAxisRange([monday - 3 * WEEK_SECONDS, monday])).toEqual([
      monday - 3.5 * WEEK_SECONDS,
      monday + WEEK_SECONDS / 2,
    ]);
    expect(weekAxisRange([])).toBeUndefined();
  });
});

describe('the weekly chart’s ticks', () => {
  const weeks = Array.from({ length: 12 }, (_, index) => index * WEEK_SECONDS);

  it('ticks at each week when there is room, at every k-th week when not', () => {
    expect(weekTicks(weeks.slice(0, 1), 300)).toEqual([0]);
    expect(weekTicks(weeks.slice(0, 4), 1000)).toEqual(weeks.slice(0, 4));
    // 330 px hold 3 labels: every 4th of 12 weeks.
    expect(weekTicks(weeks, 330)).toEqual([weeks[0], weeks[4], weeks[8]]);
    expect(weekTicks(weeks, 10)).toEqual([weeks[0]]);
  });
});
