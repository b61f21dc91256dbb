import { describe, expect, it } from 'vitest';
import { withoutEmptyCompareAt } from './catalogue-format.ts';

describe('withoutEmptyCompareAt', () => {
  it('takes out the compare-at fields left empty, of the product and of each variant', () => {
    expect(
      withoutEmptyCompareAt({
        name: 'Lamp',
        compareAtPrices: { DKK: undefined, EUR: 3000 },
        variants: [{ compareAtPrices: { DKK: 29900, EUR: undefined } }, {}],
      }),
    ).toEqual({
      name: 'Lamp',
      compareAtPrices: { EUR: 3000 },
      variants: [{ compareAtPrices: { DKK: 29900 } }, { compareAtPrices: undefined }],
    });
  });

  it('keeps a value that is not a price (NaN), so the schema says why', () => {
    expect(withoutEmptyCompareAt({ compareAtPrices: { DKK: Number.NaN } }).compareAtPrices).toEqual({
      DKK: Number.NaN,
    });
  });
});
