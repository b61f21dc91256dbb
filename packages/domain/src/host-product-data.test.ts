import { describe, expect, it } from 'vitest';
import {
  hasHostPrice,
  isWebUrl,
  majorToMinorUnits,
  type OverlayableProduct,
  overlayHostProductData,
} from './host-product-data.ts';
import { displayPrice } from './variant-selection.ts';

const PRODUCT: OverlayableProduct & { uid: string } = {
  uid: 'p1',
  name: 'Catalogue name',
  images: ['https://cdn.example/catalogue.jpg'],
  url: 'https://shop.example/p1',
  prices: { DKK: 14900, EUR: 1999 },
  variants: [
    { uid: 'v1', prices: { DKK: 15900 } },
    { uid: 'v2', prices: { DKK: 16900 } },
  ],
};

describe('majorToMinorUnits', () => {
  it('converts by the currency’s minor-unit digits, rounding float noise', () => {
    expect(majorToMinorUnits(149.95, 'DKK')).toBe(14995);
    expect(majorToMinorUnits(0.1 + 0.2, 'EUR')).toBe(30);
  });
});

describe('isWebUrl', () => {
  it('accepts absolute http(s) addresses only', () => {
    expect(isWebUrl('https://cdn.example/a.jpg')).toBe(true);
    expect(isWebUrl('http://cdn.example/a.jpg')).toBe(true);
    expect(isWebUrl('javascript:alert(1)')).toBe(false);
    expect(isWebUrl('data:image/png;base64,AAAA')).toBe(false);
    expect(isWebUrl('/relative.jpg')).toBe(false);
  });
});

describe('overlayHostProductData (spec §3 "Host product data")', () => {
  it('replaces name, images, url and prices with the host’s', () => {
    const overlaid = overlayHostProductData(
      PRODUCT,
      {
        name: 'Host name',
        price: 99.5,
        images: ['https://host.example/a.jpg'],
        url: 'https://host.example/p',
        variants: [{ id: 'v2', price: 120 }],
      },
      'DKK',
    );
    expect(overlaid.uid).toBe('p1');
    expect(overlaid.name).toBe('Host name');
    expect(overlaid.images).toEqual(['https://host.example/a.jpg']);
    expect(overlaid.url).toBe('https://host.example/p');
    expect(overlaid.prices).toEqual({ DKK: 9950 });
    expect(overlaid.variants).toEqual([
      { uid: 'v1', prices: {} },
      { uid: 'v2', prices: { DKK: 12000 } },
    ]);
  });

  it('shows the host price for the viewer’s other currency too, through the store-currency fallback', () => {
    const overlaid = overlayHostProductData(PRODUCT, { price: 10 }, 'DKK');
    const product = { ...overlaid, options: [], variants: [], stock: null };
    expect(displayPrice(product, {}, 'EUR', 'DKK')).toEqual({ amount: 1000, currency: 'DKK' });
  });

  it('keeps the catalogue’s fields the host leaves out or sends unusable', () => {
    const overlaid = overlayHostProductData(
      PRODUCT,
      { name: '  ', images: ['javascript:alert(1)'], url: 'javascript:alert(1)' },
      'DKK',
    );
    expect(overlaid).toEqual(PRODUCT);
  });

  it('knows whether the host gave a price', () => {
    expect(hasHostPrice({ price: 0 })).toBe(true);
    expect(hasHostPrice({ name: 'x' })).toBe(false);
  });
});
