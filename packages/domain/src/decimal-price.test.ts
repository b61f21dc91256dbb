import { describe, expect, it } from 'vitest';
import { formatDecimalPrice, parseDecimalPrice } from './decimal-price.ts';

describe('parseDecimalPrice', () => {
  it.each([
    ['249.00', 24900],
    ['249', 24900],
    ['249.5', 24950],
    ['249,50', 24950],
    ['1,249.00', 124900],
    ['1.249,00', 124900],
    ['1,249', 124900],
    [' 12.30 ', 1230],
    ['0', 0],
  ])('%s → %i', (text, minor) => expect(parseDecimalPrice(text)).toBe(minor));

  it.each(['', 'abc', '-5', '12.345.6x', '1.2345', '12.', '€12', '1e5'])('refuses %j', (text) =>
    expect(parseDecimalPrice(text)).toBeNull(),
  );

  it('follows the currency digits', () => {
    expect(parseDecimalPrice('1500', 0)).toBe(1500);
    expect(parseDecimalPrice('15.5', 0)).toBeNull();
  });
});

describe('formatDecimalPrice', () => {
  it('writes minor units with a point', () => {
    expect(formatDecimalPrice(24900)).toBe('249.00');
    expect(formatDecimalPrice(5)).toBe('0.05');
    expect(formatDecimalPrice(1500, 0)).toBe('1500');
  });
  it('round-trips', () => {
    for (const minor of [0, 1, 99, 100, 123456789])
      expect(parseDecimalPrice(formatDecimalPrice(minor))).toBe(minor);
  });
});
