import { CurrencyCode, type PaymentEventType } from '@vitrine/protocol';
import { z } from 'zod';
import { parseInput } from '../../../http/errors.ts';
import type { PaymentProvider, ProviderEvent } from './payment-provider.ts';
import { checkWebhookSignature } from './webhook-signature.ts';

/** The header of Stripe's webhook signature, `t=<unix seconds>,v1=<hex HMAC-SHA256>`. */
export const STRIPE_SIGNATURE_HEADER = 'stripe-signature';

/** How long a call to Stripe's API may take before the shopper is told to try again. */
const STRIPE_TIMEOUT_MS = 15_000;

export interface StripeSettings {
  /** Secret API key (sk_live_… / sk_test_…). */
  secretKey: string;
  /** The webhook endpoint's signing secret (whsec_…), used as the HMAC key as it is. */
  webhookSecret: string;
  /** https://api.stripe.com, or a local stand-in in tests. */
  apiBase: string;
}

const StripeCurrency = z
  .string()
  .transform((code) => code.toUpperCase())
  .pipe(CurrencyCode);

/** The fields of a Checkout Session this server reads. */
const CheckoutSession = z.object({
  id: z.string(),
  client_reference_id: z.string().nullable().optional(),
  metadata: z.record(z.string(), z.string()).nullable().optional(),
  payment_intent: z.string().nullable().optional(),
  payment_status: z.enum(['paid', 'unpaid', 'no_payment_required']),
  amount_total: z.number().int().nonnegative(),
  currency: StripeCurrency,
});

/** The fields of a Charge this server reads (charge.refunded). */
const Charge = z.object({
  payment_intent: z.string(),
  amount_refunded: z.number().int().nonnegative(),
  currency: StripeCurrency,
});

const StripeEvent = z.object({
  id: z.string().min(1).max(255),
  type: z.string(),
  data: z.object({ object: z.unknown() }),
});

const SESSION_EVENTS: Record<string, PaymentEventType> = {
  'checkout.session.async_payment_succeeded': 'payment.succeeded',
  'checkout.session.async_payment_failed': 'payment.failed',
  'checkout.session.expired': 'payment.canceled',
};

/**
 * Stripe Checkout Sessions (https://docs.stripe.com/api/checkout/sessions) over plain HTTPS:
 * a session per transaction (form-encoded POST /v1/checkout/sessions), the shopper pays on
 * Stripe's page, and signed webhooks report the outcome. Our transaction uid travels as the
 * session's client_reference_id and metadata; refunds name the PaymentIntent, which the
 * completed session told us.
 */
export function createStripeProvider(settings: StripeSettings): PaymentProvider {
  const secret = Buffer.from(settings.webhookSecret, 'utf8');

  /** A form-encoded POST to Stripe's API; the answer's text, or an error for any non-2xx. */
  async function post(path: string, form: URLSearchParams, idempotencyKey: string | null): Promise<string> {
    const response = await fetch(new URL(path, settings.apiBase), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${settings.secretKey}`,
        'content-type': 'application/x-www-form-urlencoded',
        ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
      },
      body: form.toString(),
      signal: AbortSignal.timeout(STRIPE_TIMEOUT_MS),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`Stripe answered ${response.status} to ${path}: ${text.slice(0, 500)}`);
    return text;
  }
  return {
    id: 'stripe',
    signatureHeader: STRIPE_SIGNATURE_HEADER,
    async createPayment(request) {
      const back = `${request.origin}${request.returnPath}${request.returnPath.includes('?') ? '&' : '?'}transaction=${encodeURIComponent(request.transactionUid)}`;
      const name =
        request.orderNumber === null
          ? request.storeName
          : `${request.storeName} – order ${request.orderNumber}`;
      const form = new URLSearchParams({
        mode: 'payment',
        'line_items[0][quantity]': '1',
        'line_items[0][price_data][currency]': request.currency.toLowerCase(),
        'line_items[0][price_data][unit_amount]': String(request.amount),
        'line_items[0][price_data][product_data][name]': name || 'Order',
        client_reference_id: request.transactionUid,
        'metadata[transaction_uid]': request.transactionUid,
        'payment_intent_data[metadata][transaction_uid]': request.transactionUid,
        success_url: back,
        cancel_url: back,
      });
      // A retried request never opens a second session for the same transaction.
      const text = await post('/v1/checkout/sessions', form, `vitrine-${request.transactionUid}`);
      const session = z.object({ id: z.string(), url: z.string().url() }).parse(JSON.parse(text));
      return { paymentUrl: session.url, sessionId: session.id, pageKeyHash: null };
    },
    async cancelPayment(sessionId) {
      await post(
        `/v1/checkout/sessions/${encodeURIComponent(sessionId)}/expire`,
        new URLSearchParams(),
        null,
      );
    },
    async refund({ providerPaymentId, amount, transactionUid, refundUid }) {
      if (!providerPaymentId) throw new Error('Stripe has not named this payment (no PaymentIntent) yet.');
      await post(
        '/v1/refunds',
        new URLSearchParams({
          payment_intent: providerPaymentId,
          amount: String(amount),
          'metadata[transaction_uid]': transactionUid,
          ...(refundUid
            ? { 'metadata[refund_uid]': refundUid, reason: 'requested_by_customer' }
            : { 'metadata[reason]': 'not_owed' }),
        }),
        // One refund per staff request or per payment not owed, however often it is retried.
        `vitrine-refund-${refundUid ?? transactionUid}`,
      );
    },
    async verifyWebhook(rawBody, header, nowMs) {
      return checkWebhookSignature(secret, rawBody, header, nowMs);
    },
    parseEvent(rawBody): ProviderEvent | null {
      let json: unknown;
      try {
        json = JSON.parse(rawBody);
      } catch {
        json = undefined;
      }
      const event = parseInput(StripeEvent, json);
      if (event.type === 'charge.refunded') {
        const charge = parseInput(Charge, event.data.object);
        return {
          id: event.id,
          type: 'payment.refunded',
          transactionUid: null,
          providerPaymentId: charge.payment_intent,
          amount: 0,
          currency: charge.currency,
          refundedTotal: charge.amount_refunded,
        };
      }
      const type =
        event.type === 'checkout.session.completed' ? 'completed' : (SESSION_EVENTS[event.type] ?? null);
      if (type === null) return null;
      const session = parseInput(CheckoutSession, event.data.object);
      const transactionUid = session.client_reference_id ?? session.metadata?.transaction_uid ?? null;
      if (transactionUid === null) return null;
      return {
        id: event.id,
        // A completed session is paid, or (delayed methods) paid later: async_payment_succeeded.
        type:
          type === 'completed'
            ? session.payment_status === 'unpaid'
              ? 'payment.authorized'
              : 'payment.succeeded'
            : type,
        transactionUid,
        providerPaymentId: session.payment_intent ?? null,
        amount: session.amount_total,
        currency: session.currency,
        refundedTotal: null,
      };
    },
  };
}
