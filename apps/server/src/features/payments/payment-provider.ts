import type { PaymentWebhookEvent } from '@vitrine/protocol';
import type { SignatureCheck } from './webhook-signature.ts';

/**
 * A payment provider: where a shopper pays a transaction, and how its webhooks are verified.
 * Events it reports are applied by the payment service, which makes them idempotent.
 */
export interface PaymentProvider {
  /** Stored on transactions and in the webhook path: /payments/<id>/webhook. */
  readonly id: string;
  /** The provider's page where the shopper pays the transaction (absolute URL). */
  paymentPageUrl(origin: string, transactionUid: string): string;
  /** Whether a webhook delivery is authentic and fresh. */
  verifyWebhook(rawBody: string, signatureHeader: string | undefined, nowMs: number): Promise<SignatureCheck>;
  /** Parses a verified webhook body into a provider-neutral event. */
  parseEvent(rawBody: string): PaymentWebhookEvent;
}
