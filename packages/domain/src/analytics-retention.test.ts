import { describe, expect, it } from 'vitest';
import { averageWatchSeconds, retentionCurve, weeklyTrend, weekStartUtc } from './analytics-retention.ts';

describe('retentionCurve', () => {
  it('gives the share of viewers who watched at least k minutes, from 1 down', () => {
    // 2 viewers 1 minute, 1 viewer 3 minutes, 1 viewer 4 minutes.
    const curve = retentionCurve(
      new Map([
        [1, 2],
        [3, 1],
        [4, 1],
      ]),
    );
    expect(curve).toEqual([1, 1, 0.5, 0.5, 0.25]);
  });

  it('is as long as asked, cutting longer watchers into the last point', () => {
    expect(retentionCurve(new Map([[10, 1]]), 2)).toEqual([1, 1, 1]);
    expect(retentionCurve(new Map([[1, 1]]), 3)).toEqual([1, 1, 0, 0]);
  });

  it('is all zero without viewers', () => {
    expect(retentionCurve(new Map(), 2)).toEqual([0, 0, 0]);
  });
});

describe('averageWatchSeconds', () => {
  it('divides and rounds, and is 0 without viewers', () => {
    expect(averageWatchSeconds(100, 3)).toBe(33);
    expect(averageWatchSeconds(100, 0)).toBe(0);
  });
});

describe('weekStartUtc and weeklyTrend', () => {
  it('starts weeks on Monday 00:00 UTC', () => {
    // 2026-11-24 is a Tuesday.
    expect(weekStartUtc(Date.UTC(2026, 10, 24, 18))).toBe(Date.UTC(2026, 10, 23));
    expect(weekStartUtc(Date.UTC(2026, 10, 23))).toBe(Date.UTC(2026, 10, 23));
    expect(weekStartUtc(Date.UTC(2026, 10, 22, 23, 59))).toBe(Date.UTC(2026, 10, 16));
  });

  it('sums shows per week and fills the weeks between', () => {
    const trend = weeklyTrend([
      { startsAt: Date.UTC(2026, 10, 24), viewers: 10, watchSeconds: 100, orders: 1 },
      { startsAt: Date.UTC(2026, 10, 25), viewers: 5, watchSeconds: 50, orders: 2 },
      { startsAt: Date.UTC(2026, 10, 10), viewers: 1, watchSeconds: 1, orders: 0 },
    ]);
    expect(trend.map((week) => [week.weekStart, week.shows, week.viewers, week.orders])).toEqual([
      [Date.UTC(2026, 10, 9), 1, 1, 0],
      [Date.UTC(2026, 10, 16), 0, 0, 0],
      [Date.UTC(2026, 10, 23), 2, 15, 3],
    ]);
    expect(weeklyTrend([])).toEqual([]);
  });
});
