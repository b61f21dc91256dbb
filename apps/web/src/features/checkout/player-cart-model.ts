import type { CheckoutReservationDoc } from '@vitrine/protocol';
import type { AddOutcome } from './add-feedback.tsx';

export type ReservationLine = CheckoutReservationDoc['reservations'][number];

/** Failed cart updates so far: one ("There was an error…") or several ("Multiple errors…"). */
export type CartUpdateError = 'single' | 'multiple';

/**
 * The player's built-in cart as its hook (usePlayerCart, player-cart.tsx) gives it to the cart
 * panel, which loads lazily (cart-panel.tsx), and to the player's product buttons.
 */
export interface PlayerCart {
  reservation: CheckoutReservationDoc | null;
  /** The cart's checkout uid: undefined while it loads, null when there is none. */
  checkoutUid: string | null | undefined;
  itemCount: number;
  /** The one-page checkout of this cart, once there is one. */
  checkoutPath: string | null;
  add(productUid: string, variantUid: string | null): Promise<AddOutcome>;
  setQuantity(line: ReservationLine, quantity: number): Promise<AddOutcome>;
  updateError: CartUpdateError | null;
  dismissUpdateError(): void;
}
