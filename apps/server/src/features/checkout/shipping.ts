import {
  type CheckoutDetails,
  DELIVERY_COUNTRIES,
  type DeliveryCountry,
  type ParcelShop,
  type PickupLocation,
  type ShippingMethod,
  type ShippingMethodKind,
} from '@vitrine/protocol';
import { type Currency, SHIPPING_METHOD_KINDS } from '@vitrine/protocol/vocabulary';

/**
 * The built-in shipping offer of every store: home delivery, pickup in the store, and delivery to
 * a parcel shop (service point) near the address. Freight is set per currency in minor units, as
 * shops price it, not converted.
 */
const FREIGHT: Record<ShippingMethodKind, Record<Currency, number>> = {
  home_delivery: { DKK: 4_900, SEK: 6_900, NOK: 6_900, EUR: 695, PLN: 2_900, GBP: 595 },
  parcel_shop: { DKK: 3_900, SEK: 4_900, NOK: 4_900, EUR: 495, PLN: 1_900, GBP: 395 },
  store_pickup: { DKK: 0, SEK: 0, NOK: 0, EUR: 0, PLN: 0, GBP: 0 },
};

/**
 * The store's shipping offer in a currency. `freeOver` is the store's free-delivery threshold in
 * that currency (minor units, null for none): it applies to every method that costs something.
 */
export function shippingMethods(currency: Currency, freeOver: number | null = null): ShippingMethod[] {
  return SHIPPING_METHOD_KINDS.map((kind) => {
    const price = FREIGHT[kind][currency];
    return { kind, price, currency, freeOver: price > 0 ? freeOver : null };
  });
}

/**
 * Freight of the chosen method in the checkout's currency: 0 until one is chosen, and 0 once the
 * order's subtotal reaches the store's free-delivery threshold for that currency (`freeOver`).
 */
export function freightFor(
  details: Pick<CheckoutDetails, 'shippingMethod'>,
  currency: Currency,
  order: { subtotal: number; freeOver: number | null },
): number {
  if (details.shippingMethod === null) return 0;
  if (order.freeOver !== null && order.subtotal >= order.freeOver) return 0;
  return FREIGHT[details.shippingMethod][currency];
}

export const deliveryCountries = (): DeliveryCountry[] => [...DELIVERY_COUNTRIES];

/** The store itself is the pickup location: its shop name at its street address (from the store info). */
export function pickupLocations(store: {
  uid: string;
  name: string;
  address: { street: string; postCode: string; city: string };
}): PickupLocation[] {
  return [
    {
      uid: `${store.uid}-store`,
      name: store.name,
      address: store.address.street,
      postCode: store.address.postCode,
      city: store.address.city,
    },
  ];
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
