import { minorUnitDigits, type PriceList } from './money.ts';
import type { Currency } from './vocabulary.ts';

/**
 * Host product data (spec §3 "Host product data") laid over the catalogue's product: the host
 * page knows its user's name for the product, price and images, so they replace the catalogue's.
 */

/** The fields of the host's product data this rule reads (see `HostProductData` in the protocol). */
export interface HostProductFacts {
  name?: string | undefined;
  /** The user's price in the host shop's currency, in major units (149.95), as shops state it. */
  price?: number | undefined;
  images?: readonly string[] | undefined;
  url?: string | null | undefined;
  variants?: readonly { id: string; price: number }[] | undefined;
}

/** The fields of a catalogue product the host data replaces. */
export interface OverlayableProduct {
  name: string;
  images: readonly string[];
  url: string | null;
  prices: PriceList;
  variants: readonly { uid: string; prices: PriceList }[];
}

/** Major units (149.95) to the integer minor units the product keeps prices in (14995). */
export function majorToMinorUnits(amount: number, currency: Currency): number {
  return Math.round(amount * 10 ** minorUnitDigits(currency));
}

/**
 * Whether a link or image address from the host may be used: absolute http(s) only, so host data
 * cannot smuggle in javascript: or data: addresses (spec §5 "Unexpected … data … is ignored").
 */
export function isWebUrl(value: string): boolean {
  return /^https?:\/\/[^\s/?#]+[^\s]*$/i.test(value);
}

/** Whether the host data carries the user's own price (input `userPriceKnown` of `productDisplayMode`). */
export function hasHostPrice(data: HostProductFacts): boolean {
  return data.price !== undefined && Number.isFinite(data.price);
}

/**
 * The product with the host's data laid over it. Blank names, empty image lists and unusable
 * addresses keep the catalogue's. A host price replaces every catalogue price with one in
 * `currency` (the store's); variants the host prices get that price, the others none, so they show
 * the product's (see `displayPrice`).
 */
export function overlayHostProductData<P extends OverlayableProduct>(
  product: P,
  data: HostProductFacts,
  currency: Currency,
): P {
  const images = (data.images ?? []).filter(isWebUrl);
  const url = data.url && isWebUrl(data.url) ? data.url : null;
  const overlaid: P = {
    ...product,
    name: data.name?.trim() ? data.name : product.name,
    images: images.length > 0 ? images : product.images,
    url: url ?? product.url,
  };
  if (!hasHostPrice(data)) return overlaid;
  const hostVariantPrices = new Map((data.variants ?? []).map((variant) => [variant.id, variant.price]));
  return {
    ...overlaid,
    prices: { [currency]: majorToMinorUnits(data.price!, currency) },
    variants: product.variants.map((variant) => {
      const price = hostVariantPrices.get(variant.uid);
      return {
        ...variant,
        prices: price === undefined ? {} : { [currency]: majorToMinorUnits(price, currency) },
      };
    }),
  };
}
