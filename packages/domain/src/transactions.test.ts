import { describe, expect, it } from 'vitest';
import {
  type CountableTransaction,
  confirmationFits,
  countedAmount,
  countedTransactions,
  isPaidInFull,
  isRetryable,
  nextTransactionState,
  paidAmount,
  paidBeforeRefunds,
  refundedAmount,
  remainingAmount,
  type TransactionSnapshot,
  transactionCounts,
} from './transactions.ts';

const paid = (totalPrice: number, extra: Partial<CountableTransaction> = {}): CountableTransaction => ({
  paymentOK: true,
  allowReopen: false,
  amountRefunded: 0,
  totalPrice,
  ...extra,
});

describe('transaction counting (spec §5)', () => {
  it('counts a transaction only when payment is ok and nothing is refunded', () => {
    expect(transactionCounts(paid(100))).toBe(true);
    expect(transactionCounts(paid(100, { paymentOK: false }))).toBe(false);
    expect(transactionCounts(paid(100, { amountRefunded: 100 }))).toBe(false);
  });

  it('counts a partly refunded payment for what it still holds, not for nothing', () => {
    // A refund of 1 minor unit gives back that unit only; the shopper is not asked to pay again.
    expect(transactionCounts(paid(100, { amountRefunded: 1 }))).toBe(true);
    expect(countedAmount(paid(100, { amountRefunded: 1 }))).toBe(99);
    expect(countedAmount(paid(100, { amountRefunded: 100 }))).toBe(0);
    const checkout = { payed: true, transactions: [paid(5000, { amountRefunded: 1 })] };
    expect(paidAmount(checkout)).toBe(4999);
    expect(remainingAmount(5000, checkout)).toBe(1);
    expect(isPaidInFull(5000, checkout)).toBe(false);
    expect(
      paidAmount({ payed: false, transactions: [paid(3000, { amountRefunded: 1000 }), paid(700)] }),
    ).toBe(2700);
  });

  it('accepts a confirmation only for what the order still owes', () => {
    expect(confirmationFits(5000, 5000)).toBe(true);
    // The order grew after the payment started: it pays part of the order.
    expect(confirmationFits(5000, 8000)).toBe(true);
    // Another attempt already paid, or the order shrank: that money is owed back.
    expect(confirmationFits(5000, 0)).toBe(false);
    expect(confirmationFits(14_900, 4_900)).toBe(false);
  });

  it('sums the counted transactions and leaves the rest to pay', () => {
    const checkout = { payed: false, transactions: [paid(3000), paid(500, { paymentOK: false }), paid(700)] };
    expect(countedTransactions(checkout)).toHaveLength(2);
    expect(paidAmount(checkout)).toBe(3700);
    expect(remainingAmount(5000, checkout)).toBe(1300);
    expect(isPaidInFull(5000, checkout)).toBe(false);
    expect(isPaidInFull(3700, checkout)).toBe(true);
  });

  it('never leaves a negative remaining amount', () => {
    expect(remainingAmount(1000, { payed: true, transactions: [paid(1500)] })).toBe(0);
  });

  it('counts nothing while a paid transaction allows reopen and the checkout is not paid', () => {
    const transactions = [paid(2000), paid(1000, { allowReopen: true })];
    expect(countedTransactions({ payed: false, transactions })).toEqual([]);
    expect(paidAmount({ payed: false, transactions })).toBe(0);
    expect(remainingAmount(3000, { payed: false, transactions })).toBe(3000);
  });

  it('counts normally when the reopenable transaction is not paid, or the checkout is paid', () => {
    const unpaidReopen = [paid(2000), paid(1000, { allowReopen: true, paymentOK: false })];
    expect(paidAmount({ payed: false, transactions: unpaidReopen })).toBe(2000);
    const paidReopen = [paid(2000), paid(1000, { allowReopen: true })];
    expect(paidAmount({ payed: true, transactions: paidReopen })).toBe(3000);
  });

  it('is not paid in full for an empty order', () => {
    expect(isPaidInFull(0, { payed: false, transactions: [] })).toBe(false);
  });
});

describe('nextTransactionState', () => {
  const awaiting: TransactionSnapshot = {
    status: 'awaiting_confirmation',
    paymentOK: false,
    amountRefunded: 0,
    totalPrice: 5000,
  };
  const received: TransactionSnapshot = { ...awaiting, status: 'received', paymentOK: true };

  it('goes from awaiting confirmation to received on success (spec §4)', () => {
    expect(nextTransactionState(awaiting, 'payment.succeeded', 5000)).toEqual({
      status: 'received',
      paymentOK: true,
      amountRefunded: 0,
    });
  });

  it('does nothing on authorization: the attempt already awaits confirmation', () => {
    expect(nextTransactionState(awaiting, 'payment.authorized', 5000)).toBeNull();
    expect(nextTransactionState(received, 'payment.authorized', 5000)).toBeNull();
  });

  it('ends an awaiting attempt as declined or abandoned, which are retryable', () => {
    expect(nextTransactionState(awaiting, 'payment.failed', 5000)?.status).toBe('declined');
    expect(nextTransactionState(awaiting, 'payment.canceled', 5000)?.status).toBe('abandoned');
    expect(isRetryable('declined')).toBe(true);
    expect(isRetryable('abandoned')).toBe(true);
    expect(isRetryable('received')).toBe(false);
    expect(isRetryable('awaiting_confirmation')).toBe(false);
  });

  it('ignores late failures and cancellations of a received payment (events out of order)', () => {
    expect(nextTransactionState(received, 'payment.failed', 5000)).toBeNull();
    expect(nextTransactionState(received, 'payment.canceled', 5000)).toBeNull();
    expect(nextTransactionState(received, 'payment.succeeded', 5000)).toBeNull();
  });

  it('takes a success after an abandoned page: the money arrived', () => {
    const abandoned: TransactionSnapshot = { ...awaiting, status: 'abandoned' };
    expect(nextTransactionState(abandoned, 'payment.succeeded', 5000)?.status).toBe('received');
  });

  it('adds refunds of a received payment up to its total', () => {
    expect(nextTransactionState(received, 'payment.refunded', 2000)).toEqual({
      status: 'received',
      paymentOK: true,
      amountRefunded: 2000,
    });
    const partly = { ...received, amountRefunded: 4000 };
    expect(nextTransactionState(partly, 'payment.refunded', 2000)?.amountRefunded).toBe(5000);
    expect(nextTransactionState({ ...received, amountRefunded: 5000 }, 'payment.refunded', 1)).toBeNull();
    expect(nextTransactionState(awaiting, 'payment.refunded', 1000)).toBeNull();
    expect(nextTransactionState(received, 'payment.refunded', 0)).toBeNull();
  });
});

describe('paid in analytics (issue 33 item 12)', () => {
  const payment = (totalPrice: number, amountRefunded = 0) => ({
    paymentOK: true,
    allowReopen: false,
    amountRefunded,
    totalPrice,
  });

  it('counts an order paid, packed and partly refunded as paid, with its refund apart', () => {
    // payed was cleared when the refund left less than the total counted.
    expect(paidBeforeRefunds({ payed: false, totalPrice: 22_800 }, [payment(22_800, 10_000)])).toBe(true);
    expect(refundedAmount([payment(22_800, 10_000)])).toBe(10_000);
    expect(paidBeforeRefunds({ payed: false, totalPrice: 22_800 }, [payment(22_800, 22_800)])).toBe(true);
  });

  it('does not count an unpaid, declined or grown order as paid', () => {
    expect(paidBeforeRefunds({ payed: false, totalPrice: 22_800 }, [])).toBe(false);
    expect(
      paidBeforeRefunds({ payed: false, totalPrice: 22_800 }, [{ ...payment(22_800), paymentOK: false }]),
    ).toBe(false);
    expect(paidBeforeRefunds({ payed: false, totalPrice: 40_700 }, [payment(22_800)])).toBe(false);
    expect(paidBeforeRefunds({ payed: false, totalPrice: 0 }, [])).toBe(false);
    expect(paidBeforeRefunds({ payed: true, totalPrice: 22_800 }, [])).toBe(true);
    expect(refundedAmount([{ ...payment(100, 500) }, { ...payment(100, 50), paymentOK: false }])).toBe(100);
  });
});
