import type { LiveEvent, OnsiteEventUpdateDoc } from '@vitrine/protocol';
import { useEffect, useRef } from 'react';
import { useLiveQuery } from '../../lib/realtime/use-live-query.ts';
import { storeIdBatches } from './store-id-batches.ts';

/**
 * Follows the live updates of the shows of the host's active stores (set_active_store_ids):
 * one onsiteEventUpdates subscription per batch of store ids (the server sends those after now,
 * newest first, at most 50). `onUpdate` gets each updated show once, oldest update first.
 */
export function OnsiteEventUpdates({
  storeIds,
  onUpdate,
}: {
  storeIds: readonly string[];
  onUpdate(event: LiveEvent): void;
}) {
  return (
    <>
      {storeIdBatches(storeIds).map((batch) => (
        <UpdatesOfBatch key={batch.join(' ')} storeIds={batch} onUpdate={onUpdate} />
      ))}
    </>
  );
}

function UpdatesOfBatch({ storeIds, onUpdate }: { storeIds: string[]; onUpdate(event: LiveEvent): void }) {
  const updates = useLiveQuery('onsiteEventUpdates', { storeIds });
  const seen = useRef(new Set<string>());
  const latest = useRef(onUpdate);
  latest.current = onUpdate;
  useEffect(() => {
    const fresh: OnsiteEventUpdateDoc[] = updates.docs.filter((doc) => !seen.current.has(doc.uid));
    for (const doc of fresh.sort((a, b) => a.time - b.time)) {
      seen.current.add(doc.uid);
      latest.current(doc.updatedEvent);
    }
  }, [updates.docs]);
  return null;
}
