import { formatDecimalPrice, formatMoney, minorUnitDigits, parseDecimalPrice } from '@vitrine/domain';
import type { Locale } from '@vitrine/protocol/vocabulary';

/** A price for a list cell, in the store's currency and the studio's language, or "–". */
export function priceText(prices: Partial<Record<string, number>>, currency: string, locale: Locale): string {
  const amount = prices[currency];
  return amount === undefined ? '–' : formatMoney(amount, currency, locale);
}

/** What a price field shows for minor units (empty for none). */
export const priceFieldText = (minorUnits: number | undefined, currency: string) =>
  minorUnits === undefined || Number.isNaN(minorUnits)
    ? ''
    : formatDecimalPrice(minorUnits, minorUnitDigits(currency));

/** Minor units of what was typed: undefined when empty, NaN when not a price (the schema says why). */
export function priceFromField(text: string, currency: string): number | undefined {
  if (text.trim() === '') return undefined;
  return parseDecimalPrice(text, minorUnitDigits(currency)) ?? Number.NaN;
}

/** A new id for an option, value or variant the studio makes: URL-safe, unique enough in a product. */
export function newLocalId(prefix: string): string {
  const random = crypto.getRandomValues(new Uint32Array(2));
  return `${prefix}-${Array.from(random, (n) => n.toString(36)).join('')}`;
}

type WithCompareAt = { compareAtPrices?: Partial<Record<string, number | undefined>> | undefined };

/**
 * A product form's values with the compare-at prices left empty taken out: an empty field is "no
 * was-price in that currency", not a price missing (the schema refuses an undefined amount).
 */
export function withoutEmptyCompareAt<T extends WithCompareAt & { variants?: WithCompareAt[] | undefined }>(
  values: T,
): T {
  const clean = (prices: WithCompareAt['compareAtPrices']) =>
    prices && Object.fromEntries(Object.entries(prices).filter(([, amount]) => amount !== undefined));
  return {
    ...values,
    compareAtPrices: clean(values.compareAtPrices),
    variants: values.variants?.map((variant) => ({
      ...variant,
      compareAtPrices: clean(variant.compareAtPrices),
    })),
  };
}
