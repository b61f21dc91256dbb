import { LRUCache } from 'lru-cache';

/**
 * Files kept in memory by their size, the least recently used going first when `maxBytes` is
 * reached; a file larger than a sixteenth of it is not kept (it would push out many small ones).
 * Each holder makes its own (no cache is module-global): segments read back from the store, or
 * fetched from the media worker, never change.
 */
export function createByteCache<V extends Buffer | { bytes: Buffer }>(maxBytes: number): LRUCache<string, V> {
  return new LRUCache<string, V>({
    maxSize: maxBytes,
    maxEntrySize: maxBytes / 16,
    sizeCalculation: (value) => Math.max(1, (Buffer.isBuffer(value) ? value : value.bytes).length),
  });
}

/** At most `max` entries, the least recently used going first (answers, states and texts per show). */
export function createBoundedCache<V extends {}>(max: number): LRUCache<string, V> {
  return new LRUCache<string, V>({ max });
}
