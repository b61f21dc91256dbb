import { type CheckoutReservationDoc, LiveQueryParams, type PurchaseDoc } from '@vitrine/protocol';
import type { Queryable } from '../../db/database.ts';
import { everyone, type LiveQueryCatalogue, onlyTheUser } from '../../realtime/live-query.ts';

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
        const rows = await db.query<{ data: Partial<CheckoutReservationDoc> }>(
          'SELECT data FROM checkout_reservations WHERE page_uid = $1 AND campaign_uid = $2 AND user_uid = $3',
          [pageUid, campaignUid, userUid],
        );
        return rows.map((row) => {
          const doc: CheckoutReservationDoc = {
            reservations: [],
            totalPrice: 0,
            ...row.data,
            pageUid,
            campaignUid,
            userUid,
          };
          return { docId: userUid, doc };
        });
      },
    },
    purchases: {
      params: LiveQueryParams.purchases,
      authorize: everyone,
      topic: ({ pageUid, campaignUid }) => checkoutTopics.purchases(pageUid, campaignUid),
      // "time after now": viewers see purchases made while they watch.
      snapshot: async ({ pageUid, campaignUid }) => {
        const rows = await db.query<{ uid: string; product_uid: string; buyer_name: string; time: number }>(
          'SELECT uid, product_uid, buyer_name, time FROM purchases WHERE page_uid = $1 AND campaign_uid = $2 AND time > $3 ORDER BY time',
          [pageUid, campaignUid, now()],
        );
        return rows.map((row) => {
          const doc: PurchaseDoc = {
            uid: row.uid,
            pageUid,
            campaignUid,
            productUid: row.product_uid,
            buyerName: row.buyer_name,
            time: row.time,
          };
          return { docId: row.uid, doc };
        });
      },
    },
  };
}
