import { describe, expect, it } from 'vitest';
import { cartCurrency, orderCurrencyNotice, repricesTo, shownCurrency } from './currency-rules.ts';
import { priceFor } from './money.ts';

const mug = { DKK: 17_900, EUR: 2_395 };
const dkkOnly = { DKK: 54_900 };

describe('currency shown = currency charged', () => {
  it('shows each language its own currency', () => {
    expect(shownCurrency('de')).toBe('EUR');
    expect(shownCurrency('da')).toBe('DKK');
    expect(shownCurrency('sv')).toBe('SEK');
  });

  it('charges a cart in the currency its products were shown in', () => {
    // Shown in euros (priceFor gives EUR), so the cart is in euros.
    expect(priceFor(mug, 'EUR', 'DKK')?.currency).toBe('EUR');
    expect(cartCurrency([mug], 'EUR', 'DKK')).toBe('EUR');
    // A product without a euro price was shown in the store's kroner: so is the cart.
    expect(priceFor(dkkOnly, 'EUR', 'DKK')?.currency).toBe('DKK');
    expect(cartCurrency([mug, dkkOnly], 'EUR', 'DKK')).toBe('DKK');
  });

  it('has no currency for lines that share none', () => {
    expect(cartCurrency([{ EUR: 100 }, { SEK: 100 }], 'EUR', 'DKK')).toBeNull();
  });

  it('reprices open carts only, and only to a currency every line has', () => {
    expect(repricesTo('open', 'DKK', 'EUR')).toBe(true);
    expect(repricesTo('open', 'EUR', 'EUR')).toBe(false);
    expect(repricesTo('open', 'DKK', null)).toBe(false);
    expect(repricesTo('ordered', 'DKK', 'EUR')).toBe(false);
    expect(repricesTo('locked', 'DKK', 'EUR')).toBe(false);
  });

  it("names the order's currency only when the shopper is shown another", () => {
    expect(orderCurrencyNotice('DKK', 'EUR')).toBe('DKK');
    expect(orderCurrencyNotice('EUR', 'EUR')).toBeNull();
  });
});
