import { isTimeZone, normalizeOrigin } from '@vitrine/protocol';
import { CURRENCIES, LOCALES } from '@vitrine/protocol/vocabulary';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SHIPPING_OFFER,
  freightTable,
  readableInk,
  resolveShippingOffer,
  soldIn,
} from './store-settings.ts';

describe('shipping offer', () => {
  it('is the default offer for a store that set nothing', () => {
    expect(resolveShippingOffer({})).toEqual(DEFAULT_SHIPPING_OFFER);
    expect(freightTable(resolveShippingOffer(null), 'DKK')).toEqual({
      home_delivery: 4_900,
      parcel_shop: 3_900,
      store_pickup: 0,
    });
  });

  it('leaves out disabled methods and methods without a price in the currency', () => {
    const offer = resolveShippingOffer({
      home_delivery: { enabled: true, prices: { DKK: 5_500 } },
      parcel_shop: { enabled: false, prices: { DKK: 3_000, EUR: 400 } },
    });
    expect(freightTable(offer, 'DKK')).toEqual({ home_delivery: 5_500, store_pickup: 0 });
    expect(freightTable(offer, 'EUR')).toEqual({ store_pickup: 0 });
  });
});

describe('soldIn', () => {
  it('puts the main value first and keeps it once', () => {
    expect(soldIn('da', ['en', 'da', 'sv'], LOCALES)).toEqual(['da', 'en', 'sv']);
  });

  it('is every value when the store chose none', () => {
    expect(soldIn('EUR', [], CURRENCIES)).toEqual(['EUR', 'DKK', 'SEK', 'NOK', 'PLN', 'GBP']);
  });
});

describe('isTimeZone', () => {
  it('knows IANA names and refuses others', () => {
    expect(isTimeZone('Europe/Copenhagen')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('America/Argentina/Buenos_Aires')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });
});

describe('normalizeOrigin', () => {
  it('accepts http(s) origins as browsers send them', () => {
    expect(normalizeOrigin('https://shop.example')).toBe('https://shop.example');
    expect(normalizeOrigin('https://shop.example/')).toBe('https://shop.example');
    expect(normalizeOrigin('http://localhost:5173')).toBe('http://localhost:5173');
    expect(normalizeOrigin('HTTPS://Shop.Example')).toBe('https://shop.example');
    expect(normalizeOrigin('https://shop.example:443')).toBe('https://shop.example');
  });

  it('refuses paths, other schemes, credentials and words', () => {
    expect(normalizeOrigin('https://shop.example/products')).toBeNull();
    expect(normalizeOrigin('javascript:alert(1)')).toBeNull();
    expect(normalizeOrigin('ftp://shop.example')).toBeNull();
    expect(normalizeOrigin('https://user:pw@shop.example')).toBeNull();
    expect(normalizeOrigin('shop.example')).toBeNull();
    expect(normalizeOrigin('https://shop.example?x=1')).toBeNull();
  });
});

describe('readableInk', () => {
  it('puts white on dark brand colours and black on light ones', () => {
    expect(readableInk('#29323D')).toBe('#FFFFFF');
    expect(readableInk('#2490A8')).toBe('#000000');
    expect(readableInk('#FFEB3B')).toBe('#000000');
    expect(readableInk('#CC3366')).toBe('#FFFFFF');
  });
});
