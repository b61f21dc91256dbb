import { describe, expect, it } from 'vitest';
import { createBatchedLookup } from './batched-lookup.ts';

describe('createBatchedLookup', () => {
  it('reads the keys asked for together with one fetch, and later keys with another', async () => {
    const fetches: string[][] = [];
    const lookup = createBatchedLookup(async (keys) => {
      fetches.push([...keys]);
      return new Map(keys.filter((key) => key !== 'missing').map((key) => [key, key.toUpperCase()]));
    });
    expect(await Promise.all([lookup('a'), lookup('b'), lookup('a'), lookup('missing')])).toEqual([
      'A',
      'B',
      'A',
      undefined,
    ]);
    expect(fetches).toEqual([['a', 'b', 'missing']]);
    // Asked after the first statement went out: a statement of its own, sent after it was asked.
    expect(await lookup('a')).toBe('A');
    expect(fetches).toHaveLength(2);
  });

  it('splits batches at maxKeys and rejects every waiter of a failed fetch', async () => {
    const sizes: number[] = [];
    const lookup = createBatchedLookup(async (keys) => {
      sizes.push(keys.length);
      if (keys.includes('bad')) throw new Error('database down');
      return new Map(keys.map((key) => [key, key]));
    }, 2);
    await Promise.all(['a', 'b', 'c'].map((key) => lookup(key)));
    expect(sizes).toEqual([2, 1]);
    const results = await Promise.allSettled([lookup('bad'), lookup('x')]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(await lookup('x')).toBe('x');
  });
});
