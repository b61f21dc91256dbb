import { describe, expect, it } from 'vitest';
import {
  ATTRIBUTION_GRACE_MS,
  averageOrderValue,
  conversionRate,
  isOrderAttributed,
  presentedViewers,
  productChapters,
} from './analytics-funnel.ts';

const M = 60_000;

describe('productChapters', () => {
  it('ends an open cue at the next cue or the show’s end, leaves deleted cues out, sorts by start', () => {
    const chapters = productChapters(
      [
        {
          productUid: 'b',
          cues: [{ presentationStartTimestamp: 5 * M, presentationEndTimestamp: null, deleted: false }],
        },
        {
          productUid: 'a',
          cues: [
            { presentationStartTimestamp: 1 * M, presentationEndTimestamp: null, deleted: false },
            { presentationStartTimestamp: 3 * M, presentationEndTimestamp: 4 * M, deleted: true },
          ],
        },
      ],
      9 * M,
    );
    expect(chapters).toEqual([
      { productUid: 'a', start: 1 * M, end: 5 * M },
      { productUid: 'b', start: 5 * M, end: 9 * M },
    ]);
  });

  it('keeps a cue’s own end', () => {
    expect(
      productChapters(
        [
          {
            productUid: 'a',
            cues: [{ presentationStartTimestamp: M, presentationEndTimestamp: 2 * M, deleted: false }],
          },
        ],
        9 * M,
      ),
    ).toEqual([{ productUid: 'a', start: M, end: 2 * M }]);
  });
});

describe('presentedViewers', () => {
  it('counts viewers whose watching overlaps one of the product’s chapters', () => {
    const chapters = [{ productUid: 'a', start: 2 * M + 10, end: 3 * M }];
    const viewers = [
      { firstMinute: 0, lastMinute: 1 * M },
      { firstMinute: 0, lastMinute: 2 * M },
      { firstMinute: 3 * M, lastMinute: 9 * M, count: 4 },
      { firstMinute: 4 * M, lastMinute: 9 * M },
    ];
    expect(presentedViewers(viewers, chapters)).toBe(5);
    expect(presentedViewers(viewers, [])).toBe(0);
  });
});

describe('conversion and order value', () => {
  it('are ratios that are 0 without a denominator', () => {
    expect(conversionRate(1, 4)).toBe(0.25);
    expect(conversionRate(1, 0)).toBe(0);
    expect(averageOrderValue(1000, 3)).toBe(333);
    expect(averageOrderValue(1000, 0)).toBe(0);
  });
});

describe('isOrderAttributed', () => {
  const show = { startsAt: 100 * M, replayUntil: 200 * M };
  it('counts orders from an hour before the show until a day after its replay closes', () => {
    expect(isOrderAttributed(39 * M, show)).toBe(false);
    expect(isOrderAttributed(40 * M, show)).toBe(true);
    expect(isOrderAttributed(200 * M + ATTRIBUTION_GRACE_MS, show)).toBe(true);
    expect(isOrderAttributed(200 * M + ATTRIBUTION_GRACE_MS + 1, show)).toBe(false);
  });
  it('has no end while the replay has no deadline', () => {
    expect(isOrderAttributed(10_000 * M, { startsAt: 100 * M, replayUntil: null })).toBe(true);
  });
});
