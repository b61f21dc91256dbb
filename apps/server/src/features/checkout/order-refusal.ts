import { orderRefusal } from '@vitrine/domain';
import { CHECKOUT_ERROR_CODES, ORDER_MESSAGES } from '@vitrine/protocol';
import type { CheckoutStatus } from '@vitrine/protocol/vocabulary';
import { HttpError } from '../../http/errors.ts';

/**
 * The HTTP error refusing an order change or payment (spec §4, §8 texts verbatim), or null when
 * it is allowed: 423 once sent to packing, 409 past the campaign deadline.
 */
export function orderRefusalError(
  status: CheckoutStatus,
  deadline: number | null,
  now: number,
  action: Parameters<typeof orderRefusal>[2],
): HttpError | null {
  switch (orderRefusal({ status, deadline }, now, action)) {
    case 'locked':
      return new HttpError(423, CHECKOUT_ERROR_CODES.orderLocked, ORDER_MESSAGES.locked);
    case 'deadlineOverdue':
      return new HttpError(409, CHECKOUT_ERROR_CODES.deadlineOverdue, ORDER_MESSAGES.deadlineOverdue);
    case null:
      return null;
  }
}
