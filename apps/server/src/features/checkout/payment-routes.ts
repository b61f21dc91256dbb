import { randomBytes } from 'node:crypto';
import { callPath, PAYMENT_SIGNATURE_HEADER, type PaymentEventType } from '@vitrine/protocol';
import type { Currency } from '@vitrine/protocol/vocabulary';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '../../db/database.ts';
import { parseInput } from '../../http/errors.ts';
import { framingPolicy } from '../../http/page-security.ts';
import { registerCall } from '../../http/register-call.ts';
import { type ScheduleTimer, scheduleRealTimer } from '../../schedule-timer.ts';
import type { AuthService } from '../auth/auth-service.ts';
import { shopperCalls } from './cart-routes.ts';
import { deleteTestConfirmation, dueTestConfirmations, scheduleTestConfirmation } from './checkout-store.ts';
import { headerSafePath, type PaymentPageData, type PaymentService } from './payment-service.ts';
import { renderPaymentPage } from './payments/payment-page.ts';
import type { PaymentProvider } from './payments/payment-provider.ts';
import type { TestPaymentProvider } from './payments/test-provider.ts';

/**
 * How long the test provider takes to confirm an approved payment, so the payment-received page
 * shows "awaiting confirmation" before "received", as with real providers.
 */
export const TEST_CONFIRMATION_DELAY_MS = 1500;

/** How often approvals whose confirmation is due are confirmed (the timer of another node may have died). */
export const TEST_CONFIRMATION_SWEEP_MS = 5_000;

const TransactionParams = z.object({ transactionUid: z.string().min(1).max(128) });
const PageKey = z.object({ key: z.string().max(128).default('') });
const ActionParams = TransactionParams.extend({ action: z.enum(['approve', 'decline', 'abandon']) });

/**
 * userPaymentStarted (spec §7), the providers' webhooks, and — when the test provider is enabled
 * — its hosted page.
 */
export function registerPaymentRoutes(
  app: FastifyInstance,
  payments: PaymentService,
  auth: AuthService,
  providers: readonly PaymentProvider[],
  testProvider: TestPaymentProvider | null,
  options: {
    db: Database;
    now: () => number;
    confirmationDelayMs?: number;
    /** Starts the confirmation timer of an approved test payment (tests fire it themselves). */
    scheduleTimer?: ScheduleTimer;
    /** The origins allowed to embed a store's player, which may also frame its payment page. */
    embedOrigins?: (pageUid: string) => Promise<readonly string[]>;
  },
): void {
  const { db } = options;
  const confirmationDelayMs = options.confirmationDelayMs ?? TEST_CONFIRMATION_DELAY_MS;
  const scheduleTimer = options.scheduleTimer ?? scheduleRealTimer;
  const timers = new Set<() => void>();
  app.addHook('onClose', async () => {
    for (const cancel of timers) cancel();
  });

  registerCall(
    app,
    'userPaymentStarted',
    (input, { caller, request }) =>
      payments.startPayment(caller.userUid, input, `${request.protocol}://${request.host}`),
    shopperCalls(auth),
  );

  const signatureHeaders = new Map(providers.map((provider) => [provider.id, provider.signatureHeader]));

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

    registerCall(scope, 'paymentWebhook', async (rawBody, { params: { providerId }, request }) => {
      const header = request.headers[signatureHeaders.get(providerId) ?? PAYMENT_SIGNATURE_HEADER];
      const result = await payments.handleWebhook(
        providerId,
        rawBody,
        Array.isArray(header) ? header.join(',') : header,
      );
      if (result.outcome === 'refund_due') {
        request.log.warn(
          { providerId },
          'a payment arrived that its order no longer owed; it is to be refunded',
        );
      }
      return result;
    });

    if (testProvider) registerTestProviderPage(scope, testProvider);
  });

  function registerTestProviderPage(scope: FastifyInstance, testProvider: TestPaymentProvider) {
    /** Sends a signed event to our own webhook endpoint, the way the provider's servers would. */
    async function deliver(
      transactionUid: string,
      type: PaymentEventType,
      amount: number,
      currency: Currency,
      id = `evt_${randomBytes(12).toString('base64url')}`,
    ): Promise<number> {
      const { body, signature } = await testProvider.signedEvent(
        { id, type, transactionUid, amount, currency, created: options.now() },
        options.now(),
      );
      const response = await app.inject({
        method: 'POST',
        url: callPath('paymentWebhook', { providerId: testProvider.id }),
        headers: { 'content-type': 'application/json', [PAYMENT_SIGNATURE_HEADER]: signature },
        payload: body,
      });
      if (response.statusCode >= 300) {
        app.log.error({ status: response.statusCode, body: response.body }, 'test provider webhook refused');
      }
      return response.statusCode;
    }

    // Staff refunds: the provider answers with its refund webhook, its event id fixed per refund
    // so a repeated delivery applies once.
    testProvider.deliverRefundsWith(async (refund) => {
      const status = await deliver(
        refund.transactionUid,
        'payment.refunded',
        refund.amount,
        refund.currency,
        `evt_refund_${refund.refundUid ?? refund.transactionUid}`,
      );
      if (status >= 300) throw new Error(`the refund webhook was refused (${status})`);
    });

    /**
     * Confirms approvals whose confirmation is due (all of them on start-up, after a crash). Each
     * is recorded in the database before the approval is answered, so none is lost with the
     * process; its event id is fixed, so a confirmation sent twice (two nodes) applies once.
     */
    async function confirmDue(all: boolean): Promise<void> {
      const due = await dueTestConfirmations(db, all ? Number.MAX_SAFE_INTEGER : options.now());
      for (const row of due) {
        const status = await deliver(
          row.transaction_uid,
          'payment.succeeded',
          row.total_price,
          row.currency,
          `evt_confirm_${row.transaction_uid}`,
        );
        // A refusal (4xx) will not change on a retry; a server error is retried by the sweep.
        if (status < 500) {
          await deleteTestConfirmation(db, row.transaction_uid);
        }
      }
    }
    let confirming: Promise<void> = Promise.resolve();
    const confirm = (all: boolean) => {
      confirming = confirming
        .then(() => confirmDue(all))
        .catch((error) => app.log.error({ err: error }, 'test payment confirmation failed'));
      return confirming;
    };
    // After ready: confirming goes through our own webhook route, which needs a ready server.
    let sweep: ReturnType<typeof setInterval> | undefined;
    app.addHook('onReady', async () => {
      setImmediate(() => void confirm(true));
      sweep = setInterval(() => void confirm(false), TEST_CONFIRMATION_SWEEP_MS);
      sweep.unref();
    });
    app.addHook('onClose', async () => {
      clearInterval(sweep);
      await confirming;
    });

    /**
     * The page runs inside the player's frame when the checkout does (an embedded player's new tab
     * would lack the shopper's session), so the store's allowed embed origins may frame it; no one else.
     */
    const securityHeaders = async (page: PaymentPageData) => {
      const framing = framingPolicy((await options.embedOrigins?.(page.pageUid).catch(() => [])) ?? []);
      return {
        'cache-control': 'no-store',
        'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; ${framing.frameAncestors}`,
        ...(framing.xFrameOptions ? { 'x-frame-options': framing.xFrameOptions } : {}),
        // The page URL holds the page key; it must not leak to other sites.
        'referrer-policy': 'no-referrer',
      };
    };

    scope.get('/payments/test/pay/:transactionUid', async (request, reply) => {
      const { transactionUid } = parseInput(TransactionParams, request.params);
      const { key } = parseInput(PageKey, request.query ?? {});
      const page = await payments.paymentPage(testProvider.id, transactionUid, key);
      return reply
        .headers(await securityHeaders(page))
        .type('text/html; charset=utf-8')
        .send(renderPaymentPage(page, { decided: false }));
    });

    scope.post('/payments/test/pay/:transactionUid/:action', async (request, reply) => {
      const { transactionUid, action } = parseInput(ActionParams, request.params);
      const form = Object.fromEntries(
        new URLSearchParams(typeof request.body === 'string' ? request.body : ''),
      );
      const { key } = parseInput(PageKey, form);
      const page = await payments.paymentPage(testProvider.id, transactionUid, key);
      if (page.status === 'awaiting_confirmation') {
        if (action === 'approve') {
          await deliver(transactionUid, 'payment.authorized', page.amount, page.currency);
          await scheduleTestConfirmation(db, transactionUid, options.now() + confirmationDelayMs);
          if (confirmationDelayMs <= 0) await confirm(false);
          else {
            const cancel = scheduleTimer(() => {
              timers.delete(cancel);
              return confirm(false);
            }, confirmationDelayMs);
            timers.add(cancel);
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
      const returnPath = headerSafePath(page.returnPath);
      const separator = returnPath.includes('?') ? '&' : '?';
      return reply.redirect(
        `${returnPath}${separator}transaction=${encodeURIComponent(transactionUid)}`,
        303,
      );
    });
  }
}
