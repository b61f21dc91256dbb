import { describe, expect, it } from 'vitest';
import { stockSignal } from './stock-signals.ts';

describe('stockSignal', () => {
  it('is sold out at 0 units (spec §4 "Product feedback states ... sold out", §8 "Product sold out")', () => {
    expect(stockSignal(0)).toBe('sold-out');
  });

  it('is only one left at 1 unit (spec §4 "Stock signals ... Only 1 left", §9 stock booster labels)', () => {
    expect(stockSignal(1)).toBe('only-one-left');
  });

  it('is only a few left from 2 to 5 units (spec §4 "Only a few left", §9 stock booster labels)', () => {
    expect([2, 3, 4, 5].map(stockSignal)).toEqual(Array(4).fill('only-a-few-left'));
  });

  it('shows nothing from 6 units up (spec §4 "Stock signals")', () => {
    expect(stockSignal(6)).toBeNull();
    expect(stockSignal(1000)).toBeNull();
  });

  it('shows nothing when stock is not managed (spec §4 "Stock signals")', () => {
    expect(stockSignal(null)).toBeNull();
    expect(stockSignal(undefined)).toBeNull();
  });
});
