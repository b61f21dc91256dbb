import { LOW_STOCK_THRESHOLD } from './constants.ts';

/** Stock labels: "Sold out", "Only 1 left", "Only a few left" (spec §4 "Orders and payment", §9 stock booster labels). */
export type StockSignal = 'sold-out' | 'only-one-left' | 'only-a-few-left';

/**
 * The stock label for a unit count: sold out at 0 (or below), only one left at 1, only a few
 * left from 2 to LOW_STOCK_THRESHOLD (5), none above that or when stock is not managed (null).
 */
export function stockSignal(stock: number | null | undefined): StockSignal | null {
  if (stock === null || stock === undefined) return null;
  if (stock <= 0) return 'sold-out';
  if (stock === 1) return 'only-one-left';
  if (stock <= LOW_STOCK_THRESHOLD) return 'only-a-few-left';
  return null;
}
