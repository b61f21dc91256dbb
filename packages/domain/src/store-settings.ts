import { type Currency, type Locale, SHIPPING_METHOD_KINDS, type ShippingMethodKind } from './vocabulary.ts';

/** One shipping method of a store: whether it is offered and its freight per currency (minor units). */
export interface ShippingMethodSetting {
  enabled: boolean;
  prices: Partial<Record<Currency, number>>;
}
export type ShippingOfferSettings = Record<ShippingMethodKind, ShippingMethodSetting>;

/**
 * The freight every store starts with (the demo's prices): home delivery, a parcel shop and pickup
 * in the store, priced per currency as shops price it, not converted.
 */
export const DEFAULT_SHIPPING_OFFER: ShippingOfferSettings = {
  home_delivery: {
    enabled: true,
    prices: { DKK: 4_900, SEK: 6_900, NOK: 6_900, EUR: 695, PLN: 2_900, GBP: 595 },
  },
  parcel_shop: {
    enabled: true,
    prices: { DKK: 3_900, SEK: 4_900, NOK: 4_900, EUR: 495, PLN: 1_900, GBP: 395 },
  },
  store_pickup: { enabled: true, prices: { DKK: 0, SEK: 0, NOK: 0, EUR: 0, PLN: 0, GBP: 0 } },
};

/** A store's shipping offer as stored: methods it never set keep the default. */
export function resolveShippingOffer(
  stored: Partial<ShippingOfferSettings> | null | undefined,
): ShippingOfferSettings {
  const offer = { ...DEFAULT_SHIPPING_OFFER };
  for (const kind of SHIPPING_METHOD_KINDS) {
    const method = stored?.[kind];
    if (method) offer[kind] = method;
  }
  return offer;
}

/**
 * Freight of each method offered in a currency: an enabled method with a price in that currency;
 * a method without one is not offered there (a store that does not ship to Poland sets no PLN).
 */
export function freightTable(
  offer: ShippingOfferSettings,
  currency: Currency,
): Partial<Record<ShippingMethodKind, number>> {
  const table: Partial<Record<ShippingMethodKind, number>> = {};
  for (const kind of SHIPPING_METHOD_KINDS) {
    const method = offer[kind];
    const price = method.prices[currency];
    if (method.enabled && price !== undefined) table[kind] = price;
  }
  return table;
}

/**
 * The languages (or currencies) a store sells in, its main one first: the ones it chose, or every
 * one (`all`) when it chose none, as stores made before the choice existed sell in every currency
 * their products are priced in.
 */
export function soldIn<T extends Locale | Currency>(main: T, chosen: readonly T[], all: readonly T[]): T[] {
  const list = chosen.length > 0 ? chosen : all;
  return [main, ...list.filter((value) => value !== main)];
}

/** WCAG relative luminance of a #RRGGBB colour. */
function relativeLuminance(hex: string): number {
  const channels = [1, 3, 5].map((start) => Number.parseInt(hex.slice(start, start + 2), 16) / 255);
  const [r = 0, g = 0, b = 0] = channels.map((value) =>
    value <= 0.039_28 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4,
  );
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/**
 * The text colour that reads best on a store's brand colour (#RRGGBB): black or white, whichever
 * contrasts more, so a light brand colour never carries white text viewers cannot read.
 */
export function readableInk(background: string): '#000000' | '#FFFFFF' {
  const luminance = relativeLuminance(background);
  const onWhite = 1.05 / (luminance + 0.05);
  const onBlack = (luminance + 0.05) / 0.05;
  return onBlack > onWhite ? '#000000' : '#FFFFFF';
}
