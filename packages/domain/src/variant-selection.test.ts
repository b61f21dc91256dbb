import type { Product } from '@vitrine/protocol';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  displayPrice,
  displayPriceWithWas,
  isOptionValueAvailable,
  lineWasAmount,
  matchingVariant,
  type OptionSelection,
  type SelectableProduct,
  type SelectableVariant,
  selectionStock,
  toggleOptionValue,
  wasAmount,
} from './variant-selection.ts';

function variant(uid: string, color: string, size: string, stock: number | null, dkk: number) {
  return {
    uid,
    prices: { DKK: dkk },
    stock,
    options: [
      { optionId: 'color', optionValueId: color },
      { optionId: 'size', optionValueId: size },
    ],
  } satisfies SelectableVariant & { uid: string };
}

const SHIRT = {
  prices: { DKK: 10_000, EUR: 1_300 },
  stock: 12,
  options: [
    { id: 'color', optionValues: [{ id: 'red' }, { id: 'blue' }] },
    { id: 'size', optionValues: [{ id: 's' }, { id: 'm' }] },
  ],
  variants: [
    variant('red-s', 'red', 's', 3, 11_000),
    variant('red-m', 'red', 'm', 0, 12_000),
    variant('blue-s', 'blue', 's', null, 13_000),
  ],
} satisfies SelectableProduct;

describe('wire compatibility', () => {
  it('accepts the protocol Product (spec §3 "Host product data", "Product")', () => {
    expectTypeOf<Product>().toExtend<SelectableProduct>();
  });
});

describe('toggleOptionValue', () => {
  it('picks a value (spec §4 "Picking an option value toggles it")', () => {
    expect(toggleOptionValue({}, 'color', 'red')).toEqual({ color: 'red' });
  });

  it('un-picks the value already picked (spec §4 "Picking an option value toggles it")', () => {
    expect(toggleOptionValue({ color: 'red', size: 's' }, 'color', 'red')).toEqual({ size: 's' });
  });

  it('replaces another value of the same option (spec §4 "Host messaging")', () => {
    expect(toggleOptionValue({ color: 'red' }, 'color', 'blue')).toEqual({ color: 'blue' });
  });

  it('returns a new selection without changing the old one (spec §4 "Host messaging")', () => {
    const before: OptionSelection = { color: 'red' };
    const after = toggleOptionValue(before, 'size', 'm');
    expect(before).toEqual({ color: 'red' });
    expect(after).not.toBe(before);
  });
});

describe('matchingVariant', () => {
  it('finds the variant once every option is picked (spec §4 "Once all chosen options match a variant")', () => {
    expect(matchingVariant(SHIRT, { color: 'red', size: 'm' })?.uid).toBe('red-m');
    expect(matchingVariant(SHIRT, { size: 's', color: 'blue' })?.uid).toBe('blue-s');
  });

  it('is null while an option is still unpicked (spec §4 "all chosen options")', () => {
    expect(matchingVariant(SHIRT, { color: 'red' })).toBeNull();
    expect(matchingVariant(SHIRT, {})).toBeNull();
  });

  it('is null when no variant has the combination (spec §4 "match a variant", §8 "Variant is missing")', () => {
    expect(matchingVariant(SHIRT, { color: 'blue', size: 'm' })).toBeNull();
  });

  it('ignores picks for options the product does not have (spec §5 "Unexpected ... product data from the host is ignored")', () => {
    expect(matchingVariant(SHIRT, { color: 'red', size: 's', fit: 'slim' })?.uid).toBe('red-s');
  });

  it('does not match a variant with extra options (spec §4 "match a variant")', () => {
    const odd = {
      ...SHIRT,
      variants: [
        {
          prices: {},
          stock: null,
          options: [...variant('x', 'red', 's', 1, 1).options, { optionId: 'fit', optionValueId: 'slim' }],
        },
      ],
    };
    expect(matchingVariant(odd, { color: 'red', size: 's' })).toBeNull();
  });

  it('matches an option-less variant of an option-less product (spec §4 "match a variant")', () => {
    const plain = {
      prices: { DKK: 500 },
      options: [],
      variants: [{ prices: { DKK: 400 }, stock: 2, options: [] }],
    };
    expect(matchingVariant(plain, {})).toBe(plain.variants[0]);
  });
});

describe('displayPrice', () => {
  it('shows the product price until a variant matches (spec §4 "its price replaces the product price")', () => {
    expect(displayPrice(SHIRT, { color: 'red' }, 'DKK', 'DKK')).toEqual({ amount: 10_000, currency: 'DKK' });
  });

  it('shows the matching variant’s price (spec §4 "its price replaces the product price")', () => {
    expect(displayPrice(SHIRT, { color: 'red', size: 'm' }, 'DKK', 'DKK')).toEqual({
      amount: 12_000,
      currency: 'DKK',
    });
  });

  it('falls back to the store currency for the variant (spec §5 "A currency falls back")', () => {
    expect(displayPrice(SHIRT, { color: 'red', size: 's' }, 'EUR', 'DKK')).toEqual({
      amount: 11_000,
      currency: 'DKK',
    });
  });

  it('falls back to the product price when the variant has none (spec §4 "Host messaging")', () => {
    const unpriced = {
      ...SHIRT,
      variants: [{ prices: {}, stock: null, options: variant('x', 'red', 's', 1, 1).options }],
    };
    expect(displayPrice(unpriced, { color: 'red', size: 's' }, 'EUR', 'DKK')).toEqual({
      amount: 1_300,
      currency: 'EUR',
    });
  });

  it('is null when nothing has a price (spec §4 "Host messaging")', () => {
    expect(displayPrice({ prices: {}, options: [], variants: [] }, {}, 'EUR', 'DKK')).toBeNull();
  });
});

describe('selectionStock', () => {
  it('is the matching variant’s stock, else the product’s (spec §4 "Stock signals")', () => {
    expect(selectionStock(SHIRT, { color: 'red', size: 's' })).toBe(3);
    expect(selectionStock(SHIRT, { color: 'blue', size: 's' })).toBeNull();
    expect(selectionStock(SHIRT, { color: 'red' })).toBe(12);
    expect(selectionStock({ ...SHIRT, stock: undefined }, {})).toBeNull();
  });
});

describe('isOptionValueAvailable', () => {
  it('is available when some variant in stock has the value (spec §4 "Host messaging", "sold out")', () => {
    expect(isOptionValueAvailable(SHIRT, {}, 'color', 'red')).toBe(true);
    expect(isOptionValueAvailable(SHIRT, {}, 'size', 'm')).toBe(false);
  });

  it('counts variants that are not stock-managed as available (spec §3 "stock" null)', () => {
    expect(isOptionValueAvailable(SHIRT, {}, 'color', 'blue')).toBe(true);
  });

  it('takes the other picked values into account (spec §4 "Once all chosen options match a variant")', () => {
    expect(isOptionValueAvailable(SHIRT, { color: 'blue' }, 'size', 's')).toBe(true);
    expect(isOptionValueAvailable(SHIRT, { color: 'blue' }, 'size', 'm')).toBe(false);
    expect(isOptionValueAvailable(SHIRT, { size: 'm' }, 'color', 'red')).toBe(false);
  });

  it('replaces the current pick of the same option (spec §4 "Picking an option value toggles it")', () => {
    expect(isOptionValueAvailable(SHIRT, { color: 'blue', size: 's' }, 'color', 'red')).toBe(true);
  });

  it('treats every value as available for a product without variants (spec §4 "Host messaging")', () => {
    expect(isOptionValueAvailable({ ...SHIRT, variants: [] }, {}, 'size', 'm')).toBe(true);
  });

  it('is unavailable for a value no variant has (spec §8 "Variant is missing")', () => {
    expect(isOptionValueAvailable(SHIRT, {}, 'color', 'green')).toBe(false);
  });
});

describe('wasAmount and displayPriceWithWas (a compare-at price shown as "was")', () => {
  const shirt = {
    prices: { DKK: 19900 },
    compareAtPrices: { DKK: 29900 },
    options: [{ id: 'color', optionValues: [{ id: 'white' }, { id: 'black' }] }],
    variants: [
      {
        prices: { DKK: 19900 },
        compareAtPrices: { DKK: 29900 },
        stock: 3,
        options: [{ optionId: 'color', optionValueId: 'white' }],
      },
      // Compare-at equal to the price: no deal, nothing struck through.
      {
        prices: { DKK: 24900 },
        compareAtPrices: { DKK: 24900 },
        stock: 3,
        options: [{ optionId: 'color', optionValueId: 'black' }],
      },
    ],
  };

  it('is the compare-at price only when higher than the price, in the same currency', () => {
    expect(wasAmount({ amount: 100, currency: 'DKK' }, { DKK: 150 })).toBe(150);
    expect(wasAmount({ amount: 100, currency: 'DKK' }, { DKK: 100 })).toBeNull();
    expect(wasAmount({ amount: 100, currency: 'DKK' }, { DKK: 90 })).toBeNull();
    expect(wasAmount({ amount: 100, currency: 'DKK' }, { EUR: 150 })).toBeNull();
    expect(wasAmount({ amount: 100, currency: 'DKK' }, undefined)).toBeNull();
    expect(wasAmount(null, { DKK: 150 })).toBeNull();
  });

  it("takes the matching variant's compare-at price, else the product's", () => {
    expect(displayPriceWithWas(shirt, {}, 'DKK', 'DKK')).toEqual({
      amount: 19900,
      currency: 'DKK',
      was: 29900,
    });
    expect(displayPriceWithWas(shirt, { color: 'white' }, 'DKK', 'DKK')).toEqual({
      amount: 19900,
      currency: 'DKK',
      was: 29900,
    });
    expect(displayPriceWithWas(shirt, { color: 'black' }, 'DKK', 'DKK')).toEqual({
      amount: 24900,
      currency: 'DKK',
      was: null,
    });
  });

  it('falls back to the store currency with its own compare-at price', () => {
    expect(displayPriceWithWas(shirt, {}, 'EUR', 'DKK')).toEqual({
      amount: 19900,
      currency: 'DKK',
      was: 29900,
    });
    expect(displayPriceWithWas({ ...shirt, compareAtPrices: undefined }, {}, 'DKK', 'DKK')?.was).toBeNull();
  });
});

describe('lineWasAmount (a cart line\'s "was" price)', () => {
  const product = {
    prices: { DKK: 100 },
    compareAtPrices: { DKK: 150 },
    options: [{ id: 'size', optionValues: [{ id: 's' }, { id: 'm' }] }],
    variants: [
      {
        uid: 'v-s',
        prices: { DKK: 100 },
        compareAtPrices: { DKK: 180 },
        stock: 1,
        options: [{ optionId: 'size', optionValueId: 's' }],
      },
      { uid: 'v-m', prices: { DKK: 100 }, stock: 1, options: [{ optionId: 'size', optionValueId: 'm' }] },
    ],
  };

  it("is the line's variant's compare-at price when above the unit price paid", () => {
    expect(lineWasAmount(product, 'v-s', 100, 'DKK')).toBe(180);
    expect(lineWasAmount(product, 'v-s', 200, 'DKK')).toBeNull();
    expect(lineWasAmount(product, 'v-m', 100, 'DKK')).toBeNull();
    expect(lineWasAmount(product, 'v-s', 100, 'EUR')).toBeNull();
  });

  it("is the product's for a line without variant, and none for a variant no longer there", () => {
    expect(lineWasAmount(product, null, 100, 'DKK')).toBe(150);
    expect(lineWasAmount(product, 'gone', 100, 'DKK')).toBeNull();
  });
});
