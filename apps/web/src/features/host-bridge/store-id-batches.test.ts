import { describe, expect, it } from 'vitest';
import { storeIdBatches } from './store-id-batches.ts';

describe('storeIdBatches', () => {
  it('splits the host store ids into batches of at most 10, each id once', () => {
    const ids = Array.from({ length: 23 }, (_, index) => `store-${index}`);
    const batches = storeIdBatches([...ids, 'store-3']);
    expect(batches.map((batch) => batch.length)).toEqual([10, 10, 3]);
    expect(batches.flat()).toEqual(ids);
  });

  it('has no batch for no stores', () => {
    expect(storeIdBatches([])).toEqual([]);
  });
});
