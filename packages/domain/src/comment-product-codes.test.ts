import { describe, expect, it } from 'vitest';
import { productsMentioned } from './comment-product-codes.ts';

const products = [
  { uid: 'jacket', codes: ['JKT-001'] },
  { uid: 'mug', codes: ['MUG7', null] },
  { uid: 'blank', codes: ['', undefined] },
  { uid: 'short', codes: ['A'] },
];

describe('productsMentioned', () => {
  it('finds codes as whole words, ignoring case and punctuation around them', () => {
    expect(productsMentioned('I want #jkt-001!', products)).toEqual(['jacket']);
    expect(productsMentioned('mug7 and JKT-001, please', products)).toEqual(['jacket', 'mug']);
    expect(productsMentioned('(MUG7)', products)).toEqual(['mug']);
  });

  it('does not match inside longer words, empty codes or one-letter codes', () => {
    expect(productsMentioned('XJKT-001 JKT-0011 mug77', products)).toEqual([]);
    expect(productsMentioned('a A', products)).toEqual([]);
    expect(productsMentioned('', products)).toEqual([]);
  });
});
