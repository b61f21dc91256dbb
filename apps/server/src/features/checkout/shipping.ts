import {
  type CheckoutDetails,
  DELIVERY_COUNTRIES,
  type DeliveryCountry,
  type ParcelShop,
  type PickupLocation,
  type PickupStore,
  type ShippingMethod,
} from '@vitrine/protocol';
import { type Currency, SHIPPING_METHOD_KINDS } from '@vitrine/protocol/vocabulary';
import type { DeliveryTerms } from '../stores/store-service.ts';

/**
 * The store's shipping offer in a currency (its delivery terms, see deliveryTerms): the methods
 * it offers there. The free-delivery threshold applies to every method that costs something.
 */
export function shippingMethods(currency: Currency, terms: DeliveryTerms): ShippingMethod[] {
  return SHIPPING_METHOD_KINDS.flatMap((kind) => {
    const price = terms.freight[kind];
    if (price === undefined) return [];
    return [{ kind, price, currency, freeOver: price > 0 ? terms.freeOver : null }];
  });
}

/**
 * Freight of the chosen method: 0 until one is chosen, and 0 once the order's subtotal reaches
 * the store's free-delivery threshold. A method the store stopped offering after it was chosen
 * costs nothing rather than a price the store no longer states (updateDetails refuses new ones).
 */
export function freightFor(
  details: Pick<CheckoutDetails, 'shippingMethod'>,
  terms: DeliveryTerms,
  subtotal: number,
): number {
  if (details.shippingMethod === null) return 0;
  if (terms.freeOver !== null && subtotal >= terms.freeOver) return 0;
  return terms.freight[details.shippingMethod] ?? 0;
}

export const deliveryCountries = (): DeliveryCountry[] => [...DELIVERY_COUNTRIES];

/** The store's pickup stores as checkout lists them (the stores service falls back to the store itself). */
export function pickupLocations(stores: readonly Required<PickupStore>[]): PickupLocation[] {
  return stores.map((store) => ({
    uid: store.uid,
    name: store.name,
    address: store.street,
    postCode: store.postCode,
    city: store.city,
    openingHours: store.openingHours,
  }));
}

/**
 * The built-in parcel-shop lookup: three service points per post code. A post code without
 * digits, or of zeros only ("0000"), has none — the way to see "No parcel shop was found on the
 * address…" in the demo and tests.
 */
export function findParcelShops(query: {
  country: DeliveryCountry;
  postCode: string;
  city: string;
}): ParcelShop[] {
  const postCode = query.postCode.trim().toUpperCase();
  if (!/[0-9]/.test(postCode) || /^[0\s-]+$/.test(postCode)) return [];
  const city = query.city.trim();
  const names = ['Corner kiosk', 'Supermarket service desk', 'Petrol station'];
  return names.map((name, index) => ({
    id: `ps-${query.country}-${postCode.replace(/[^0-9A-Z]/g, '')}-${index + 1}`,
    name: `${name} ${postCode}`,
    address: `${['Stationsvej', 'Torvet', 'Ringvejen'][index]} ${index * 7 + 3}`,
    postCode,
    city,
    country: query.country,
  }));
}

/**
 * The parcel shop an id names (ids carry country, post code and place in the list), with its
 * address, so the confirmation and the order can name it; null for an id the lookup never gives.
 */
export function parcelShopById(id: string | null, city: string): ParcelShop | null {
  const match = id === null ? null : /^ps-([A-Z]{2})-([0-9A-Z]+)-([1-3])$/.exec(id);
  if (!match) return null;
  const country = DELIVERY_COUNTRIES.find((candidate) => candidate === match[1]);
  if (!country) return null;
  return findParcelShops({ country, postCode: match[2] ?? '', city }).find((shop) => shop.id === id) ?? null;
}

/** Whether a parcel shop id is one the lookup gives for this country (ids carry country and post code). */
export const isKnownParcelShop = (id: string, country: DeliveryCountry | null) =>
  country !== null && new RegExp(`^ps-${country}-[0-9A-Z]+-[1-3]$`).test(id);
