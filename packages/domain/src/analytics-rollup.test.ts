import { describe, expect, it } from 'vitest';
import {
  type AnalyticsRawEvent,
  minuteOf,
  peakMinute,
  revenueFigures,
  rollupEvents,
} from './analytics-rollup.ts';

const T0 = Date.UTC(2026, 10, 24, 18, 0, 0);

function raw(overrides: Partial<AnalyticsRawEvent>): AnalyticsRawEvent {
  return {
    campaignUid: 'show',
    receivedAt: T0,
    name: 'player.heartbeat',
    viewerKey: 'viewer-a',
    replay: false,
    watchedSeconds: 0,
    productUid: null,
    productShown: false,
    ...overrides,
  };
}

describe('minuteOf', () => {
  it('floors a time to the start of its UTC minute', () => {
    expect(minuteOf(T0 + 59_999)).toBe(T0);
    expect(minuteOf(T0 + 60_000)).toBe(T0 + 60_000);
  });
});

describe('rollupEvents', () => {
  it('counts a viewer once per minute, whatever it sent, and sums watch seconds by playback', () => {
    const rollup = rollupEvents([
      raw({ watchedSeconds: 30 }),
      raw({ receivedAt: T0 + 30_000, watchedSeconds: 30 }),
      raw({ receivedAt: T0 + 40_000, name: 'user.commented' }),
      raw({ viewerKey: 'viewer-b', replay: true, watchedSeconds: 12 }),
      raw({ receivedAt: T0 + 61_000, watchedSeconds: 29 }),
    ]);
    expect(rollup.minutes).toEqual([
      expect.objectContaining({ minute: T0, watchSecondsLive: 60, watchSecondsReplay: 12, comments: 1 }),
      expect.objectContaining({ minute: T0 + 60_000, watchSecondsLive: 29 }),
    ]);
    expect(rollup.viewerMinutes.filter((entry) => entry.minute === T0)).toHaveLength(2);
    expect(
      rollup.viewerMinutes.find((entry) => entry.viewerKey === 'viewer-a' && entry.minute === T0),
    ).toMatchObject({ watchSeconds: 60, replay: false });
  });

  it('counts comments, reactions, details and adds, and marks each viewer’s funnel per product', () => {
    const rollup = rollupEvents([
      raw({ name: 'catalog.viewed-product-details', productUid: 'mug' }),
      raw({ name: 'catalog.viewed-product-details', productUid: 'mug' }),
      raw({ name: 'cart.added-to-cart', productUid: 'mug', productShown: true }),
      raw({ name: 'cart.added-to-cart', productUid: 'mug', viewerKey: 'viewer-b' }),
      raw({ name: 'user.reacted' }),
    ]);
    expect(rollup.minutes[0]).toMatchObject({ detailsOpened: 2, adds: 2, reactions: 1, comments: 0 });
    expect(rollup.viewerProducts).toEqual([
      { campaignUid: 'show', productUid: 'mug', viewerKey: 'viewer-a', detailsOpened: true, added: true },
      { campaignUid: 'show', productUid: 'mug', viewerKey: 'viewer-b', detailsOpened: false, added: true },
    ]);
    expect(rollup.viewerMinutes.find((entry) => entry.viewerKey === 'viewer-a')?.productShown).toBe(true);
  });

  it('counts events without a viewer in the totals but as no viewer', () => {
    const rollup = rollupEvents([raw({ viewerKey: null, name: 'user.reacted' })]);
    expect(rollup.minutes[0]?.reactions).toBe(1);
    expect(rollup.viewerMinutes).toEqual([]);
  });

  it('keeps shows apart', () => {
    const rollup = rollupEvents([raw({}), raw({ campaignUid: 'other' })]);
    expect(rollup.minutes.map((entry) => entry.campaignUid)).toEqual(['show', 'other']);
  });

  it('ignores negative watch seconds', () => {
    expect(rollupEvents([raw({ watchedSeconds: -5 })]).minutes[0]?.watchSecondsLive).toBe(0);
  });
});

describe('peakMinute', () => {
  it('is the first minute with the most viewers, or null when nobody watched', () => {
    expect(
      peakMinute([
        { minute: 1, viewers: 2 },
        { minute: 2, viewers: 5 },
        { minute: 3, viewers: 5 },
      ]),
    ).toEqual({ minute: 2, viewers: 5 });
    expect(peakMinute([{ minute: 1, viewers: 0 }])).toBeNull();
  });
});

describe('revenue figures (issue 33 item 12)', () => {
  it('reports gross, refunds and net, with and without freight, per currency', () => {
    expect(
      revenueFigures([
        { currency: 'DKK', revenue: 17_900, freight: 4_900, refunded: 10_000 },
        { currency: 'DKK', revenue: 35_800, freight: 0, refunded: 0 },
        { currency: 'EUR', revenue: 2_395, freight: 500, refunded: 0 },
      ]),
    ).toEqual([
      {
        currency: 'DKK',
        items: 53_700,
        freight: 4_900,
        gross: 58_600,
        refunds: 10_000,
        net: 48_600,
        netWithoutFreight: 43_700,
      },
      {
        currency: 'EUR',
        items: 2_395,
        freight: 500,
        gross: 2_895,
        refunds: 0,
        net: 2_895,
        netWithoutFreight: 2_395,
      },
    ]);
    expect(revenueFigures([])).toEqual([]);
  });
});
