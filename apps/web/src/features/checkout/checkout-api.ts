import type {
  CancelReservationRequest,
  FindParcelShopsRequest,
  LoadCheckoutRequest,
  UpdateCheckoutDetailsInput,
  UserPaymentStartedRequest,
  WidgetContext,
} from '@vitrine/protocol';
import { callAsViewer } from '../../lib/session.ts';

/**
 * The cart, checkout, order and payment calls of spec §7 (schemas in packages/protocol cart.ts),
 * made as the viewer (bearer id token). The two the player needs are in cart-api.ts, so its first
 * bundle carries only those. Only types come from the protocol (no zod in the browser bundle).
 */

export { addSingle, changeCheckoutProductQuantity } from './cart-api.ts';

type CheckoutRef = LoadCheckoutRequest;

export const getCartUid = (input: {
  campaignUid: string;
  pageUid: string;
  context?: WidgetContext;
  create?: boolean;
}) => callAsViewer('getCartUid', input);

export const cancelReservation = (
  input: Omit<CancelReservationRequest, 'variantUid'> & { variantUid?: string | null },
) => callAsViewer('cancelReservation', input);

export const loadCheckout = (ref: CheckoutRef) => callAsViewer('loadCheckout', ref);

export const checkoutOptions = (ref: CheckoutRef) => callAsViewer('checkoutOptions', ref);

export const updateCheckoutDetails = (input: UpdateCheckoutDetailsInput) =>
  callAsViewer('updateCheckoutDetails', input);

export const findParcelShops = (input: FindParcelShopsRequest) => callAsViewer('findParcelShops', input);

export const placeOrder = (ref: CheckoutRef) => callAsViewer('placeOrder', ref);

export const userPaymentStarted = (
  input: Omit<UserPaymentStartedRequest, 'context'> & { context?: WidgetContext },
) => callAsViewer('userPaymentStarted', input);
