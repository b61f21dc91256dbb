import { describe, expect, it } from 'vitest';
import { keepsPaidAmount, lineChanges } from './order-state.ts';

describe('lineChanges', () => {
  it('lets an open cart change freely', () => {
    expect(lineChanges({ status: 'open', paidAmount: 0, paymentOpen: false })).toEqual({
      canIncrease: true,
      canReduce: true,
      reduceBlockedBy: null,
    });
  });

  it('lets an unpaid order change freely', () => {
    expect(lineChanges({ status: 'ordered', paidAmount: 0, paymentOpen: false }).canReduce).toBe(true);
  });

  it('keeps paid lines: an order with received payments only grows', () => {
    expect(lineChanges({ status: 'ordered', paidAmount: 17_900, paymentOpen: false })).toEqual({
      canIncrease: true,
      canReduce: false,
      reduceBlockedBy: 'paid',
    });
  });

  it('keeps lines while a payment is under way, paid or not', () => {
    expect(lineChanges({ status: 'ordered', paidAmount: 0, paymentOpen: true }).reduceBlockedBy).toBe(
      'paymentOpen',
    );
    expect(lineChanges({ status: 'ordered', paidAmount: 500, paymentOpen: true }).reduceBlockedBy).toBe(
      'paymentOpen',
    );
  });

  it('changes nothing once sent to packing', () => {
    expect(lineChanges({ status: 'locked', paidAmount: 17_900, paymentOpen: false })).toEqual({
      canIncrease: false,
      canReduce: false,
      reduceBlockedBy: 'locked',
    });
  });

  it('after a payment, lets a line added later go but keeps the paid ones (issue 27)', () => {
    // Paid DKK 228.00 (the mug and freight); a DKK 360.00 line was added afterwards.
    const order = { status: 'ordered' as const, paidAmount: 22_800, paymentOpen: false, total: 58_800 };
    expect(lineChanges(order, 36_000)).toEqual({ canIncrease: true, canReduce: true, reduceBlockedBy: null });
    // Taking the mug away instead would leave less than was received.
    expect(lineChanges(order, 36_000 + 17_900).reduceBlockedBy).toBe('paid');
    expect(lineChanges({ ...order, total: 22_800 }, 17_900).reduceBlockedBy).toBe('paid');
    // Without the line's amount, a paid order counts as not reducible.
    expect(lineChanges(order).reduceBlockedBy).toBe('paid');
  });

  it('compares what stays with what was received', () => {
    expect(keepsPaidAmount(58_800, 36_000, 22_800)).toBe(true);
    expect(keepsPaidAmount(58_800, 36_001, 22_800)).toBe(false);
  });
});
