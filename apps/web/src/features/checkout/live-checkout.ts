import type { CheckoutReservationDoc, CheckoutView } from '@vitrine/protocol';

/**
 * Whether the checkout a page shows is behind its reservation's live document as first received:
 * the page loads the checkout, then subscribes, and an order that moved on in between (sent to
 * packing, paid) is only in the subscription's first snapshot, which no later change follows.
 * Compares the order's state of the same checkout (the document follows the shopper's current
 * reservation, which may be a newer cart).
 */
export function checkoutBehindLive(
  view: Pick<CheckoutView, 'uid' | 'status' | 'payed'>,
  doc: Pick<CheckoutReservationDoc, 'checkoutUid' | 'status' | 'payed'>,
): boolean {
  if (doc.checkoutUid !== view.uid) return false;
  return (
    (doc.status !== undefined && doc.status !== view.status) ||
    (doc.payed !== undefined && doc.payed !== view.payed)
  );
}
