import { describe, expect, it } from 'vitest';
import {
  freshId,
  optionCombinations,
  optionTypeOf,
  productStockOf,
  toSlug,
  variantName,
} from './catalogue-product.ts';

describe('optionCombinations', () => {
  it('crosses the values, the first option slowest', () => {
    expect(
      optionCombinations([
        ['S', 'M'],
        ['Red', 'Blue'],
      ]),
    ).toEqual([
      ['S', 'Red'],
      ['S', 'Blue'],
      ['M', 'Red'],
      ['M', 'Blue'],
    ]);
    expect(optionCombinations([['One']])).toEqual([['One']]);
    expect(optionCombinations([])).toEqual([]);
  });
});

describe('productStockOf', () => {
  const variant = (stock: number | null) => ({
    uid: 'v',
    name: 'v',
    sku: '',
    prices: {},
    stock,
    options: [],
  });
  it('sums the variants, null when one is not stock-managed', () => {
    expect(productStockOf({ stock: 99, variants: [variant(2), variant(3)] })).toBe(5);
    expect(productStockOf({ stock: 99, variants: [variant(2), variant(null)] })).toBeNull();
    expect(productStockOf({ stock: 7, variants: [] })).toBe(7);
  });
});

describe('names and ids', () => {
  it('knows option kinds in our languages', () => {
    expect(optionTypeOf('Colour')).toBe('color');
    expect(optionTypeOf('Størrelse')).toBe('size');
    expect(optionTypeOf('Material Type')).toBe('material-type');
  });
  it('slugs and names', () => {
    expect(toSlug('Blå Sweater — Ø 2')).toBe('bla-sweater-o-2');
    expect(variantName(['Sand', 'M'])).toBe('Sand / M');
  });
  it('makes fresh ids', () => {
    const used = new Set(['size']);
    expect(freshId('size', used)).toBe('size-2');
    expect(freshId('size', used)).toBe('size-3');
    expect(freshId('', used)).toBe('id');
  });
});
