import type { EventProduct } from '@vitrine/protocol';
import { describe, expect, it } from 'vitest';
import { commentAddName, hostCartOutcome, productsInComment } from './comment-codes.ts';

/** The fields of an event product the codes are read from; the rest plays no part. */
function eventProduct(
  uid: string,
  sku: string,
  variants: Array<{ uid: string; sku: string }> = [],
): EventProduct {
  return { uid, sku, product: { sku, variants } } as unknown as EventProduct;
}

const mug = eventProduct('mug', 'NL-CM');
const board = eventProduct('board', 'NL-OB', [
  { uid: 'small', sku: 'NL-OB-S' },
  { uid: 'large', sku: 'NL-OB-L' },
]);
const noCode = eventProduct('vase', '');
const products = [mug, board, noCode];

const added = (text: string) =>
  productsInComment(text, products).map((add) => `${add.product.uid}:${add.variantUid ?? '-'}`);

describe('productsInComment', () => {
  it('finds a product by its SKU, in any case, as a whole word', () => {
    expect(added('I want nl-cm please')).toEqual(['mug:-']);
    expect(added('#NL-CM!')).toEqual(['mug:-']);
    expect(added('NL-CMX and XNL-CM')).toEqual([]);
  });

  it('picks the variant whose SKU is named, instead of the bare product', () => {
    expect(added('NL-OB-L')).toEqual(['board:large']);
    expect(added('NL-OB and NL-OB-S')).toEqual(['board:small']);
  });

  it('adds a product with variants named by its own code without a variant (the cart answers variant missing)', () => {
    expect(added('nl-ob')).toEqual(['board:-']);
  });

  it('ignores products without a code and comments without one', () => {
    expect(added('')).toEqual([]);
    expect(added('lovely vase')).toEqual([]);
  });
});

describe('hostCartOutcome', () => {
  const open = { canPurchase: true, salable: true };
  it('gives the host what its button would, and the button’s reasons otherwise', () => {
    expect(hostCartOutcome({ product: mug, variantUid: null }, open)).toBe('added');
    expect(hostCartOutcome({ product: board, variantUid: 'large' }, open)).toBe('added');
    expect(hostCartOutcome({ product: board, variantUid: null }, open)).toBe('variantMissing');
    expect(hostCartOutcome({ product: mug, variantUid: null }, { ...open, salable: false })).toBe('soldOut');
    expect(hostCartOutcome({ product: mug, variantUid: null }, { ...open, canPurchase: false })).toBe(
      'expired',
    );
  });
});

describe('commentAddName', () => {
  it('names the variant a comment picked', () => {
    const named = eventProduct('scarf', 'NL-WS', [{ uid: 'oat', sku: 'NL-WS-OAT' }]);
    (named.product as { name: string }).name = 'Wool scarf';
    (named.product.variants[0] as { name: string }).name = 'Oat';
    expect(commentAddName({ product: named, variantUid: 'oat' })).toBe('Wool scarf · Oat');
    expect(commentAddName({ product: named, variantUid: null })).toBe('Wool scarf');
  });
});
