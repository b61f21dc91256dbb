import { CURRENCY_BY_LOCALE } from './locale.ts';
import type { PriceList } from './money.ts';
import type { CheckoutStatus, Currency, Locale } from './vocabulary.ts';

/*
 * Currency shown = currency charged (issue 13 §1). The rule, end to end:
 * 1. A price is shown in the currency of the viewer's language (spec §1) when the product has a
 *    price in it, else in the store's own currency (priceFor).
 * 2. A cart is priced in the currency its products were shown in: the shopper's language
 *    currency when every line has a price in it, else the store's (cartCurrency). The server
 *    prices it from the store's price lists; it never converts amounts.
 * 3. While it is an open cart, a change of language reprices it in the new currency (when every
 *    line has a price there); the web saves the shopper's language and currency as their
 *    reservation (spec §3 Reservation) whenever they shop, so the server knows what was shown.
 * 4. A placed order keeps its currency: its payments were, or are being, made in it. A screen
 *    that shows prices in another currency than the order's says which currency the order is in
 *    (orderCurrencyNotice).
 */

/** The currency prices are shown in for a language (spec §1). */
export const shownCurrency = (locale: Locale): Currency => CURRENCY_BY_LOCALE[locale];

/**
 * The currency a cart with these lines' price lists is charged in, for a shopper shown
 * `shown`: that one when every line has a price in it, else the store's own when every line has
 * one there, else null (the lines share neither; the cart keeps the currency it has).
 */
export function cartCurrency(
  lines: readonly PriceList[],
  shown: Currency,
  storeCurrency: Currency,
): Currency | null {
  if (lines.every((prices) => prices[shown] !== undefined)) return shown;
  if (lines.every((prices) => prices[storeCurrency] !== undefined)) return storeCurrency;
  return null;
}

/** Whether an open cart in `current` moves to `target` (rule 3); orders never move (rule 4). */
export const repricesTo = (status: CheckoutStatus, current: Currency, target: Currency | null) =>
  status === 'open' && target !== null && target !== current;

/**
 * The currency to name next to an order's amounts: the order's own when the shopper is shown
 * another one (a language switched after ordering), else null (nothing to explain).
 */
export const orderCurrencyNotice = (orderCurrency: Currency, shown: Currency): Currency | null =>
  orderCurrency === shown ? null : orderCurrency;
