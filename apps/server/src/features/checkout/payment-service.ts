import { randomBytes, timingSafeEqual } from 'node:crypto';
import { confirmationFits, nextTransactionState } from '@vitrine/domain';
import {
  CHECKOUT_ERROR_CODES,
  type PaymentEventType,
  type PaymentStarted,
  type PaymentWebhookOutcome,
  type UserPaymentStartedRequest,
  webPath,
} from '@vitrine/protocol';
import type { Currency } from '@vitrine/protocol/vocabulary';
import { HttpError, notFound } from '../../http/errors.ts';
import type { OutboxDatabase } from '../../realtime/outbox.ts';
import type { StoreService } from '../stores/store-service.ts';
import { lockOwnCheckout, storeReservationDoc, withRetry } from './checkout-records.ts';
import {
  abandonOpenPayments,
  abandonPayment,
  findProviderTransaction,
  insertTransaction,
  latestAttemptCreated,
  lockCheckout,
  lockedCheckout,
  lockTransaction,
  markPaymentEventApplied,
  paymentPageRow,
  recordOpenedPayment,
  recordPaymentEvent,
  setProviderPaymentId,
  type TransactionRow,
  transactionReturnPath,
  updateTransactionState,
} from './checkout-store.ts';
import { checkoutTotals, refreshPayed } from './checkout-totals.ts';
import type { OrderService } from './order-service.ts';
import type { PaymentProvider, ProviderEvent } from './payments/payment-provider.ts';
import { pageKeyHash } from './payments/test-provider.ts';

/**
 * What a webhook delivery did. `refund_due`: a confirmation the order no longer owed (it shrank,
 * or another attempt paid it first); the money does not count and is recorded as owed back.
 */
export type WebhookOutcome = PaymentWebhookOutcome;

/** The transaction, order and store a hosted payment page shows. */
export interface PaymentPageData {
  transactionUid: string;
  status: TransactionRow['status'];
  amount: number;
  currency: Currency;
  orderNumber: number | null;
  storeName: string;
  /** The store, whose allowed embed origins may frame the page (the checkout runs in the player's frame). */
  pageUid: string;
  language: string;
  returnPath: string;
  /** The page key the shopper opened the page with; the page's forms carry it on. */
  key: string;
}

/**
 * Payments of orders (spec §4): a payment attempt (transaction) awaits confirmation until the
 * provider's webhook says the money was received; declined and interrupted attempts are retried
 * with a new one for whatever remains to pay. Webhooks are applied at most once per event id,
 * and only ever move a transaction forward, so replays and out-of-order deliveries are harmless.
 */
export function createPaymentService(deps: {
  db: OutboxDatabase;
  providers: readonly PaymentProvider[];
  orders: OrderService;
  /** The store's name, shown on the hosted payment page. */
  stores: Pick<StoreService, 'storeInfo' | 'pageName'>;
  now: () => number;
  /** Logs a provider's failure to open a payment (the shopper sees a 502). */
  onProviderError?: (error: unknown) => void;
  /**
   * Told once a webhook made an order paid in full (after its transaction committed): the
   * composition root sends the order's mails. It must not throw; its work is not awaited.
   */
  onOrderPaid?: (checkoutUid: string) => void;
}) {
  const { db, orders, now } = deps;
  const onProviderError = deps.onProviderError ?? (() => {});
  const providers = new Map(deps.providers.map((provider) => [provider.id, provider]));

  function providerOf(id: string): PaymentProvider {
    const provider = providers.get(id);
    if (!provider) throw notFound(`No payment provider "${id}".`);
    return provider;
  }

  return {
    /**
     * `userPaymentStarted`: places the order when it is still a cart (with every check of
     * placing), then opens a payment attempt for the remaining amount with the chosen method.
     */
    async startPayment(
      userUid: string,
      input: UserPaymentStartedRequest,
      origin: string,
    ): Promise<PaymentStarted> {
      // The first configured provider takes payments (Stripe when set up, else the test provider).
      const provider = deps.providers[0];
      if (!provider) {
        throw new HttpError(503, 'no_payment_provider', 'This shop takes no payments yet.');
      }
      const locations = await orders.locationsOf(input.pageUid);
      const result = await withRetry(() =>
        db.transaction(async (tx) => {
          const checkout = await lockOwnCheckout(tx, input, userUid);
          await orders.placeInTransaction(tx, checkout, locations);
          const ordered = await lockedCheckout(tx, checkout.uid);
          await refreshPayed(tx, ordered);
          const totals = await checkoutTotals(tx, await lockedCheckout(tx, checkout.uid));
          if (totals.remainingAmount === 0) {
            throw new HttpError(409, CHECKOUT_ERROR_CODES.nothingToPay, 'This order is paid in full.');
          }
          // At most one attempt is open: an earlier one still awaiting confirmation is cancelled
          // (the shopper left its page, or pays again in another tab). Should its provider still
          // confirm it, the confirmation counts only for what the order then owes.
          const replaced = await abandonOpenPayments(tx, checkout.uid, now());
          const uid = randomBytes(18).toString('base64url');
          // Strictly after the checkout's earlier attempts, so "latest attempt" is well defined.
          const at = Math.max(now(), ((await latestAttemptCreated(tx, checkout.uid)) ?? 0) + 1);
          await insertTransaction(tx, {
            uid,
            checkoutUid: checkout.uid,
            provider: provider.id,
            totalPrice: totals.remainingAmount,
            currency: checkout.currency,
            returnPath: headerSafePath(
              input.returnPath ??
                webPath('checkoutSuccess', {
                  campaignUid: input.campaignUid,
                  checkoutUid: input.checkoutUid,
                }),
            ),
            created: at,
          });
          await storeReservationDoc(tx, checkout.uid);
          const storeName = await deps.stores.pageName(checkout.page_uid, tx);
          return {
            uid,
            amount: totals.remainingAmount,
            currency: checkout.currency,
            orderNumber: ordered.order_number,
            storeName: storeName ?? '',
            replaced,
          };
        }),
      );
      // Replaced sessions are closed at their provider, so the shopper cannot pay them any more
      // (should one be paid first anyway, its confirmation counts only for what is owed).
      for (const old of result.replaced) {
        const oldProvider = providers.get(old.provider);
        if (old.provider_session_id && oldProvider?.cancelPayment) {
          await oldProvider.cancelPayment(old.provider_session_id).catch(onProviderError);
        }
      }
      const storedReturnPath = await transactionReturnPath(db, result.uid);
      let opened: Awaited<ReturnType<PaymentProvider['createPayment']>>;
      try {
        opened = await provider.createPayment({
          transactionUid: result.uid,
          amount: result.amount,
          currency: result.currency,
          origin,
          returnPath: storedReturnPath ?? '/',
          storeName: result.storeName,
          orderNumber: result.orderNumber,
        });
      } catch (error) {
        // The attempt never reached the provider: it ends here, and the shopper may try again.
        await abandonPayment(db, result.uid, now());
        onProviderError(error);
        throw new HttpError(
          502,
          'payment_provider_failed',
          'The payment provider could not be reached; try again.',
        );
      }
      await recordOpenedPayment(db, result.uid, opened);
      return {
        transactionUid: result.uid,
        paymentUrl: opened.paymentUrl,
        amount: result.amount,
        currency: result.currency,
      };
    },

    /**
     * A provider's webhook delivery. Rejected (401) with nothing changed when the signature is
     * missing, forged or stale; a replayed event id is a no-op; an event whose amount or currency
     * does not match its transaction is refused (422) and not recorded.
     */
    async handleWebhook(
      providerId: string,
      rawBody: string,
      signature: string | undefined,
    ): Promise<{ outcome: WebhookOutcome }> {
      const provider = providerOf(providerId);
      const check = await provider.verifyWebhook(rawBody, signature, now());
      if (check !== 'valid') {
        throw new HttpError(401, 'invalid_signature', `The webhook signature is ${check}.`);
      }
      const event = provider.parseEvent(rawBody);
      if (!event) return { outcome: 'ignored' };
      const found = await findProviderTransaction(db, provider.id, event);
      if (!found) throw notFound(`No transaction "${event.transactionUid ?? event.providerPaymentId}".`);
      const result = await withRetry(() =>
        db.transaction(async (tx) => {
          // The checkout first: the same lock order as every other change of a checkout.
          await lockCheckout(tx, found.checkout_uid);
          const transaction = await lockTransaction(tx, found.uid);
          if (!transaction) throw notFound(`No transaction "${found.uid}".`);
          // A running refund total becomes what this event refunds beyond what is recorded.
          const amount =
            event.refundedTotal === null
              ? event.amount
              : Math.max(0, event.refundedTotal - transaction.amount_refunded);
          checkAmount({ ...event, amount }, transaction);
          const recorded = await recordPaymentEvent(tx, {
            provider: provider.id,
            eventId: event.id,
            transactionUid: transaction.uid,
            type: event.type,
            at: now(),
          });
          if (event.providerPaymentId !== null && transaction.provider_payment_id === null) {
            await setProviderPaymentId(tx, transaction.uid, event.providerPaymentId);
          }
          if (!recorded) return { outcome: 'duplicate' as const, refund: null, paidNow: false };
          const next = nextTransactionState(
            {
              status: transaction.status,
              paymentOK: transaction.payment_ok,
              amountRefunded: transaction.amount_refunded,
              totalPrice: transaction.total_price,
            },
            event.type,
            amount,
          );
          if (!next) return { outcome: 'ignored' as const, refund: null, paidNow: false };
          const checkout = await lockedCheckout(tx, transaction.checkout_uid);
          let refundDue = transaction.refund_due;
          let paymentOK = next.paymentOK;
          if (next.paymentOK && !transaction.payment_ok) {
            // This payment is not counted yet, so what remains is what the order owes without it.
            const owed = (await checkoutTotals(tx, checkout)).remainingAmount;
            if (!confirmationFits(transaction.total_price, owed)) {
              paymentOK = false;
              refundDue = transaction.total_price - transaction.amount_refunded;
            }
          } else if (next.amountRefunded > transaction.amount_refunded) {
            // A refund first pays back what was owed back.
            refundDue = Math.max(0, refundDue - (next.amountRefunded - transaction.amount_refunded));
          }
          await updateTransactionState(tx, transaction.uid, {
            status: next.status,
            paymentOK,
            amountRefunded: next.amountRefunded,
            refundDue,
            at: now(),
          });
          await markPaymentEventApplied(tx, provider.id, event.id);
          const paidNow = (await refreshPayed(tx, checkout)) && !checkout.payed;
          await storeReservationDoc(tx, transaction.checkout_uid);
          const owedBack = refundDue > transaction.refund_due;
          const providerPaymentId = transaction.provider_payment_id ?? event.providerPaymentId;
          return {
            paidNow,
            outcome: owedBack ? ('refund_due' as const) : ('applied' as const),
            refund:
              owedBack && providerPaymentId
                ? {
                    providerPaymentId,
                    amount: refundDue,
                    transactionUid: transaction.uid,
                    currency: transaction.currency,
                    refundUid: null,
                  }
                : null,
          };
        }),
      );
      if (result.refund && provider.refund) {
        // Money the order did not owe goes back at once where the provider can refund; its
        // refund webhook then clears refund_due. Otherwise it stays flagged for the shop.
        await provider.refund(result.refund).catch(onProviderError);
      }
      if (result.paidNow) deps.onOrderPaid?.(found.checkout_uid);
      return { outcome: result.outcome };
    },

    /**
     * What the hosted payment page of a transaction shows: 404 for an unknown one, 403 without
     * the page key that only the shopper who started the payment received.
     */
    async paymentPage(providerId: string, transactionUid: string, key: string): Promise<PaymentPageData> {
      const row = await paymentPageRow(db, providerId, transactionUid);
      if (!row) throw notFound('No such payment.');
      const expected = Buffer.from(row.page_key_hash ?? '', 'hex');
      const given = Buffer.from(pageKeyHash(key), 'hex');
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
        throw new HttpError(
          403,
          'wrong_payment_key',
          'This payment page opens only from the shop where the payment was started.',
        );
      }
      return {
        transactionUid: row.uid,
        status: row.status,
        amount: row.total_price,
        currency: row.currency,
        orderNumber: row.order_number,
        storeName: (await deps.stores.storeInfo(row.page_uid)).name,
        pageUid: row.page_uid,
        language: row.language,
        returnPath: row.return_path,
        key,
      };
    },
  };
}

/**
 * A site-relative path as a Location header can carry it: characters outside printable ASCII
 * percent-encoded as UTF-8 (Node refuses other header bytes, which made the redirect a 500).
 */
export function headerSafePath(path: string): string {
  return path.replace(/[^\x21-\x7e]/gu, (char) =>
    [...Buffer.from(char, 'utf8')]
      .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
      .join(''),
  );
}

/** Money events must be for the transaction's amount and currency; a refund for at most its total. */
function checkAmount(event: ProviderEvent, transaction: TransactionRow): void {
  const moneyEvents: PaymentEventType[] = ['payment.authorized', 'payment.succeeded'];
  const wrongCurrency = event.currency !== transaction.currency;
  const wrongAmount = moneyEvents.includes(event.type)
    ? event.amount !== transaction.total_price
    : event.type === 'payment.refunded' && event.amount > transaction.total_price;
  if (wrongCurrency || wrongAmount) {
    throw new HttpError(
      422,
      'amount_mismatch',
      `The event is for ${event.amount} ${event.currency}; the transaction is for ${transaction.total_price} ${transaction.currency}.`,
    );
  }
}

export type PaymentService = ReturnType<typeof createPaymentService>;
