import { z } from 'zod';
import {
  AddSingleRequest,
  CancelReservationRequest,
  CartUpdateResponse,
  ChangeCheckoutProductQuantityRequest,
  CheckoutOptions,
  CheckoutOptionsRequest,
  CheckoutView,
  FindParcelShopsRequest,
  FindParcelShopsResponse,
  GetCartUidRequest,
  GetCartUidResponse,
  LoadCheckoutRequest,
  LoadUserReservationRequest,
  PaymentStarted,
  PaymentWebhookEvent,
  PingRequest,
  PingResponse,
  PlaceOrderRequest,
  SaveUserReservationRequest,
  UpdateCheckoutDetailsRequest,
  UserPaymentStartedRequest,
  UserReservation,
} from '../cart.ts';
import type { CallSchemas } from './define-call.ts';

/** What a payment webhook did with an event: applied, ignored (not a step forward), a duplicate, or a payment to refund. */
export const PaymentWebhookOutcome = z.enum(['applied', 'ignored', 'duplicate', 'refund_due']);
export type PaymentWebhookOutcome = z.infer<typeof PaymentWebhookOutcome>;
export const PaymentWebhookResponse = z.object({ outcome: PaymentWebhookOutcome });

/** The cart, the checkout pages, payment and packing (protocol cart.ts). */
export const checkoutCalls = {
  getCartUid: {
    bodyOptional: true,
    summary: "The shopper's checkout in a campaign, or null; create: true makes an empty one.",
    request: GetCartUidRequest,
    response: GetCartUidResponse,
  },
  addSingle: {
    bodyOptional: true,
    summary:
      'Adds a product in the currency the shopper is shown; always 200 with a status (added, soldOut, variantMissing, notFound, expired).',
    request: AddSingleRequest,
    response: CartUpdateResponse,
  },
  changeCheckoutProductQuantity: {
    bodyOptional: true,
    summary: "Sets a line's quantity (0 removes it); soldOut keeps the line as it was.",
    request: ChangeCheckoutProductQuantityRequest,
    response: CartUpdateResponse,
  },
  cancelReservation: {
    bodyOptional: true,
    summary: 'Removes one line, or the whole checkout without productUid.',
    request: CancelReservationRequest,
    response: CartUpdateResponse,
  },
  loadUserReservation: {
    bodyOptional: true,
    summary:
      "The shopper's saved language, currency and checkout for a campaign (user must be the caller, else 403).",
    request: LoadUserReservationRequest,
    response: UserReservation,
  },
  saveUserReservation: {
    bodyOptional: true,
    summary: 'Saves them; a new currency reprices an open cart, a new language becomes the checkout’s.',
    request: SaveUserReservationRequest,
    response: UserReservation,
  },
  ping: {
    bodyOptional: true,
    summary: 'The shopper is still on the checkout: renews the stock hold of an open cart.',
    request: PingRequest,
    response: PingResponse,
  },
  loadCheckout: {
    bodyOptional: true,
    summary: 'The checkout page: lines, totals, details, problems, transactions.',
    request: LoadCheckoutRequest,
    response: CheckoutView,
  },
  checkoutOptions: {
    bodyOptional: true,
    summary: 'Delivery countries, shipping methods with prices, payment methods, pickup locations.',
    request: CheckoutOptionsRequest,
    response: CheckoutOptions,
  },
  findParcelShops: {
    bodyOptional: true,
    summary: 'Parcel shops near an address; empty when none is found.',
    request: FindParcelShopsRequest,
    response: FindParcelShopsResponse,
  },
  updateCheckoutDetails: {
    bodyOptional: true,
    summary: 'Stores the whole checkout form (address derived fields are computed by the server).',
    request: UpdateCheckoutDetailsRequest,
    response: CheckoutView,
  },
  placeOrder: {
    bodyOptional: true,
    summary: 'Makes the checkout an order with a number; purchases are published.',
    request: PlaceOrderRequest,
    response: CheckoutView,
  },
  userPaymentStarted: {
    bodyOptional: true,
    summary:
      'Places the order if needed and opens a payment for the remaining amount; the payment page returns to returnPath with ?transaction=<uid>. 503 no_payment_provider.',
    request: UserPaymentStartedRequest,
    response: PaymentStarted,
  },
  sendToPacking: {
    summary: 'Locks a placed order for packing; 409 not_ordered for a cart.',
    params: z.object({ checkoutUid: z.string().min(1).max(128) }),
    response: CheckoutView,
  },
  paymentWebhook: {
    summary:
      "A payment provider's signed event (test provider: vitrine-signature; Stripe: Stripe-Signature). 401 for a missing, forged or stale signature; 422 when amount or currency do not match.",
    params: z.object({ providerId: z.string().min(1).max(32) }),
    request: PaymentWebhookEvent,
    rawBody: true,
    response: PaymentWebhookResponse,
  },
} satisfies Record<string, CallSchemas>;
