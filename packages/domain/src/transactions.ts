/**
 * Payment transactions of a checkout and how they count (spec §3 "Checkout", §5 "Other rules"),
 * and how a payment provider's events move a transaction (spec §4 "Orders and payment").
 */

import type { PaymentEventType, TransactionStatus } from './vocabulary.ts';

/** The fields of a transaction the counting rules look at (spec §3). */
export interface CountableTransaction {
  paymentOK: boolean;
  allowReopen: boolean;
  /** Minor units refunded. */
  amountRefunded: number;
  /** Minor units the transaction is for. */
  totalPrice: number;
}

export interface CheckoutPayments<T extends CountableTransaction = CountableTransaction> {
  /** The checkout is marked paid. */
  payed: boolean;
  transactions: readonly T[];
}

/**
 * A transaction counts only if its payment is ok and it is not refunded (spec §5), and then for
 * what it still holds: its total less what was refunded of it.
 *
 * Why "not refunded" means "not refunded in full": spec §5 states the rule for whole payments. Read
 * literally, a refund of 1 minor unit would void a whole payment, so the order would owe its full
 * total again although the shop still holds all but that unit of the shopper's money, and the
 * shopper would be asked to pay twice. A partial refund gives back that part only, so the payment
 * counts for its remainder; a payment refunded in full counts for nothing, as the spec says.
 */
export function transactionCounts(transaction: CountableTransaction): boolean {
  return transaction.paymentOK && transaction.amountRefunded < transaction.totalPrice;
}

/** Minor units a transaction contributes to what is paid: its total less refunds, if it counts. */
export function countedAmount(transaction: CountableTransaction): number {
  return transactionCounts(transaction)
    ? transaction.totalPrice - Math.max(0, transaction.amountRefunded)
    : 0;
}

/**
 * The transactions that count towards what a checkout has paid (spec §5): those with payment ok
 * and not refunded in full; none at all while some paid transaction allows reopening and the
 * checkout is not marked paid (the order is open for changes again, so its earlier payments are void).
 */
export function countedTransactions<T extends CountableTransaction>(checkout: CheckoutPayments<T>): T[] {
  const reopened = checkout.transactions.some(
    (transaction) => transaction.paymentOK && transaction.allowReopen,
  );
  if (reopened && !checkout.payed) return [];
  return checkout.transactions.filter(transactionCounts);
}

/** Minor units paid: what the counted transactions still hold after refunds. */
export function paidAmount(checkout: CheckoutPayments): number {
  return countedTransactions(checkout).reduce((sum, transaction) => sum + countedAmount(transaction), 0);
}

/** What is still to pay of `totalPrice` (never negative): the remaining amount of spec §4. */
export function remainingAmount(totalPrice: number, checkout: CheckoutPayments): number {
  return Math.max(0, totalPrice - paidAmount(checkout));
}

/** Whether counted payments cover a non-empty order's total. */
export function isPaidInFull(totalPrice: number, checkout: CheckoutPayments): boolean {
  return totalPrice > 0 && remainingAmount(totalPrice, checkout) === 0;
}

export interface TransactionSnapshot {
  status: TransactionStatus;
  paymentOK: boolean;
  amountRefunded: number;
  totalPrice: number;
}

export type TransactionUpdate = Pick<TransactionSnapshot, 'status' | 'paymentOK' | 'amountRefunded'>;

/**
 * What a provider event does to a transaction, or null when it changes nothing. Events may come
 * late, twice or out of order, so each only moves the transaction forward:
 * - succeeded makes it received from any other state (money arrived, even after the shopper
 *   gave up on the page);
 * - failed and canceled end only an attempt still awaiting confirmation;
 * - authorized changes nothing (the attempt already awaits confirmation);
 * - refunded adds `amount` to what was refunded of a received payment, up to its total.
 */
export function nextTransactionState(
  current: TransactionSnapshot,
  event: PaymentEventType,
  amount: number,
): TransactionUpdate | null {
  switch (event) {
    case 'payment.authorized':
      return null;
    case 'payment.succeeded':
      return current.status === 'received'
        ? null
        : { status: 'received', paymentOK: true, amountRefunded: current.amountRefunded };
    case 'payment.failed':
    case 'payment.canceled':
      return current.status === 'awaiting_confirmation'
        ? {
            status: event === 'payment.failed' ? 'declined' : 'abandoned',
            paymentOK: false,
            amountRefunded: current.amountRefunded,
          }
        : null;
    case 'payment.refunded': {
      if (current.status !== 'received' || amount <= 0) return null;
      const refunded = Math.min(current.totalPrice, current.amountRefunded + amount);
      return refunded === current.amountRefunded
        ? null
        : { status: current.status, paymentOK: current.paymentOK, amountRefunded: refunded };
    }
  }
}

/**
 * Whether a provider's confirmation of `amount` may count towards an order that still owes
 * `owed` (counted without this payment). Only what is owed is accepted: a payment started before
 * the order shrank, or a second attempt after another one already paid, must not count for more
 * than the order holds; that money is owed back to the shopper instead.
 */
export const confirmationFits = (amount: number, owed: number) => amount > 0 && amount <= owed;

/** Whether the shopper may start another payment after this attempt (declined or interrupted). */
export const isRetryable = (status: TransactionStatus) => status === 'declined' || status === 'abandoned';

/**
 * Whether an order counts as paid in analytics (issue 33 item 12): marked paid, or its ok
 * payments, before refunds, covered its total. A refund afterwards (part or all of it) is money
 * given back, which analytics reports as refunds; the order was still paid, and sending it to
 * packing does not change that either. An order that grew after its payment is paid once the
 * rest is.
 */
export function paidBeforeRefunds(
  order: { payed: boolean; totalPrice: number },
  transactions: readonly Pick<CountableTransaction, 'paymentOK' | 'totalPrice'>[],
): boolean {
  if (order.payed) return true;
  const received = transactions
    .filter((transaction) => transaction.paymentOK)
    .reduce((sum, transaction) => sum + transaction.totalPrice, 0);
  return order.totalPrice > 0 && received >= order.totalPrice;
}

/** Minor units given back of an order's payments (each at most what it was for). */
export const refundedAmount = (
  transactions: readonly Pick<CountableTransaction, 'paymentOK' | 'amountRefunded' | 'totalPrice'>[],
): number =>
  transactions
    .filter((transaction) => transaction.paymentOK)
    .reduce(
      (sum, transaction) => sum + Math.min(transaction.totalPrice, Math.max(0, transaction.amountRefunded)),
      0,
    );
