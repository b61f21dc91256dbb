import { createHash, randomBytes } from 'node:crypto';
import { PAYMENT_SIGNATURE_HEADER, PaymentWebhookEvent } from '@vitrine/protocol';
import type { Database } from '../../../db/database.ts';
import { sharedSecret } from '../../../db/server-secrets.ts';
import { parseInput } from '../../../http/errors.ts';
import type { PaymentProvider, PaymentRefund } from './payment-provider.ts';
import { checkWebhookSignature, signWebhook } from './webhook-signature.ts';

/** The server_secrets row holding the test provider's webhook signing secret. */
export const TEST_PROVIDER_SECRET = 'payment_test_webhook';

/**
 * The built-in test payment provider: a hosted payment page on this server (approve, decline,
 * abandon) that reports the outcome by HMAC-signed webhooks, like a real provider would. The
 * secret lives in the database so every server node signs and verifies alike.
 */
export function createTestPaymentProvider(db: Database) {
  let secret: Promise<Buffer> | undefined;
  /** Delivers the provider's refund webhook; set where the provider's page is served. */
  let refundDelivery: ((refund: PaymentRefund) => Promise<void>) | null = null;

  async function loadSecret(): Promise<Buffer> {
    const secret = await sharedSecret(db, TEST_PROVIDER_SECRET, 32);
    if (!secret) throw new Error(`server_secrets.${TEST_PROVIDER_SECRET} is missing`);
    return secret;
  }

  function webhookSecret(): Promise<Buffer> {
    if (!secret) {
      secret = loadSecret();
      secret.catch(() => {
        secret = undefined;
      });
    }
    return secret;
  }

  const provider: PaymentProvider & {
    deliverRefundsWith(delivery: (refund: PaymentRefund) => Promise<void>): void;
    webhookSecret(): Promise<Buffer>;
    signedEvent(event: PaymentWebhookEvent, nowMs: number): Promise<{ body: string; signature: string }>;
  } = {
    id: 'test',
    signatureHeader: PAYMENT_SIGNATURE_HEADER,
    /**
     * The page key is returned only to the shopper who started the payment, in the payment URL:
     * whoever holds just the transaction id (the return URL, logs, a shoulder) cannot approve.
     */
    async createPayment(request) {
      const key = randomBytes(24).toString('base64url');
      return {
        paymentUrl: `${request.origin}/payments/test/pay/${encodeURIComponent(request.transactionUid)}?key=${key}`,
        sessionId: null,
        pageKeyHash: pageKeyHash(key),
      };
    },
    async verifyWebhook(rawBody, header, nowMs) {
      return checkWebhookSignature(await webhookSecret(), rawBody, header, nowMs);
    },
    /**
     * Refunds at once, as a real provider would report it: a signed payment.refunded webhook.
     * Only staff refunds: a payment the order did not owe stays flagged (refundDue) here, since
     * the test provider never names its payments (providerPaymentId) for the automatic refund.
     */
    async refund(refund) {
      if (!refundDelivery) throw new Error('The test payment provider is not served here.');
      await refundDelivery(refund);
    },
    deliverRefundsWith(delivery) {
      refundDelivery = delivery;
    },
    parseEvent(rawBody) {
      let json: unknown;
      try {
        json = JSON.parse(rawBody);
      } catch {
        json = undefined;
      }
      const event = parseInput(PaymentWebhookEvent, json);
      return {
        id: event.id,
        type: event.type,
        transactionUid: event.transactionUid,
        providerPaymentId: null,
        amount: event.amount,
        currency: event.currency,
        refundedTotal: null,
      };
    },
    webhookSecret,
    /** A webhook delivery as the provider sends it: the body and its signature header. */
    async signedEvent(event, nowMs) {
      const body = JSON.stringify(event);
      return { body, signature: signWebhook(await webhookSecret(), body, nowMs) };
    },
  };
  return provider;
}

/** SHA-256 (hex) of a payment page key, as stored on the transaction. */
export const pageKeyHash = (key: string) => createHash('sha256').update(key).digest('hex');

export type TestPaymentProvider = ReturnType<typeof createTestPaymentProvider>;
