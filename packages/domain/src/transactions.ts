/**
 * Payment transactions of a checkout and how they count (spec §3 "Checkout", §5 "Other rules"),
 * and how a payment provider's events move a transaction (spec §4 "Orders and payment").
 */

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

/** A transaction counts only if its payment is ok and it is not refunded (spec §5). */
export function transactionCounts(transaction: CountableTransaction): boolean {
  return transaction.paymentOK && transaction.amountRefunded <= 0;
}

/**
 * The transactions that count towards what a checkout has paid (spec §5): those with payment ok
 * and nothing refunded; none at all while some paid transaction allows reopening and the checkout
 * is not marked paid (the order is open for changes again, so its earlier payments are void).
 */
export function countedTransactions<T extends CountableTransaction>(checkout: CheckoutPayments<T>): T[] {
  const reopened = checkout.transactions.some(
    (transaction) => transaction.paymentOK && transaction.allowReopen,
  );
  if (reopened && !checkout.payed) return [];
  return checkout.transactions.filter(transactionCounts);
}

/** Minor units paid: the sum of the counted transactions. */
export function paidAmount(checkout: CheckoutPayments): number {
  return countedTransactions(checkout).reduce((sum, transaction) => sum + transaction.totalPrice, 0);
}

/** What is still to pay of `totalPrice` (never negative): the remaining amount of spec §4. */
export function remainingAmount(totalPrice: number, checkout: CheckoutPayments): number {
  return Math.max(0, totalPrice - paidAmount(checkout));
}

/** Whether counted payments cover a non-empty order's total. */
export function isPaidInFull(totalPrice: number, checkout: CheckoutPayments): boolean {
  return totalPrice > 0 && remainingAmount(totalPrice, checkout) === 0;
}

/**
 * A payment attempt's state. It starts awaiting confirmation when the shopper is sent to the
 * provider, and becomes received once the provider confirms the money (spec §4). Declined and
 * abandoned (interrupted) attempts are retried with a new transaction.
 */
export type TransactionState = 'awaiting_confirmation' | 'received' | 'declined' | 'abandoned';

export type PaymentEvent =
  | 'payment.authorized'
  | 'payment.succeeded'
  | 'payment.failed'
  | 'payment.canceled'
  | 'payment.refunded';

export interface TransactionSnapshot {
  status: TransactionState;
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
  event: PaymentEvent,
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

/** Whether the shopper may start another payment after this attempt (declined or interrupted). */
export const isRetryable = (status: TransactionState) => status === 'declined' || status === 'abandoned';
