import { INTL_TAG_BY_LOCALE } from './locale.ts';
import type { Currency, Locale } from './vocabulary.ts';

/** Prices are integer minor units (øre, cents) per currency; a product may be priced in several. */
export type PriceList = Partial<Record<Currency, number>>;

/** Minor-unit digits of a currency as Intl knows them (2 for DKK/EUR, 0 for KRW). */
export function minorUnitDigits(currency: string): number {
  return (
    new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2
  );
}

/** Formats integer minor units as a value with currency in the viewer's language, e.g. 14900 DKK → "149,00 kr.". */
export function formatMoney(minorUnits: number, currency: string, locale: Locale): string {
  const digits = minorUnitDigits(currency);
  return new Intl.NumberFormat(INTL_TAG_BY_LOCALE[locale], { style: 'currency', currency }).format(
    minorUnits / 10 ** digits,
  );
}

/**
 * The price to show in `currency`, or in the store's own currency when the product has no
 * price in the requested one; null when it has neither.
 */
export function priceFor(
  prices: PriceList,
  currency: Currency,
  storeCurrency: Currency,
): { amount: number; currency: Currency } | null {
  const own = prices[currency];
  if (own !== undefined) return { amount: own, currency };
  const fallback = prices[storeCurrency];
  return fallback === undefined ? null : { amount: fallback, currency: storeCurrency };
}
