import type { Queryable } from '../../db/database.ts';
import type { Publish } from '../../realtime/publisher.ts';
import { readReservationDoc } from './checkout-records.ts';
import { checkoutTopics } from './live-queries.ts';

/**
 * Tells a shopper's open tabs (the `checkout` live query) that their reservation changed.
 *
 * Called after the change committed. Announcements of one shopper run one after another and each
 * reads the stored document when its turn comes, so the last announcement always carries the
 * latest committed state even when two changes commit in one order and announce in the other.
 */
export function createReservationPublisher(db: Queryable, publish: Publish) {
  const queues = new Map<string, Promise<void>>();

  function announce(pageUid: string, campaignUid: string, userUid: string): Promise<void> {
    const topic = checkoutTopics.reservation(pageUid, campaignUid, userUid);
    const previous = queues.get(topic) ?? Promise.resolve();
    const next = previous.then(async () => {
      const doc = await readReservationDoc(db, pageUid, campaignUid, userUid);
      await publish(topic, [{ type: 'modified', docId: userUid, doc }]);
    });
    // A failed read must not stall the shopper's later announcements.
    const settled = next.catch(() => undefined);
    queues.set(topic, settled);
    void settled.then(() => {
      if (queues.get(topic) === settled) queues.delete(topic);
    });
    return next;
  }

  return {
    announce,
    /** Resolves when every announcement under way has finished (used before closing the database). */
    async idle(): Promise<void> {
      await Promise.all([...queues.values()]);
    },
  };
}

export type ReservationPublisher = ReturnType<typeof createReservationPublisher>;
