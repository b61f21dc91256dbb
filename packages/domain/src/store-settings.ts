import {
  type Currency,
  type Locale,
  SHIPPING_METHOD_KINDS,
  type ShippingMethodKind,
} from '@vitrine/protocol/vocabulary';

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
 * The languages (or currencies) a store sells in: its chosen list with its main one first, or the
 * main one alone when it chose none (stores made before the list existed).
 */
export function soldIn<T extends Locale | Currency>(main: T, chosen: readonly T[]): T[] {
  return [main, ...chosen.filter((value) => value !== main)];
}
