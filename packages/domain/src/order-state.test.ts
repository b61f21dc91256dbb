import { describe, expect, it } from 'vitest';
import { lineChanges } from './order-state.ts';

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
});
