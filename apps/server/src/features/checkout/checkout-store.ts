import type {
  CheckoutDetails,
  CheckoutReservationDoc,
  PaymentEventType,
  PurchaseDoc,
  Transaction,
  TransactionStatus,
} from '@vitrine/protocol';
import type { CheckoutStatus, Currency, Locale } from '@vitrine/protocol/vocabulary';
import type { Queryable } from '../../db/database.ts';

// Every SQL statement on the checkout feature's tables (checkouts, checkout_lines,
// checkout_reservations, user_reservations, purchases, payment_transactions, payment_events,
// test_payment_confirmations, the order_numbers sequence) lives here, but the studio's order
// screens' (order-admin-store.ts, with order_refunds); services call these functions with the
// database or their transaction.

/** A row of `checkouts`. */
export interface CheckoutRow {
  uid: string;
  page_uid: string;
  campaign_uid: string;
  user_uid: string;
  status: CheckoutStatus;
  currency: Currency;
  language: Locale;
  details: Partial<CheckoutDetails>;
  order_number: number | null;
  ordered_at: number | null;
  locked_at: number | null;
  payed: boolean;
  created_at: number;
  updated_at: number;
}

/** A row of `checkout_lines`; `variant_uid` is '' for products without variants. */
export interface LineRow {
  checkout_uid: string;
  product_uid: string;
  variant_uid: string;
  qty: number;
  unit_price: number;
  product_name: string;
  variant_name: string | null;
  sku: string;
  image: string | null;
  reserved_until: number | null;
  added_at: number;
}

/** A row of `payment_transactions`. */
export interface TransactionRow {
  uid: string;
  checkout_uid: string;
  provider: string;
  status: TransactionStatus;
  payment_ok: boolean;
  allow_reopen: boolean;
  amount_refunded: number;
  total_price: number;
  /** Minor units received that the order did not owe, to be refunded (0 normally). */
  refund_due: number;
  /** The provider's id of the payment (Stripe: PaymentIntent), once known. */
  provider_payment_id: string | null;
  currency: Transaction['currency'];
  return_path: string;
  created: number;
  updated: number;
}

/** A shopper's checkout in one campaign of a store. */
export interface ShopperCampaign {
  pageUid: string;
  campaignUid: string;
  userUid: string;
}

/** A line of a checkout, by product and variant key. */
export interface LineKey {
  checkoutUid: string;
  productUid: string;
  variantKey: string;
}

// ——— checkouts ———

/** A checkout of a shopper in a campaign by uid; `lock` takes its row lock for the transaction. */
export async function ownCheckout(
  q: Queryable,
  ref: { pageUid: string; campaignUid: string; checkoutUid: string },
  userUid: string,
  lock: boolean,
): Promise<CheckoutRow | undefined> {
  const [row] = await q.query<CheckoutRow>(
    `SELECT * FROM checkouts WHERE uid = $1 AND page_uid = $2 AND campaign_uid = $3 AND user_uid = $4${lock ? ' FOR UPDATE' : ''}`,
    [ref.checkoutUid, ref.pageUid, ref.campaignUid, userUid],
  );
  return row;
}

/** A checkout by uid, its row locked for the transaction; undefined when there is none. */
export async function lockCheckout(tx: Queryable, uid: string): Promise<CheckoutRow | undefined> {
  const [row] = await tx.query<CheckoutRow>('SELECT * FROM checkouts WHERE uid = $1 FOR UPDATE', [uid]);
  return row;
}

/** A checkout already locked by this transaction, read again after the transaction changed it. */
export async function lockedCheckout(tx: Queryable, uid: string): Promise<CheckoutRow> {
  const [row] = await tx.query<CheckoutRow>('SELECT * FROM checkouts WHERE uid = $1', [uid]);
  if (!row) throw new Error(`checkout ${uid} vanished inside its transaction`);
  return row;
}

/** The store of a checkout, or undefined when there is no such checkout. */
export async function checkoutPageUid(q: Queryable, uid: string): Promise<string | undefined> {
  const [row] = await q.query<{ page_uid: string }>('SELECT page_uid FROM checkouts WHERE uid = $1', [uid]);
  return row?.page_uid;
}

export async function findCheckoutUid(q: Queryable, owner: ShopperCampaign): Promise<string | null> {
  const [row] = await q.query<{ uid: string }>(
    'SELECT uid FROM checkouts WHERE page_uid = $1 AND campaign_uid = $2 AND user_uid = $3',
    [owner.pageUid, owner.campaignUid, owner.userUid],
  );
  return row?.uid ?? null;
}

/**
 * The shopper's checkout in the campaign, created (empty) when there is none; locked for the
 * transaction. One statement: the conflict's UPDATE takes the row lock (and marks the checkout
 * active, which every caller does next anyway), where an INSERT … DO NOTHING needed a SELECT …
 * FOR UPDATE after it.
 */
export async function lockOrCreateCheckout(
  tx: Queryable,
  owner: ShopperCampaign,
  created: { uid: string; currency: Currency; language: Locale; at: number },
): Promise<CheckoutRow> {
  const [row] = await tx.query<CheckoutRow>(
    `INSERT INTO checkouts (uid, page_uid, campaign_uid, user_uid, currency, language, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
     ON CONFLICT (page_uid, campaign_uid, user_uid) DO UPDATE SET updated_at = EXCLUDED.updated_at
     RETURNING *`,
    [
      created.uid,
      owner.pageUid,
      owner.campaignUid,
      owner.userUid,
      created.currency,
      created.language,
      created.at,
    ],
  );
  if (!row) throw new Error('the checkout just upserted is missing');
  return row;
}

export async function setPayed(tx: Queryable, uid: string, payed: boolean): Promise<void> {
  await tx.query('UPDATE checkouts SET payed = $2 WHERE uid = $1', [uid, payed]);
}

export async function deleteCheckout(tx: Queryable, uid: string): Promise<void> {
  await tx.query('DELETE FROM checkouts WHERE uid = $1', [uid]);
}

/** The checkout's language (its payment page's) follows the shopper's. */
export async function setCheckoutLanguage(
  q: Queryable,
  owner: ShopperCampaign,
  language: Locale,
): Promise<void> {
  await q.query(
    'UPDATE checkouts SET language = $4 WHERE page_uid = $1 AND campaign_uid = $2 AND user_uid = $3 AND language <> $4',
    [owner.pageUid, owner.campaignUid, owner.userUid, language],
  );
}

export async function setCheckoutCurrency(
  tx: Queryable,
  uid: string,
  currency: Currency,
  at: number,
): Promise<void> {
  await tx.query('UPDATE checkouts SET currency = $2, updated_at = $3 WHERE uid = $1', [uid, currency, at]);
}

export async function saveCheckoutDetails(
  tx: Queryable,
  uid: string,
  details: CheckoutDetails,
  at: number,
): Promise<void> {
  await tx.query('UPDATE checkouts SET details = $2, updated_at = $3 WHERE uid = $1', [
    uid,
    JSON.stringify(details),
    at,
  ]);
}

/** Makes a checkout an order with the next order number; its lines stop expiring. */
export async function markOrdered(tx: Queryable, uid: string, at: number): Promise<void> {
  await tx.query(
    `UPDATE checkouts SET status = 'ordered', order_number = nextval('order_numbers'), ordered_at = $2, updated_at = $2
     WHERE uid = $1`,
    [uid, at],
  );
  // Ordered units are the shopper's: they no longer go back to stock on a timer.
  await tx.query('UPDATE checkout_lines SET reserved_until = NULL WHERE checkout_uid = $1', [uid]);
}

/** Sends an order to packing: locked against changes and payments. */
export async function markLocked(tx: Queryable, uid: string, at: number): Promise<void> {
  await tx.query("UPDATE checkouts SET status = 'locked', locked_at = $2, updated_at = $2 WHERE uid = $1", [
    uid,
    at,
  ]);
}

// ——— checkout_lines ———

export async function readLines(q: Queryable, checkoutUid: string): Promise<LineRow[]> {
  return q.query<LineRow>(
    'SELECT * FROM checkout_lines WHERE checkout_uid = $1 ORDER BY added_at, product_uid, variant_uid',
    [checkoutUid],
  );
}

export async function findLine(q: Queryable, key: LineKey): Promise<LineRow | undefined> {
  const [row] = await q.query<LineRow>(
    'SELECT * FROM checkout_lines WHERE checkout_uid = $1 AND product_uid = $2 AND variant_uid = $3',
    [key.checkoutUid, key.productUid, key.variantKey],
  );
  return row;
}

/** Sets one number of one line; `column` is one of these names, never input. */
async function setLineNumber(tx: Queryable, key: LineKey, column: 'qty' | 'unit_price', value: number) {
  await tx.query(
    `UPDATE checkout_lines SET ${column} = $4 WHERE checkout_uid = $1 AND product_uid = $2 AND variant_uid = $3`,
    [key.checkoutUid, key.productUid, key.variantKey, value],
  );
}

export function setLineQuantity(tx: Queryable, key: LineKey, qty: number): Promise<void> {
  return setLineNumber(tx, key, 'qty', qty);
}

export function setLinePrice(tx: Queryable, key: LineKey, unitPrice: number): Promise<void> {
  return setLineNumber(tx, key, 'unit_price', unitPrice);
}

/** Deletes one line of a checkout, or all of them without `line`; returns what was deleted. */
export async function deleteLines(
  tx: Queryable,
  checkoutUid: string,
  line?: { productUid: string; variantKey: string },
): Promise<LineRow[]> {
  if (!line) {
    return tx.query<LineRow>('DELETE FROM checkout_lines WHERE checkout_uid = $1 RETURNING *', [checkoutUid]);
  }
  return tx.query<LineRow>(
    'DELETE FROM checkout_lines WHERE checkout_uid = $1 AND product_uid = $2 AND variant_uid = $3 RETURNING *',
    [checkoutUid, line.productUid, line.variantKey],
  );
}

/**
 * Sets every line's hold to `until`, never past the line's maximum age (`until` null, an order,
 * clears the holds), and marks the checkout active, in one statement (one round trip on the
 * cart's hot path); returns the checkout as it now is.
 */
export async function holdLinesAndTouch(
  tx: Queryable,
  checkoutUid: string,
  until: number | null,
  maxAgeMs: number,
  at: number,
): Promise<{ checkout: CheckoutRow; lines: LineRow[]; transactions: TransactionRow[] }> {
  // Every line is renewed, so the renewed rows are all the lines: they come back with the
  // checkout, in readLines' order, and so do its payment attempts (transactionsOf's order): the
  // reservation document needs no read of its own.
  const [row] = await tx.query<CheckoutRow & { held_lines: LineRow[]; payment_attempts: TransactionRow[] }>(
    `WITH held AS (
       UPDATE checkout_lines
       SET reserved_until = CASE WHEN $2::bigint IS NULL THEN NULL ELSE LEAST($2::bigint, added_at + $3::bigint) END
       WHERE checkout_uid = $1
       RETURNING *
     )
     UPDATE checkouts SET updated_at = $4 WHERE uid = $1
     RETURNING *, (SELECT COALESCE(json_agg(held ORDER BY held.added_at, held.product_uid, held.variant_uid), '[]'::json)
                   FROM held) AS held_lines,
       (SELECT COALESCE(json_agg(t ORDER BY t.created, t.uid), '[]'::json)
        FROM payment_transactions t WHERE t.checkout_uid = $1) AS payment_attempts`,
    [checkoutUid, until, maxAgeMs, at],
  );
  if (!row) throw new Error(`checkout ${checkoutUid} vanished inside its transaction`);
  const { held_lines: lines, payment_attempts: transactions, ...checkout } = row;
  return { checkout, lines, transactions };
}

/** Extends every line's hold to `until` (capped by its maximum age); returns the new holds. */
export async function extendLineHolds(
  tx: Queryable,
  checkoutUid: string,
  until: number,
  maxAgeMs: number,
): Promise<{ product_uid: string; variant_uid: string; reserved_until: string }[]> {
  return tx.query(
    `UPDATE checkout_lines SET reserved_until = LEAST($2::bigint, added_at + $3::bigint)
     WHERE checkout_uid = $1 RETURNING product_uid, variant_uid, reserved_until`,
    [checkoutUid, until, maxAgeMs],
  );
}

/** Open carts with lines whose hold ran out before `at` (of one product or variant, or any); at most 200. */
export async function checkoutsWithExpiredLines(
  q: Queryable,
  at: number,
  only?: { productUid: string; variantKey: string },
): Promise<string[]> {
  const params: unknown[] = [at];
  let condition = '';
  if (only) {
    params.push(only.productUid, only.variantKey);
    condition = 'AND l.product_uid = $2 AND l.variant_uid = $3';
  }
  const rows = await q.query<{ checkout_uid: string }>(
    `SELECT DISTINCT l.checkout_uid FROM checkout_lines l JOIN checkouts c ON c.uid = l.checkout_uid
     WHERE c.status = 'open' AND l.reserved_until < $1 ${condition} LIMIT 200`,
    params,
  );
  return rows.map((row) => row.checkout_uid);
}

export async function deleteExpiredLines(tx: Queryable, checkoutUid: string, at: number): Promise<LineRow[]> {
  return tx.query<LineRow>(
    'DELETE FROM checkout_lines WHERE checkout_uid = $1 AND reserved_until < $2 RETURNING *',
    [checkoutUid, at],
  );
}

/**
 * Units of a product (any variant) a shopper holds in a store: in `checkout`, or in another open
 * cart or unpaid order; bought units (paid or sent to packing) do not count.
 */
export async function unitsHeld(
  tx: Queryable,
  checkout: Pick<CheckoutRow, 'uid' | 'page_uid' | 'user_uid'>,
  productUid: string,
): Promise<number> {
  const [held] = await tx.query<{ units: number }>(
    `SELECT COALESCE(SUM(l.qty), 0)::int AS units FROM checkout_lines l JOIN checkouts c ON c.uid = l.checkout_uid
     WHERE c.page_uid = $1 AND c.user_uid = $2 AND l.product_uid = $3
       AND (c.uid = $4 OR (c.status <> 'locked' AND NOT c.payed))`,
    [checkout.page_uid, checkout.user_uid, productUid, checkout.uid],
  );
  return held?.units ?? 0;
}

/** What addToCarts answers per add: the checkout and its lines as the add left them. */
export interface AddedToCart {
  checkout: CheckoutRow;
  /** The line's unit price in the checkout's currency; null when the product has none (nothing was added). */
  unitPrice: number | null;
  /** The line's units after the add. */
  lineQty: number;
  /** The units of the product the shopper holds in the store after the add (as unitsHeld counts them). */
  units: number;
  /** Every line of the checkout, holds renewed, in readLines' order. */
  lines: LineRow[];
  /** The checkout's payment attempts, in transactionsOf's order. */
  transactions: TransactionRow[];
}

/** One add-to-cart of a batch (addToCarts): whose cart, what it is created with when new, the line. */
export interface CartAdd {
  owner: ShopperCampaign;
  created: { uid: string; currency: Currency; language: Locale; at: number };
  line: Pick<LineRow, 'product_name' | 'variant_name' | 'sku' | 'image' | 'qty'> & {
    productUid: string;
    variantKey: string;
    /** Minor units per currency (a variant's own prices winning over its product's). */
    prices: Partial<Record<Currency, number>>;
  };
}

/**
 * Add-to-carts' writes but the stock, in one round trip whatever their number (migrations 0027 and
 * 0028, checkout_add_lines), in the order given: each shopper's checkout locked (created empty
 * when there is none), `line.qty` units added to the line priced from `line.prices` in the
 * checkout's currency, and every line's hold renewed to `holds.until` (capped at
 * `holds.maxAgeMs` after its add; cleared in an order). Written first and checked after: the
 * caller checks its rules on the answers and throws to roll the adds back.
 */
export async function addToCarts(
  tx: Queryable,
  adds: readonly CartAdd[],
  holds: { until: number; maxAgeMs: number },
): Promise<AddedToCart[]> {
  const [row] = await tx.query<{
    added: {
      checkout: CheckoutRow;
      unit_price: number | null;
      line_qty: number | null;
      units: number | null;
      lines: LineRow[];
      payment_attempts: TransactionRow[];
    }[];
  }>('SELECT checkout_add_lines($1::jsonb, $2, $3) AS added', [
    JSON.stringify(
      adds.map(({ owner, created, line }) => ({
        checkout_uid: created.uid,
        page_uid: owner.pageUid,
        campaign_uid: owner.campaignUid,
        user_uid: owner.userUid,
        currency: created.currency,
        language: created.language,
        at: created.at,
        product_uid: line.productUid,
        variant_uid: line.variantKey,
        qty: line.qty,
        prices: line.prices,
        product_name: line.product_name,
        variant_name: line.variant_name,
        sku: line.sku,
        image: line.image,
      })),
    ),
    holds.until,
    holds.maxAgeMs,
  ]);
  if (row?.added.length !== adds.length) throw new Error('checkout_add_lines: one answer per add');
  return row.added.map((added) => ({
    checkout: added.checkout,
    unitPrice: added.unit_price,
    lineQty: added.line_qty ?? 0,
    units: added.units ?? 0,
    lines: added.lines,
    transactions: added.payment_attempts,
  }));
}

/**
 * The end of a batch of adds, in one round trip (migration 0028, checkout_save_adds): the
 * reservation documents written (one per shopper), the outbox's topic locks taken (`locks`, from
 * Transaction.claimTopicLocks), then `item`'s units (the batch's sum) taken from stock (the
 * catalog's take_stock, as reserveStock). False when they are not free: the caller rolls back.
 */
export async function saveDocsAndTakeStock(
  tx: Queryable,
  docs: readonly CheckoutReservationDoc[],
  locks: { lockClass: number; keys: readonly number[] },
  item: { productUid: string; variantUid: string | null; qty: number },
): Promise<boolean> {
  const [row] = await tx.query<{ taken: boolean }>(
    'SELECT checkout_save_adds($1::jsonb, $2, $3::int[], $4, $5, $6) AS taken',
    [
      JSON.stringify(
        docs.map((doc) => ({
          page_uid: doc.pageUid,
          campaign_uid: doc.campaignUid,
          user_uid: doc.userUid,
          doc,
        })),
      ),
      locks.lockClass,
      locks.keys,
      item.productUid,
      item.variantUid,
      item.qty,
    ],
  );
  return row?.taken === true;
}

// ——— checkout_reservations ———

/** The stored reservation document of a shopper, as stored (older rows may lack fields). */
export async function readStoredReservation(
  q: Queryable,
  owner: ShopperCampaign,
): Promise<Partial<CheckoutReservationDoc> | undefined> {
  const [row] = await q.query<{ data: Partial<CheckoutReservationDoc> }>(
    'SELECT data FROM checkout_reservations WHERE page_uid = $1 AND campaign_uid = $2 AND user_uid = $3',
    [owner.pageUid, owner.campaignUid, owner.userUid],
  );
  return row?.data;
}

export async function writeReservationDoc(tx: Queryable, doc: CheckoutReservationDoc): Promise<void> {
  await tx.query(
    `INSERT INTO checkout_reservations (page_uid, campaign_uid, user_uid, data) VALUES ($1, $2, $3, $4)
     ON CONFLICT (page_uid, campaign_uid, user_uid) DO UPDATE SET data = EXCLUDED.data, updated_at = now()`,
    [doc.pageUid, doc.campaignUid, doc.userUid, JSON.stringify(doc)],
  );
}

// ——— user_reservations ———

/** What a shopper saved for a store (spec §3 "the reservation loaded per user"). */
export interface SavedShopperChoices {
  language: string | null;
  currency: string | null;
  show_checkout_presentation: boolean | null;
}

export async function savedShopperChoices(
  q: Queryable,
  pageUid: string,
  userUid: string,
): Promise<SavedShopperChoices | undefined> {
  const [row] = await q.query<SavedShopperChoices>(
    'SELECT language, currency, show_checkout_presentation FROM user_reservations WHERE page_uid = $1 AND user_uid = $2',
    [pageUid, userUid],
  );
  return row;
}

/** Saves the given choices; those left null keep their saved value. */
export async function saveShopperChoices(
  q: Queryable,
  pageUid: string,
  userUid: string,
  choices: { language: string | null; currency: string | null; showCheckoutPresentation: boolean | null },
  at: number,
): Promise<void> {
  await q.query(
    `INSERT INTO user_reservations (page_uid, user_uid, language, currency, show_checkout_presentation, updated_at)
     VALUES ($1, $2, $3, $4, COALESCE($5, false), $6)
     ON CONFLICT (page_uid, user_uid) DO UPDATE SET
       language = COALESCE(EXCLUDED.language, user_reservations.language),
       currency = COALESCE(EXCLUDED.currency, user_reservations.currency),
       show_checkout_presentation = COALESCE($5, user_reservations.show_checkout_presentation),
       updated_at = EXCLUDED.updated_at`,
    [pageUid, userUid, choices.language, choices.currency, choices.showCheckoutPresentation, at],
  );
}

// ——— purchases ———

export async function insertPurchase(tx: Queryable, purchase: PurchaseDoc): Promise<void> {
  await tx.query(
    'INSERT INTO purchases (uid, page_uid, campaign_uid, product_uid, buyer_name, time) VALUES ($1, $2, $3, $4, $5, $6)',
    [
      purchase.uid,
      purchase.pageUid,
      purchase.campaignUid,
      purchase.productUid,
      purchase.buyerName,
      purchase.time,
    ],
  );
}

/** Purchases in a campaign made after `after`, oldest first. */
export async function purchasesAfter(
  q: Queryable,
  pageUid: string,
  campaignUid: string,
  after: number,
): Promise<PurchaseDoc[]> {
  const rows = await q.query<{ uid: string; product_uid: string; buyer_name: string; time: number }>(
    'SELECT uid, product_uid, buyer_name, time FROM purchases WHERE page_uid = $1 AND campaign_uid = $2 AND time > $3 ORDER BY time',
    [pageUid, campaignUid, after],
  );
  return rows.map((row) => ({
    uid: row.uid,
    pageUid,
    campaignUid,
    productUid: row.product_uid,
    buyerName: row.buyer_name,
    time: row.time,
  }));
}

// ——— payment_transactions ———

/** Every payment attempt of a checkout, oldest first. */
export async function transactionsOf(q: Queryable, checkoutUid: string): Promise<TransactionRow[]> {
  return q.query<TransactionRow>(
    'SELECT * FROM payment_transactions WHERE checkout_uid = $1 ORDER BY created, uid',
    [checkoutUid],
  );
}

/** The latest attempt still awaiting confirmation, if any. */
export async function openPayment(
  q: Queryable,
  checkoutUid: string,
): Promise<{ total_price: number } | undefined> {
  const [open] = await q.query<{ total_price: number }>(
    `SELECT total_price FROM payment_transactions WHERE checkout_uid = $1 AND status = 'awaiting_confirmation'
     ORDER BY created DESC LIMIT 1`,
    [checkoutUid],
  );
  return open;
}

export async function hasPaymentAttempt(q: Queryable, checkoutUid: string): Promise<boolean> {
  const [attempt] = await q.query('SELECT 1 FROM payment_transactions WHERE checkout_uid = $1 LIMIT 1', [
    checkoutUid,
  ]);
  return attempt !== undefined;
}

/** Abandons the checkout's attempts still awaiting confirmation; returns their provider sessions. */
export async function abandonOpenPayments(
  tx: Queryable,
  checkoutUid: string,
  at: number,
): Promise<{ provider: string; provider_session_id: string | null }[]> {
  return tx.query(
    `UPDATE payment_transactions SET status = 'abandoned', updated = $2
     WHERE checkout_uid = $1 AND status = 'awaiting_confirmation'
     RETURNING provider, provider_session_id`,
    [checkoutUid, at],
  );
}

/** When the checkout's latest attempt was created, or null before its first. */
export async function latestAttemptCreated(tx: Queryable, checkoutUid: string): Promise<number | null> {
  const [latest] = await tx.query<{ created: number | null }>(
    'SELECT MAX(created) AS created FROM payment_transactions WHERE checkout_uid = $1',
    [checkoutUid],
  );
  return latest?.created ?? null;
}

export async function insertTransaction(
  tx: Queryable,
  attempt: {
    uid: string;
    checkoutUid: string;
    provider: string;
    totalPrice: number;
    currency: Currency;
    returnPath: string;
    created: number;
  },
): Promise<void> {
  await tx.query(
    `INSERT INTO payment_transactions (uid, checkout_uid, provider, status, total_price, currency, return_path,
       created, updated)
     VALUES ($1, $2, $3, 'awaiting_confirmation', $4, $5, $6, $7, $7)`,
    [
      attempt.uid,
      attempt.checkoutUid,
      attempt.provider,
      attempt.totalPrice,
      attempt.currency,
      attempt.returnPath,
      attempt.created,
    ],
  );
}

export async function transactionReturnPath(q: Queryable, uid: string): Promise<string | undefined> {
  const [row] = await q.query<{ return_path: string }>(
    'SELECT return_path FROM payment_transactions WHERE uid = $1',
    [uid],
  );
  return row?.return_path;
}

/** Abandons one attempt if it still awaits confirmation (it never reached its provider). */
export async function abandonPayment(q: Queryable, uid: string, at: number): Promise<void> {
  await q.query(
    `UPDATE payment_transactions SET status = 'abandoned', updated = $2
     WHERE uid = $1 AND status = 'awaiting_confirmation'`,
    [uid, at],
  );
}

export async function recordOpenedPayment(
  q: Queryable,
  uid: string,
  opened: { paymentUrl: string; sessionId: string | null; pageKeyHash: string | null },
): Promise<void> {
  await q.query(
    'UPDATE payment_transactions SET payment_url = $2, provider_session_id = $3, page_key_hash = $4 WHERE uid = $1',
    [uid, opened.paymentUrl, opened.sessionId, opened.pageKeyHash],
  );
}

/** The transaction a provider's event names, by our uid or by the provider's payment id. */
export async function findProviderTransaction(
  q: Queryable,
  provider: string,
  named: { transactionUid: string | null; providerPaymentId: string | null },
): Promise<{ uid: string; checkout_uid: string } | undefined> {
  const [found] = await q.query<{ uid: string; checkout_uid: string }>(
    named.transactionUid !== null
      ? 'SELECT uid, checkout_uid FROM payment_transactions WHERE uid = $1 AND provider = $2'
      : 'SELECT uid, checkout_uid FROM payment_transactions WHERE provider_payment_id = $1 AND provider = $2',
    [named.transactionUid ?? named.providerPaymentId, provider],
  );
  return found;
}

export async function lockTransaction(tx: Queryable, uid: string): Promise<TransactionRow | undefined> {
  const [row] = await tx.query<TransactionRow>(
    'SELECT * FROM payment_transactions WHERE uid = $1 FOR UPDATE',
    [uid],
  );
  return row;
}

export async function setProviderPaymentId(
  tx: Queryable,
  uid: string,
  providerPaymentId: string,
): Promise<void> {
  await tx.query('UPDATE payment_transactions SET provider_payment_id = $2 WHERE uid = $1', [
    uid,
    providerPaymentId,
  ]);
}

export async function updateTransactionState(
  tx: Queryable,
  uid: string,
  state: {
    status: TransactionStatus;
    paymentOK: boolean;
    amountRefunded: number;
    refundDue: number;
    at: number;
  },
): Promise<void> {
  await tx.query(
    `UPDATE payment_transactions SET status = $2, payment_ok = $3, amount_refunded = $4, refund_due = $5,
       updated = $6
     WHERE uid = $1`,
    [uid, state.status, state.paymentOK, state.amountRefunded, state.refundDue, state.at],
  );
}

/** A transaction with what its hosted payment page shows of its checkout. */
export interface PaymentPageRow {
  uid: string;
  status: TransactionStatus;
  total_price: number;
  currency: Currency;
  return_path: string;
  page_key_hash: string | null;
  order_number: number | null;
  language: string;
  page_uid: string;
}

export async function paymentPageRow(
  q: Queryable,
  provider: string,
  transactionUid: string,
): Promise<PaymentPageRow | undefined> {
  const [row] = await q.query<PaymentPageRow>(
    `SELECT t.uid, t.status, t.total_price, t.currency, t.return_path, t.page_key_hash, c.order_number, c.language, c.page_uid
     FROM payment_transactions t JOIN checkouts c ON c.uid = t.checkout_uid
     WHERE t.uid = $1 AND t.provider = $2`,
    [transactionUid, provider],
  );
  return row;
}

// ——— payment_events ———

/** Records a provider event as not yet applied; false when its id was recorded before (a replay). */
export async function recordPaymentEvent(
  tx: Queryable,
  event: { provider: string; eventId: string; transactionUid: string; type: PaymentEventType; at: number },
): Promise<boolean> {
  const inserted = await tx.query(
    `INSERT INTO payment_events (provider, event_id, transaction_uid, type, applied, received_at)
     VALUES ($1, $2, $3, $4, false, $5) ON CONFLICT (provider, event_id) DO NOTHING RETURNING event_id`,
    [event.provider, event.eventId, event.transactionUid, event.type, event.at],
  );
  return inserted.length > 0;
}

export async function markPaymentEventApplied(
  tx: Queryable,
  provider: string,
  eventId: string,
): Promise<void> {
  await tx.query('UPDATE payment_events SET applied = true WHERE provider = $1 AND event_id = $2', [
    provider,
    eventId,
  ]);
}

// ——— test_payment_confirmations ———

/** Approvals on the test provider's page whose confirmation is due at `before`, oldest first. */
export async function dueTestConfirmations(
  q: Queryable,
  before: number,
): Promise<{ transaction_uid: string; total_price: number; currency: Currency }[]> {
  return q.query(
    `SELECT c.transaction_uid, t.total_price, t.currency
     FROM test_payment_confirmations c JOIN payment_transactions t ON t.uid = c.transaction_uid
     WHERE c.due_at <= $1 ORDER BY c.due_at`,
    [before],
  );
}

export async function scheduleTestConfirmation(
  q: Queryable,
  transactionUid: string,
  dueAt: number,
): Promise<void> {
  await q.query(
    `INSERT INTO test_payment_confirmations (transaction_uid, due_at) VALUES ($1, $2)
     ON CONFLICT (transaction_uid) DO NOTHING`,
    [transactionUid, dueAt],
  );
}

export async function deleteTestConfirmation(q: Queryable, transactionUid: string): Promise<void> {
  await q.query('DELETE FROM test_payment_confirmations WHERE transaction_uid = $1', [transactionUid]);
}
