import type { PaymentEventType } from '@vitrine/protocol';
import type { Currency } from '@vitrine/protocol/vocabulary';
import type { SignatureCheck } from './webhook-signature.ts';

/** What a provider needs to open a payment for a transaction. */
export interface PaymentRequest {
  transactionUid: string;
  amount: number;
  currency: Currency;
  /** This server's origin as the shopper reached it, e.g. https://shop.example. */
  origin: string;
  /** Site-relative path the shopper returns to (header-safe). */
  returnPath: string;
  storeName: string;
  orderNumber: number | null;
}

/** A payment opened at the provider. */
export interface OpenedPayment {
  /** Where the shopper pays (absolute URL). */
  paymentUrl: string;
  /** The provider's id of this payment session (Stripe: the Checkout Session id). */
  sessionId: string | null;
  /** SHA-256 (hex) of the secret that opens our own hosted page, for the test provider. */
  pageKeyHash: string | null;
}

/**
 * A verified provider event in provider-neutral terms. It names its transaction by our uid or by
 * the provider's payment id (refunds name only the provider's payment).
 */
export interface ProviderEvent {
  id: string;
  type: PaymentEventType;
  transactionUid: string | null;
  /** The provider's id of the payment (Stripe: the PaymentIntent), when the event names one. */
  providerPaymentId: string | null;
  /** Minor units: the payment's amount, or for a refund the amount refunded by this event. */
  amount: number;
  currency: Currency;
  /** For refunds reported as a running total (Stripe's charge.amount_refunded): that total. */
  refundedTotal: number | null;
}

/** A refund of (part of) one payment. */
export interface PaymentRefund {
  /** The provider's id of the payment (Stripe: the PaymentIntent); null when it never told us one. */
  providerPaymentId: string | null;
  transactionUid: string;
  amount: number;
  currency: Currency;
  refundUid: string | null;
}

/**
 * A payment provider: where a shopper pays a transaction, and how its webhooks are verified.
 * Events it reports are applied by the payment service, which makes them idempotent.
 */
export interface PaymentProvider {
  /** Stored on transactions and in the webhook path: /payments/<id>/webhook. */
  readonly id: string;
  /** The header carrying the webhook signature. */
  readonly signatureHeader: string;
  /** Opens the payment at the provider. */
  createPayment(request: PaymentRequest): Promise<OpenedPayment>;
  /** Whether a webhook delivery is authentic and fresh. */
  verifyWebhook(rawBody: string, signatureHeader: string | undefined, nowMs: number): Promise<SignatureCheck>;
  /** Parses a verified webhook body; null for an event this server has no use for. */
  parseEvent(rawBody: string): ProviderEvent | null;
  /** Closes a payment session that a newer attempt replaced, so it can no longer be paid. */
  cancelPayment?(sessionId: string): Promise<void>;
  /**
   * Refunds `amount` of a received payment to the shopper; the provider reports it by webhook.
   * `refundUid` names a refund staff asked for (its idempotency key; a retry is the same refund),
   * null for giving back a payment the order did not owe. Throws when the provider refuses.
   */
  refund?(refund: PaymentRefund): Promise<void>;
}
