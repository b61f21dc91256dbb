import { describe, expect, it } from 'vitest';
import { type ProductDisplayInputs, productDisplayMode } from './product-display-mode.ts';

const BASE: ProductDisplayInputs = {
  hostDataPending: false,
  hostDataLoaded: false,
  usesHostData: true,
  userPriceKnown: false,
};

describe('productDisplayMode', () => {
  it('is hidden when data is pending and some data is already loaded (spec §4 "Product display mode" hidden)', () => {
    expect(productDisplayMode({ ...BASE, hostDataPending: true, hostDataLoaded: true })).toBe('hidden');
    expect(
      productDisplayMode({ ...BASE, hostDataPending: true, hostDataLoaded: true, userPriceKnown: true }),
    ).toBe('hidden');
  });

  it('is loading when data is pending and nothing is loaded yet (spec §4 "Product display mode" loading)', () => {
    expect(productDisplayMode({ ...BASE, hostDataPending: true })).toBe('loading');
  });

  it('is userPrice once host data with the user’s price is loaded (spec §4 "Product display mode" userPrice)', () => {
    expect(productDisplayMode({ ...BASE, hostDataLoaded: true, userPriceKnown: true })).toBe('userPrice');
  });

  it('is defaultPrices when loaded host data has no user price (spec §4 "Product display mode" defaultPrices)', () => {
    expect(productDisplayMode({ ...BASE, hostDataLoaded: true })).toBe('defaultPrices');
  });

  it('is defaultPrices when the widget does not use host data (spec §4 "Product display mode" defaultPrices)', () => {
    expect(
      productDisplayMode({
        hostDataPending: true,
        hostDataLoaded: true,
        usesHostData: false,
        userPriceKnown: true,
      }),
    ).toBe('defaultPrices');
  });

  it('is defaultPrices with host data in use but nothing requested (spec §4 "Product display mode")', () => {
    expect(productDisplayMode(BASE)).toBe('defaultPrices');
  });
});
