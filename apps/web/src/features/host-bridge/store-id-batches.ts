import { LOOKUP_BATCH_LIMIT } from '@vitrine/domain';

/** The host's store ids in batches the onsiteEventUpdates query takes (at most 10 ids each, spec §7). */
export function storeIdBatches(storeIds: readonly string[]): string[][] {
  const unique = [...new Set(storeIds)];
  const batches: string[][] = [];
  for (let start = 0; start < unique.length; start += LOOKUP_BATCH_LIMIT)
    batches.push(unique.slice(start, start + LOOKUP_BATCH_LIMIT));
  return batches;
}
