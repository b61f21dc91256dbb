import { type CheckoutReservationDoc, LiveQueryParams } from '@vitrine/protocol';
import type { Queryable } from '../../db/database.ts';
import { everyone, type LiveQueryCatalogue, onlyTheUser } from '../../realtime/live-query.ts';
import { purchasesAfter, readStoredReservation } from './checkout-store.ts';

export const checkoutTopics = {
  reservation: (pageUid: string, campaignUid: string, userUid: string) =>
    `checkout:${pageUid}:${campaignUid}:${userUid}`,
  purchases: (pageUid: string, campaignUid: string) => `purchases:${pageUid}:${campaignUid}`,
};

export function checkoutLiveQueries(
  db: Queryable,
  now: () => number,
): Pick<LiveQueryCatalogue, 'checkout' | 'purchases'> {
  return {
    checkout: {
      params: LiveQueryParams.checkout,
      authorize: onlyTheUser,
      topic: ({ pageUid, campaignUid, userUid }) => checkoutTopics.reservation(pageUid, campaignUid, userUid),
      snapshot: async ({ pageUid, campaignUid, userUid }) => {
        const data = await readStoredReservation(db, { pageUid, campaignUid, userUid });
        if (!data) return [];
        const doc: CheckoutReservationDoc = {
          reservations: [],
          totalPrice: 0,
          ...data,
          pageUid,
          campaignUid,
          userUid,
        };
        return [{ docId: userUid, doc }];
      },
    },
    purchases: {
      params: LiveQueryParams.purchases,
      authorize: everyone,
      topic: ({ pageUid, campaignUid }) => checkoutTopics.purchases(pageUid, campaignUid),
      // "time after now": viewers see purchases made while they watch.
      snapshot: async ({ pageUid, campaignUid }) => {
        const purchases = await purchasesAfter(db, pageUid, campaignUid, now());
        return purchases.map((doc) => ({ docId: doc.uid, doc }));
      },
    },
  };
}
