import { describe, expect, it } from 'vitest';
import { formatMoney, minorUnitDigits, priceFor } from './money.ts';

/** Intl may use U+00A0 / U+202F between number and symbol; compare with plain spaces. */
function normalise(text: string): string {
  return text.replace(/\s+/gu, ' ');
}

describe('minorUnitDigits', () => {
  it('is 2 for the supported currencies DKK, SEK, NOK, PLN, EUR and GBP (spec §9 "Amounts are formatted as a value with currency")', () => {
    for (const currency of ['DKK', 'SEK', 'NOK', 'PLN', 'EUR', 'GBP']) {
      expect(minorUnitDigits(currency)).toBe(2);
    }
  });

  it('is 0 for zero-digit currencies such as KRW (spec §9 "Amounts are formatted as a value with currency")', () => {
    expect(minorUnitDigits('KRW')).toBe(0);
    expect(minorUnitDigits('JPY')).toBe(0);
  });
});

describe('formatMoney', () => {
  it('formats 14900 minor units of DKK in \'en\' as "DKK 149.00" (spec §9 "value with currency", §1 English uses DKK)', () => {
    expect(normalise(formatMoney(14900, 'DKK', 'en'))).toBe('DKK 149.00');
  });

  it('formats 14900 minor units of DKK in \'da\' as "149,00 kr." (spec §9 "value with currency")', () => {
    expect(normalise(formatMoney(14900, 'DKK', 'da'))).toBe('149,00 kr.');
  });

  it('formats DKK in \'da\' with a thousands separator and two decimals: 123450 → "1.234,50 kr." (spec §9)', () => {
    expect(normalise(formatMoney(123450, 'DKK', 'da'))).toBe('1.234,50 kr.');
  });

  it('formats 1234567 minor units of EUR in \'de\' as "12.345,67 €" (spec §9 "value with currency")', () => {
    expect(normalise(formatMoney(1234567, 'EUR', 'de'))).toBe('12.345,67 €');
  });

  it('formats zero as a value with currency (spec §9 "value with currency")', () => {
    expect(normalise(formatMoney(0, 'DKK', 'da'))).toBe('0,00 kr.');
  });

  it('divides by 100 for two-digit currencies: 1 minor unit is 0.01 (spec §9 "value with currency")', () => {
    expect(normalise(formatMoney(1, 'EUR', 'de'))).toBe('0,01 €');
  });

  it("does not divide zero-digit currencies: 14900 KRW is ₩14,900 in 'ko' (spec §9, minorUnitDigits('KRW') === 0)", () => {
    expect(minorUnitDigits('KRW')).toBe(0);
    expect(normalise(formatMoney(14900, 'KRW', 'ko'))).toBe('₩14,900');
  });

  it('shows a zero-digit currency without decimals in a language that uses them for its own currency (spec §9)', () => {
    const text = normalise(formatMoney(500, 'JPY', 'de'));
    expect(text).toContain('500');
    expect(text).not.toMatch(/[,.]\d/);
  });
});

describe('priceFor', () => {
  it('uses the price in the requested currency when the product has one (spec §9 "Amounts are formatted as a value with currency")', () => {
    expect(priceFor({ DKK: 14900, SEK: 21900 }, 'SEK', 'DKK')).toEqual({ amount: 21900, currency: 'SEK' });
  });

  it('falls back to the store\'s currency when the requested one is missing (spec §5 "A currency falls back to ... the locale\'s currency")', () => {
    expect(priceFor({ DKK: 14900 }, 'EUR', 'DKK')).toEqual({ amount: 14900, currency: 'DKK' });
  });

  it('returns null when the product has neither the requested nor the store currency (spec §5 "Other rules")', () => {
    expect(priceFor({ NOK: 100 }, 'EUR', 'DKK')).toBeNull();
    expect(priceFor({}, 'EUR', 'DKK')).toBeNull();
  });

  it('keeps a price of 0 in the requested currency rather than falling back (spec §5 "Other rules")', () => {
    expect(priceFor({ EUR: 0, DKK: 14900 }, 'EUR', 'DKK')).toEqual({ amount: 0, currency: 'EUR' });
  });

  it('keeps a price of 0 in the store currency rather than returning null (spec §5 "Other rules")', () => {
    expect(priceFor({ DKK: 0 }, 'EUR', 'DKK')).toEqual({ amount: 0, currency: 'DKK' });
  });

  it('works when the requested currency is the store currency (spec §5 "Other rules")', () => {
    expect(priceFor({ DKK: 500 }, 'DKK', 'DKK')).toEqual({ amount: 500, currency: 'DKK' });
    expect(priceFor({ EUR: 500 }, 'DKK', 'DKK')).toBeNull();
  });
});
