import { carrierName } from '@vitrine/domain';
import type { OrderFulfilment } from '@vitrine/protocol';
import type { FulfilmentStatus } from '@vitrine/protocol/vocabulary';
import type { Queryable } from '../../db/database.ts';

/** A row of `order_fulfilment`: an order past "sent to packing". */
export interface FulfilmentRow {
  checkout_uid: string;
  status: Exclude<FulfilmentStatus, 'packing'>;
  packed_at: number | null;
  shipped_at: number | null;
  delivered_at: number | null;
  carrier: string | null;
  tracking_number: string | null;
  tracking_url: string | null;
  updated_at: number;
}

export async function fulfilmentOf(q: Queryable, checkoutUid: string): Promise<FulfilmentRow | undefined> {
  const [row] = await q.query<FulfilmentRow>('SELECT * FROM order_fulfilment WHERE checkout_uid = $1', [
    checkoutUid,
  ]);
  return row;
}

/** The statuses of orders past packing, by checkout (orders without a row are absent). */
export async function fulfilmentStatuses(
  q: Queryable,
  checkoutUids: readonly string[],
): Promise<Map<string, FulfilmentRow['status']>> {
  if (checkoutUids.length === 0) return new Map();
  const rows = await q.query<{ checkout_uid: string; status: FulfilmentRow['status'] }>(
    'SELECT checkout_uid, status FROM order_fulfilment WHERE checkout_uid = ANY($1::text[])',
    [checkoutUids],
  );
  return new Map(rows.map((row) => [row.checkout_uid, row.status]));
}

export async function saveFulfilment(q: Queryable, row: FulfilmentRow): Promise<void> {
  await q.query(
    `INSERT INTO order_fulfilment (checkout_uid, status, packed_at, shipped_at, delivered_at, carrier,
       tracking_number, tracking_url, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (checkout_uid) DO UPDATE SET status = $2, packed_at = $3, shipped_at = $4, delivered_at = $5,
       carrier = $6, tracking_number = $7, tracking_url = $8, updated_at = $9`,
    [
      row.checkout_uid,
      row.status,
      row.packed_at,
      row.shipped_at,
      row.delivered_at,
      row.carrier,
      row.tracking_number,
      row.tracking_url,
      row.updated_at,
    ],
  );
}

/** The fulfilment as the order pages show it: null for an order not sent to packing. */
export function toFulfilment(locked: boolean, row: FulfilmentRow | undefined): OrderFulfilment | null {
  if (!locked) return null;
  const at = (value: number | null) => (value === null ? null : Number(value));
  return {
    status: row?.status ?? 'packing',
    packedAt: at(row?.packed_at ?? null),
    shippedAt: at(row?.shipped_at ?? null),
    deliveredAt: at(row?.delivered_at ?? null),
    carrier: row?.carrier ?? null,
    carrierName: row?.carrier ? carrierName(row.carrier) : null,
    trackingNumber: row?.tracking_number ?? null,
    trackingUrl: row?.tracking_url ?? null,
  };
}
