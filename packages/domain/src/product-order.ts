import { type CuedProduct, type CueTimingRecord, productTimeline } from './cue-timing.ts';

/** The fields of an event product (spec §3) that decide its place in the product list. */
export interface OrderableProduct extends CuedProduct {
  sorting: number;
  showAllProductsWhenEventStarts: boolean;
}

/**
 * The product list in display order (spec §4 "Product timing and order"): by the earliest
 * upcoming cue, ties by `sorting`. A product's key is the start of its earliest window (in video
 * seconds, open windows lasting until the next window of any product starts) that has not ended
 * by `currentTimeSec`, so a product being presented now keeps its (past) start and leads the
 * list. Products without such a window (never cued, or all windows over) follow, by `sorting`.
 * When any product carries showAllProductsWhenEventStarts (an event-level flag copied onto each
 * event product), the whole list is ordered by `sorting` alone. Stable; returns a new array.
 */
export function orderProducts<T extends OrderableProduct>(
  products: readonly T[],
  record: CueTimingRecord,
  currentTimeSec: number,
): T[] {
  const keys: (number | null)[] = products.map(() => null);
  if (!products.some((product) => product.showAllProductsWhenEventStarts)) {
    for (const entry of productTimeline(products, record)) {
      const key = keys[entry.index];
      if (entry.end > currentTimeSec && (key === null || key === undefined || entry.start < key)) {
        keys[entry.index] = entry.start;
      }
    }
  }
  return products
    .map((product, index) => ({ product, index, key: keys[index] ?? null }))
    .sort((a, b) => {
      if (a.key !== b.key) {
        if (a.key === null) return 1;
        if (b.key === null) return -1;
        return a.key - b.key;
      }
      return a.product.sorting - b.product.sorting || a.index - b.index;
    })
    .map(({ product }) => product);
}
