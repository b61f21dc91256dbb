/**
 * Republishes products whose free stock changed, so viewers' "Only 1 left" / "Sold out" signals
 * follow the cart. A flash sale changes one product hundreds of times a second, so changes are
 * coalesced: one republish per product per `delayMs`.
 */
export function createStockAnnouncer(
  republish: (productUid: string) => Promise<void>,
  onError: (error: unknown) => void,
  delayMs = 300,
) {
  const pending = new Map<string, ReturnType<typeof setTimeout>>();
  const running = new Set<Promise<void>>();
  let closed = false;

  return {
    changed(productUid: string): void {
      if (closed || pending.has(productUid)) return;
      const timer = setTimeout(() => {
        pending.delete(productUid);
        const run = republish(productUid)
          .catch(onError)
          .finally(() => running.delete(run));
        running.add(run);
      }, delayMs);
      timer.unref?.();
      pending.set(productUid, timer);
    },
    /** Drops scheduled republishes and waits for running ones (before the database closes). */
    async close(): Promise<void> {
      closed = true;
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
      await Promise.all([...running]);
    },
  };
}

export type StockAnnouncer = ReturnType<typeof createStockAnnouncer>;
