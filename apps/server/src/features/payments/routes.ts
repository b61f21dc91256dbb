import { randomBytes } from 'node:crypto';
import type { Currency } from '@vitrine/domain';
import {
  PAYMENT_SIGNATURE_HEADER,
  type PaymentEventType,
  UserPaymentStartedRequest,
} from '@vitrine/protocol';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parseInput } from '../../http/errors.ts';
import type { AuthService } from '../auth/auth-service.ts';
import { requireShopper } from '../cart/routes.ts';
import { renderPaymentPage } from './payment-page.ts';
import type { PaymentService } from './payment-service.ts';
import type { TestPaymentProvider } from './test-provider.ts';

/**
 * How long the test provider takes to confirm an approved payment, so the payment-received page
 * shows "awaiting confirmation" before "received", as with real providers.
 */
export const TEST_CONFIRMATION_DELAY_MS = 1500;

const TransactionParams = z.object({ transactionUid: z.string().min(1).max(128) });
const ActionParams = TransactionParams.extend({ action: z.enum(['approve', 'decline', 'abandon']) });

/** userPaymentStarted (spec §7), the providers' webhooks, and the test provider's hosted page. */
export function registerPaymentRoutes(
  app: FastifyInstance,
  payments: PaymentService,
  auth: AuthService,
  testProvider: TestPaymentProvider,
  options: { now: () => number; confirmationDelayMs?: number },
): void {
  const confirmationDelayMs = options.confirmationDelayMs ?? TEST_CONFIRMATION_DELAY_MS;
  const timers = new Set<ReturnType<typeof setTimeout>>();
  app.addHook('onClose', async () => {
    for (const timer of timers) clearTimeout(timer);
  });

  app.post('/functions/customerpage/userPaymentStarted', async (request, reply) => {
    const userUid = await requireShopper(auth, request);
    const input = parseInput(UserPaymentStartedRequest, request.body ?? {});
    reply.header('cache-control', 'no-store');
    return payments.startPayment(userUid, input, `${request.protocol}://${request.host}`);
  });

  /** Sends a signed event to our own webhook endpoint, the way the provider's servers would. */
  async function deliver(transactionUid: string, type: PaymentEventType, amount: number, currency: Currency) {
    const { body, signature } = await testProvider.signedEvent(
      {
        id: `evt_${randomBytes(12).toString('base64url')}`,
        type,
        transactionUid,
        amount,
        currency,
        created: options.now(),
      },
      options.now(),
    );
    const response = await app.inject({
      method: 'POST',
      url: `/payments/${testProvider.id}/webhook`,
      headers: { 'content-type': 'application/json', [PAYMENT_SIGNATURE_HEADER]: signature },
      payload: body,
    });
    if (response.statusCode >= 300) {
      app.log.error({ status: response.statusCode, body: response.body }, 'test provider webhook refused');
    }
  }

  // Webhooks are verified over the exact bytes received, and the hosted page posts plain forms,
  // so this scope keeps bodies as strings.
  app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
      done(null, body),
    );
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, body, done) => done(null, body),
    );

    scope.post('/payments/:providerId/webhook', async (request) => {
      const { providerId } = parseInput(z.object({ providerId: z.string().min(1).max(32) }), request.params);
      const rawBody = typeof request.body === 'string' ? request.body : '';
      const header = request.headers[PAYMENT_SIGNATURE_HEADER];
      return payments.handleWebhook(providerId, rawBody, Array.isArray(header) ? header.join(',') : header);
    });

    scope.get('/payments/test/pay/:transactionUid', async (request, reply) => {
      const { transactionUid } = parseInput(TransactionParams, request.params);
      const page = await payments.paymentPage(testProvider.id, transactionUid);
      return reply
        .header('cache-control', 'no-store')
        .header(
          'content-security-policy',
          "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
        )
        .header('x-frame-options', 'DENY')
        .type('text/html; charset=utf-8')
        .send(renderPaymentPage(page, { decided: false }));
    });

    scope.post('/payments/test/pay/:transactionUid/:action', async (request, reply) => {
      const { transactionUid, action } = parseInput(ActionParams, request.params);
      const page = await payments.paymentPage(testProvider.id, transactionUid);
      if (page.status === 'awaiting_confirmation') {
        if (action === 'approve') {
          await deliver(transactionUid, 'payment.authorized', page.amount, page.currency);
          const confirm = () => deliver(transactionUid, 'payment.succeeded', page.amount, page.currency);
          if (confirmationDelayMs <= 0) await confirm();
          else {
            const timer = setTimeout(() => {
              timers.delete(timer);
              confirm().catch((error) => app.log.error({ err: error }, 'test payment confirmation failed'));
            }, confirmationDelayMs);
            timers.add(timer);
          }
        } else {
          await deliver(
            transactionUid,
            action === 'decline' ? 'payment.failed' : 'payment.canceled',
            page.amount,
            page.currency,
          );
        }
      }
      const separator = page.returnPath.includes('?') ? '&' : '?';
      return reply.redirect(
        `${page.returnPath}${separator}transaction=${encodeURIComponent(transactionUid)}`,
        303,
      );
    });
  });
}
