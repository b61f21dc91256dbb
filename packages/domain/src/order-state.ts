import type { CheckoutStatus } from './vocabulary.ts';

/** What the shopper can still change on the lines of a cart or order, and why not. */
export interface LineChanges {
  /** Units can be added (+). */
  canIncrease: boolean;
  /** Units can be taken away or lines removed (− and ×). */
  canReduce: boolean;
  /**
   * Why lines cannot be reduced: `locked` once sent to packing; `paid` when payments were
   * received (giving units back needs a refund the shop makes); `paymentOpen` while a payment
   * awaits confirmation (it must never exceed what the order holds). Null when they can.
   */
  reduceBlockedBy: 'locked' | 'paid' | 'paymentOpen' | null;
}

/**
 * The line changes the server accepts (the same rules as the cart service's refusals: 423 locked,
 * 409 order_paid, 409 payment_open), so the cart and checkout disable what would be refused.
 * Received payments keep what they paid for: units can go only while the order's total (freight
 * included) stays at or above what was received, so a line added after a payment stays removable
 * (issue 27) and the paid ones stay. `removed` is what the change takes off the total (a line's
 * unit price for one unit); without it, any reduction of a paid order counts as too much.
 */
export function lineChanges(
  order: {
    status: CheckoutStatus;
    paidAmount: number;
    paymentOpen: boolean;
    /** The order's total with freight, minor units. */
    total?: number;
  },
  removed = Number.POSITIVE_INFINITY,
): LineChanges {
  if (order.status === 'locked') return { canIncrease: false, canReduce: false, reduceBlockedBy: 'locked' };
  if (order.paymentOpen) return { canIncrease: true, canReduce: false, reduceBlockedBy: 'paymentOpen' };
  if (order.paidAmount > 0 && !keepsPaidAmount(order.total ?? 0, removed, order.paidAmount)) {
    return { canIncrease: true, canReduce: false, reduceBlockedBy: 'paid' };
  }
  return { canIncrease: true, canReduce: true, reduceBlockedBy: null };
}

/** Whether an order's total, less what a change removes, still covers what was received. */
export const keepsPaidAmount = (total: number, removed: number, paidAmount: number): boolean =>
  total - removed >= paidAmount;
