import { describe, expect, it } from 'vitest';
import { IMAGE_WIDTHS, variantWidths } from './media-limits.ts';

describe('variantWidths', () => {
  it('keeps the purpose widths of a large image', () => {
    expect(variantWidths('product', 3000)).toEqual([...IMAGE_WIDTHS.product]);
  });
  it('never upscales, and writes a small image once', () => {
    expect(variantWidths('product', 400)).toEqual([160, 400]);
    expect(variantWidths('product', 100)).toEqual([100]);
  });
});
