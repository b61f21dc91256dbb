import { completeCheckoutAddress, linesTotal, paidAmount } from '@vitrine/domain';
import {
  type CheckoutDetails,
  CheckoutDetails as CheckoutDetailsSchema,
  type CheckoutReservationDoc,
  type TransactionStatus,
} from '@vitrine/protocol';
import type { Queryable } from '../../db/database.ts';
import { notFound } from '../../http/errors.ts';
import type { Transaction } from '../../realtime/outbox.ts';
import type { StockItem } from '../catalog/stock.ts';
import {
  type DeliveryOffer,
  type DeliveryTerms,
  deliveryTerms,
  deliveryTermsIn,
} from '../stores/store-service.ts';
import {
  type CheckoutRow,
  type LineRow,
  lockedCheckout,
  ownCheckout,
  readLines,
  readStoredReservation,
  saveDocsAndTakeStock,
  type TransactionRow,
  transactionsOf,
  writeReservationDoc,
} from './checkout-store.ts';
import { checkoutTopics } from './live-queries.ts';
import { freightFor } from './shipping.ts';

/**
 * The stored details with defaults for what was never filled in, the address completed with its
 * derived spec §3 fields (rows saved before they existed get them too).
 */
export const checkoutDetails = (row: CheckoutRow): CheckoutDetails =>
  completeCheckoutDetails(CheckoutDetailsSchema.parse(row.details ?? {}));

/** Details with the address's derived fields (firstName, lastName, postcodeAndCity, commentField) computed. */
export const completeCheckoutDetails = (details: CheckoutDetails): CheckoutDetails => ({
  ...details,
  address: completeCheckoutAddress(details.address),
});

/** `variant_uid` is '' for products without variants; on the wire that is null. */
export const variantKey = (variantUid: string | null) => variantUid ?? '';
export const variantOfKey = (key: string) => (key === '' ? null : key);

/** A checkout of the caller, locked for this transaction; 404 when it is not theirs or not in this campaign. */
export async function lockOwnCheckout(
  tx: Queryable,
  ref: { pageUid: string; campaignUid: string; checkoutUid: string },
  userUid: string,
): Promise<CheckoutRow> {
  const row = await ownCheckout(tx, ref, userUid, true);
  if (!row) throw notFound(`No checkout "${ref.checkoutUid}" of yours in this campaign.`);
  return row;
}

/** Empty reservation document of a shopper without a cart in the campaign. */
export function emptyReservationDoc(
  pageUid: string,
  campaignUid: string,
  userUid: string,
): CheckoutReservationDoc {
  return { pageUid, campaignUid, userUid, reservations: [], totalPrice: 0, checkoutUid: null };
}

/** The `checkout` live query's document for a checkout and its lines. */
export function toReservationDoc(
  checkout: CheckoutRow,
  lines: readonly LineRow[],
  lastPaymentStatus: TransactionStatus | null,
  paid = 0,
  /** The store's delivery terms in the checkout's currency (deliveryTerms); none: nothing charged. */
  terms: DeliveryTerms = { freight: {}, freeOver: null },
): CheckoutReservationDoc {
  const totalPrice = linesTotal(lines.map((line) => ({ unitPrice: line.unit_price, qty: line.qty })));
  // An empty cart ships nothing, so it costs nothing (as checkoutTotals counts it).
  const freight = lines.length === 0 ? 0 : freightFor(checkoutDetails(checkout), terms, totalPrice);
  return {
    pageUid: checkout.page_uid,
    campaignUid: checkout.campaign_uid,
    userUid: checkout.user_uid,
    reservations: lines.map((line) => ({
      mainProduct: line.product_uid,
      qty: line.qty,
      unitPrice: line.unit_price,
      totalPrice: line.unit_price * line.qty,
      variantName: line.variant_name,
      variantUid: variantOfKey(line.variant_uid),
      productName: line.product_name,
      image: line.image,
      sku: line.sku,
      reservedUntil: line.reserved_until,
    })),
    totalPrice,
    currency: checkout.currency,
    language: checkout.language,
    checkoutUid: checkout.uid,
    status: checkout.status,
    orderNumber: checkout.order_number,
    payed: checkout.payed,
    freight,
    paidAmount: paid,
    remainingAmount: Math.max(0, totalPrice + freight - paid),
    lastPaymentStatus,
  };
}

/** What the shopper has paid of a checkout so far, by the spec §5 counting rule (`paidAmount`). */
export async function paidSoFar(tx: Queryable, checkout: CheckoutRow): Promise<number> {
  return paidOf(checkout, await transactionsOf(tx, checkout.uid));
}

function paidOf(checkout: CheckoutRow, transactions: readonly TransactionRow[]): number {
  return paidAmount({
    payed: checkout.payed,
    transactions: transactions.map((row) => ({
      paymentOK: row.payment_ok,
      allowReopen: row.allow_reopen,
      amountRefunded: Number(row.amount_refunded),
      totalPrice: Number(row.total_price),
    })),
  });
}

/**
 * Stores a shopper's reservation document (the `checkout` live query's snapshot) and stages it
 * for their open tabs, in the transaction that changed it: snapshot, lines and what the tabs are
 * told never disagree, and the tabs hear of changes in the order they committed.
 */
export async function saveReservationDoc(tx: Transaction, doc: CheckoutReservationDoc): Promise<void> {
  await writeReservationDoc(tx, doc);
  stageReservationDoc(tx, doc);
}

function stageReservationDoc(tx: Transaction, doc: CheckoutReservationDoc): void {
  tx.publish(checkoutTopics.reservation(doc.pageUid, doc.campaignUid, doc.userUid), [
    { type: 'modified', docId: doc.userUid, doc },
  ]);
}

/**
 * saveReservationDoc of each document (one per shopper), then the transaction's topic locks, then
 * `item`'s units from stock, in one statement (saveDocsAndTakeStock): a batch of adds' last. False
 * when the units are not free (the caller throws, and the documents and everything else roll back).
 */
export async function saveReservationDocsTakingStock(
  tx: Transaction,
  docs: readonly CheckoutReservationDoc[],
  item: StockItem,
): Promise<boolean> {
  for (const doc of docs) stageReservationDoc(tx, doc);
  return saveDocsAndTakeStock(tx, docs, tx.claimTopicLocks(), item);
}

/**
 * A checkout's reservation document, built from its rows.
 * `current`: the checkout's row (its lines, its payment attempts) as this transaction last wrote
 * them, when the caller has them (reads fewer on the cart's hot path).
 */
export async function reservationDocOf(
  tx: Queryable,
  checkoutUid: string,
  current?: { checkout: CheckoutRow; lines?: readonly LineRow[]; transactions?: readonly TransactionRow[] },
  /** The checkout's store's delivery offer when the caller read it already (an add, from its cache). */
  offer?: DeliveryOffer,
): Promise<CheckoutReservationDoc> {
  const checkout = current?.checkout ?? (await lockedCheckout(tx, checkoutUid));
  // Oldest first, so the latest attempt (its status goes in the document) is the last one.
  const transactions = current?.transactions ?? (await transactionsOf(tx, checkoutUid));
  return toReservationDoc(
    checkout,
    current?.lines ?? (await readLines(tx, checkoutUid)),
    transactions.at(-1)?.status ?? null,
    paidOf(checkout, transactions),
    offer
      ? deliveryTermsIn(offer, checkout.currency)
      : await deliveryTerms(tx, checkout.page_uid, checkout.currency),
  );
}

/** Rebuilds a checkout's reservation document from its rows and saves it (reservationDocOf, saveReservationDoc). */
export async function storeReservationDoc(
  tx: Transaction,
  checkoutUid: string,
  current?: { checkout: CheckoutRow; lines?: readonly LineRow[]; transactions?: readonly TransactionRow[] },
): Promise<CheckoutReservationDoc> {
  const doc = await reservationDocOf(tx, checkoutUid, current);
  await saveReservationDoc(tx, doc);
  return doc;
}

/** The stored reservation document of a shopper, or an empty one. */
export async function readReservationDoc(
  db: Queryable,
  pageUid: string,
  campaignUid: string,
  userUid: string,
): Promise<CheckoutReservationDoc> {
  const data = await readStoredReservation(db, { pageUid, campaignUid, userUid });
  return data
    ? { ...emptyReservationDoc(pageUid, campaignUid, userUid), ...data }
    : emptyReservationDoc(pageUid, campaignUid, userUid);
}

const RETRYABLE_SQLSTATES = new Set(['40001', '40P01']);

/**
 * Runs a transaction again when PostgreSQL aborted it for a serialization failure or deadlock,
 * which the lock order makes rare but cannot rule out under heavy load.
 */
export async function withRetry<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (attempt >= attempts || typeof code !== 'string' || !RETRYABLE_SQLSTATES.has(code)) throw error;
    }
  }
}
