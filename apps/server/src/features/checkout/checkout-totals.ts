import { checkoutProblems, isPaidInFull, isPastDeadline, linesTotal, paidAmount } from '@vitrine/domain';
import type { CheckoutItem, CheckoutProblem, CheckoutView, Transaction } from '@vitrine/protocol';
import type { Queryable } from '../../db/database.ts';
import { deliveryTerms } from '../stores/store-service.ts';
import { checkoutDetails, variantOfKey } from './checkout-records.ts';
import {
  type CheckoutRow,
  type LineRow,
  readLines,
  setPayed,
  type TransactionRow,
  transactionsOf,
} from './checkout-store.ts';
import { fulfilmentOf, toFulfilment } from './order-fulfilment-store.ts';
import { freightFor, parcelShopById } from './shipping.ts';

export function toTransaction(row: TransactionRow): Transaction {
  return {
    uid: row.uid,
    provider: row.provider,
    status: row.status,
    paymentOK: row.payment_ok,
    allowReopen: row.allow_reopen,
    amountRefunded: row.amount_refunded,
    totalPrice: row.total_price,
    refundDue: row.refund_due,
    currency: row.currency,
    created: row.created,
    updated: row.updated,
  };
}

export interface CheckoutTotals {
  lines: LineRow[];
  subtotal: number;
  freight: number;
  totalPrice: number;
  transactions: Transaction[];
  paidAmount: number;
  remainingAmount: number;
}

/** Lines, freight, total and what the counted payments cover (spec §5 counting rules). */
export async function checkoutTotals(db: Queryable, checkout: CheckoutRow): Promise<CheckoutTotals> {
  const lines = await readLines(db, checkout.uid);
  const rows = await transactionsOf(db, checkout.uid);
  const transactions = rows.map(toTransaction);
  const subtotal = linesTotal(lines.map((line) => ({ unitPrice: line.unit_price, qty: line.qty })));
  // An empty order ships nothing, so it costs nothing.
  const freight =
    lines.length === 0
      ? 0
      : freightFor(
          checkoutDetails(checkout),
          await deliveryTerms(db, checkout.page_uid, checkout.currency),
          subtotal,
        );
  const totalPrice = subtotal + freight;
  const paid = paidAmount({ payed: checkout.payed, transactions });
  return {
    lines,
    subtotal,
    freight,
    totalPrice,
    transactions,
    paidAmount: paid,
    remainingAmount: Math.max(0, totalPrice - paid),
  };
}

/**
 * Re-marks an order paid or not after its lines, freight or payments changed: paid when counted
 * payments cover its total. Returns the new flag.
 */
export async function refreshPayed(tx: Queryable, checkout: CheckoutRow): Promise<boolean> {
  const totals = await checkoutTotals(tx, checkout);
  const payed = isPaidInFull(totals.totalPrice, { payed: checkout.payed, transactions: totals.transactions });
  if (payed !== checkout.payed) {
    await setPayed(tx, checkout.uid, payed);
  }
  return payed;
}

function toItem(line: LineRow): CheckoutItem {
  return {
    productUid: line.product_uid,
    variantUid: variantOfKey(line.variant_uid),
    item: line.product_name,
    variantName: line.variant_name,
    sku: line.sku,
    image: line.image,
    price: line.unit_price,
    quantity: line.qty,
    total: line.unit_price * line.qty,
  };
}

/** The checkout as the checkout, order and payment-received pages show it. */
export async function checkoutView(
  db: Queryable,
  checkout: CheckoutRow,
  deadline: number | null,
  now: number,
  extraProblems: CheckoutProblem[] = [],
): Promise<CheckoutView> {
  const totals = await checkoutTotals(db, checkout);
  const details = checkoutDetails(checkout);
  const problems = [...new Set([...checkoutProblems(details), ...extraProblems])];
  return {
    uid: checkout.uid,
    pageUid: checkout.page_uid,
    campaignUid: checkout.campaign_uid,
    status: checkout.status,
    orderNumber: checkout.order_number,
    orderedAt: checkout.ordered_at,
    currency: checkout.currency,
    language: checkout.language,
    items: totals.lines.map(toItem),
    subtotal: totals.subtotal,
    freight: totals.freight,
    totalPrice: totals.totalPrice,
    paidAmount: totals.paidAmount,
    remainingAmount: totals.remainingAmount,
    payed: checkout.payed,
    locked: checkout.status === 'locked',
    deadline,
    deadlinePassed: isPastDeadline(deadline, now),
    details,
    parcelShop:
      details.shippingMethod === 'parcel_shop'
        ? parcelShopById(details.parcelShopId, details.address.city)
        : null,
    problems,
    transactions: totals.transactions,
    // Read only for a locked order: a cart or open order has no life after packing yet.
    fulfilment: toFulfilment(
      checkout.status === 'locked',
      checkout.status === 'locked' ? await fulfilmentOf(db, checkout.uid) : undefined,
    ),
  };
}
