import type { StudioOrderFilters } from '@vitrine/protocol';
import type { Queryable } from '../../db/database.ts';
import type { CheckoutRow, LineRow } from './checkout-store.ts';

// The SQL of the studio's order screens (list, search, export, refunds, timeline) on the checkout
// feature's tables; order_refunds is the checkout feature's too (migration 0015).

/** An order as the list shows it: its checkout row with its lines summed. */
export interface OrderListRow extends CheckoutRow {
  subtotal: number;
  item_count: number;
}

/** Where a page of orders ended: the last order's time and uid (the list's sort key). */
export interface OrderCursor {
  orderedAt: number;
  uid: string;
}

/** `%` and `_` typed in a search are meant literally. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/**
 * The store's orders (checkouts with an order number) matching the filters, newest first, after
 * `cursor`; at most `limit`. Keyset paging on (ordered_at, uid) keeps every page an index range
 * scan (checkouts_store_orders_idx / checkouts_campaign_orders_idx), however deep.
 */
export async function listOrders(
  q: Queryable,
  pageUid: string,
  filters: StudioOrderFilters,
  page: { cursor: OrderCursor | null; limit: number },
): Promise<OrderListRow[]> {
  const params: unknown[] = [pageUid];
  const where = ['c.page_uid = $1', 'c.order_number IS NOT NULL'];
  const add = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (filters.campaignUid) where.push(`c.campaign_uid = ${add(filters.campaignUid)}`);
  if (filters.status) where.push(`c.status = ${add(filters.status)}`);
  if (filters.paid !== undefined) where.push(`c.payed = ${add(filters.paid)}`);
  if (filters.from !== undefined) where.push(`c.ordered_at >= ${add(filters.from)}`);
  if (filters.to !== undefined) where.push(`c.ordered_at < ${add(filters.to)}`);
  const search = filters.q?.trim();
  if (search) {
    // Digits alone are an order number (a unique index); other text is part of a name or e-mail.
    const number = /^#?(\d{1,15})$/.exec(search)?.[1];
    if (number) where.push(`c.order_number = ${add(Number(number))}`);
    else {
      const pattern = add(likePattern(search));
      where.push(
        `(c.details->'address'->>'name' ILIKE ${pattern} OR c.details->'address'->>'emailAddress' ILIKE ${pattern})`,
      );
    }
  }
  if (page.cursor) {
    where.push(`(c.ordered_at, c.uid) < (${add(page.cursor.orderedAt)}::bigint, ${add(page.cursor.uid)})`);
  }
  return q.query<OrderListRow>(
    `SELECT c.*,
       COALESCE((SELECT SUM(l.qty * l.unit_price) FROM checkout_lines l WHERE l.checkout_uid = c.uid), 0)::bigint AS subtotal,
       COALESCE((SELECT SUM(l.qty) FROM checkout_lines l WHERE l.checkout_uid = c.uid), 0)::bigint AS item_count
     FROM checkouts c WHERE ${where.join(' AND ')}
     ORDER BY c.ordered_at DESC, c.uid DESC LIMIT ${add(page.limit)}`,
    params,
  );
}

/** The lines of several checkouts (an export batch), in each checkout's order. */
export async function linesOf(q: Queryable, checkoutUids: readonly string[]): Promise<LineRow[]> {
  if (checkoutUids.length === 0) return [];
  return q.query<LineRow>(
    `SELECT * FROM checkout_lines WHERE checkout_uid = ANY($1::text[])
     ORDER BY checkout_uid, added_at, product_uid, variant_uid`,
    [[...checkoutUids]],
  );
}

/** The campaigns the store has orders in. */
export async function orderCampaigns(q: Queryable, pageUid: string): Promise<string[]> {
  const rows = await q.query<{ campaign_uid: string }>(
    'SELECT DISTINCT campaign_uid FROM checkouts WHERE page_uid = $1 AND order_number IS NOT NULL',
    [pageUid],
  );
  return rows.map((row) => row.campaign_uid);
}

/** A store's order by uid (a cart, or another store's order, is not found). */
export async function storeOrder(
  q: Queryable,
  pageUid: string,
  checkoutUid: string,
  lock = false,
): Promise<CheckoutRow | undefined> {
  const [row] = await q.query<CheckoutRow>(
    `SELECT * FROM checkouts WHERE uid = $1 AND page_uid = $2 AND order_number IS NOT NULL${lock ? ' FOR UPDATE' : ''}`,
    [checkoutUid, pageUid],
  );
  return row;
}

/** A row of `order_refunds`. */
export interface RefundRow {
  uid: string;
  checkout_uid: string;
  transaction_uid: string;
  request_key: string;
  amount: number;
  currency: string;
  status: 'requested' | 'failed';
  error: string | null;
  requested_by: string | null;
  created_at: number;
}

export async function refundsOf(q: Queryable, checkoutUid: string): Promise<RefundRow[]> {
  return q.query<RefundRow>('SELECT * FROM order_refunds WHERE checkout_uid = $1 ORDER BY created_at, uid', [
    checkoutUid,
  ]);
}

export async function insertRefund(q: Queryable, refund: Omit<RefundRow, 'status' | 'error'>): Promise<void> {
  await q.query(
    `INSERT INTO order_refunds (uid, checkout_uid, transaction_uid, request_key, amount, currency, status,
       requested_by, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, 'requested', $7, $8)`,
    [
      refund.uid,
      refund.checkout_uid,
      refund.transaction_uid,
      refund.request_key,
      refund.amount,
      refund.currency,
      refund.requested_by,
      refund.created_at,
    ],
  );
}

/** A refund its provider refused: it no longer holds back any of the refundable amount. */
export async function markRefundFailed(q: Queryable, uid: string, error: string): Promise<void> {
  await q.query("UPDATE order_refunds SET status = 'failed', error = $2 WHERE uid = $1", [uid, error]);
}

/** What the provider's events did to an order's payments, for its timeline. */
export async function paymentEventsOf(
  q: Queryable,
  checkoutUid: string,
): Promise<{ transaction_uid: string; type: string; received_at: number }[]> {
  return q.query(
    `SELECT e.transaction_uid, e.type, e.received_at FROM payment_events e
     JOIN payment_transactions t ON t.uid = e.transaction_uid
     WHERE t.checkout_uid = $1 AND e.applied ORDER BY e.received_at`,
    [checkoutUid],
  );
}

/** One order line of a show, as analytics sums it. */
export interface ShowOrderLineRow {
  checkout_uid: string;
  ordered_at: number;
  currency: string;
  payed: boolean;
  product_uid: string;
  qty: number;
  line_total: number;
}

/** Every line of every order placed in a campaign (carts are no orders), oldest first. */
export async function showOrderLines(q: Queryable, campaignUid: string): Promise<ShowOrderLineRow[]> {
  return q.query<ShowOrderLineRow>(
    `SELECT c.uid AS checkout_uid, c.ordered_at::float8 AS ordered_at, c.currency, c.payed,
       l.product_uid, l.qty, (l.qty * l.unit_price)::float8 AS line_total
     FROM checkouts c JOIN checkout_lines l ON l.checkout_uid = c.uid
     WHERE c.campaign_uid = $1 AND c.order_number IS NOT NULL
     ORDER BY c.ordered_at, c.uid`,
    [campaignUid],
  );
}

/** The ordered checkouts of a show's campaign, for their freight. */
export async function showOrderCheckouts(q: Queryable, campaignUid: string): Promise<CheckoutRow[]> {
  return q.query<CheckoutRow>(
    'SELECT * FROM checkouts WHERE campaign_uid = $1 AND order_number IS NOT NULL',
    [campaignUid],
  );
}

/** The payments of a show's orders: whether each went through, for how much, and what went back. */
export async function showOrderPayments(
  q: Queryable,
  campaignUid: string,
): Promise<{ checkout_uid: string; payment_ok: boolean; total_price: number; amount_refunded: number }[]> {
  return q.query(
    `SELECT t.checkout_uid, t.payment_ok, t.total_price::float8 AS total_price,
       t.amount_refunded::float8 AS amount_refunded
     FROM payment_transactions t JOIN checkouts c ON c.uid = t.checkout_uid
     WHERE c.campaign_uid = $1 AND c.order_number IS NOT NULL`,
    [campaignUid],
  );
}
