/**
 * Lookups by key asked for while the event loop handles one round of input (for example every
 * add-to-cart request that arrived together) share one statement: keys collect until
 * `setImmediate`, then `fetch` reads them all at once. A lookup's statement is always sent after
 * it was asked for, so it sees everything committed before (a revoked sign-in, a price change);
 * batching only saves round trips.
 */
export function createBatchedLookup<V>(
  fetch: (keys: readonly string[]) => Promise<ReadonlyMap<string, V>>,
  /** At most this many keys per statement; more start another batch. */
  maxKeys = 500,
): (key: string) => Promise<V | undefined> {
  let pending: Map<
    string,
    { resolve: (value: V | undefined) => void; reject: (error: unknown) => void }[]
  > | null = null;

  function flush(batch: NonNullable<typeof pending>) {
    fetch([...batch.keys()]).then(
      (found) => {
        for (const [key, waiters] of batch) for (const waiter of waiters) waiter.resolve(found.get(key));
      },
      (error: unknown) => {
        for (const waiters of batch.values()) for (const waiter of waiters) waiter.reject(error);
      },
    );
  }

  return (key) =>
    new Promise<V | undefined>((resolve, reject) => {
      if (pending === null || pending.size >= maxKeys) {
        const batch = new Map<
          string,
          { resolve: (value: V | undefined) => void; reject: (error: unknown) => void }[]
        >();
        pending = batch;
        setImmediate(() => {
          if (pending === batch) pending = null;
          flush(batch);
        });
      }
      const waiters = pending.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else pending.set(key, [{ resolve, reject }]);
    });
}
