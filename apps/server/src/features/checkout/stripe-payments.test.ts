import type { PaymentStarted, StudioOrderDetail } from '@vitrine/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCheckout, readyCheckout, startPayment } from '../../test-support/checkout-steps.ts';
import {
  CAMPAIGN,
  PRICES,
  SHOP,
  type Shopper,
  seedCommerceStore,
} from '../../test-support/commerce-fixture.ts';
import { startFakeStripe, stripeEvent, stripeSignature } from '../../test-support/fake-stripe.ts';
import { signInStaff } from '../../test-support/studio-staff.ts';
import { openTestApp } from '../../test-support/test-app.ts';

const WEBHOOK_SECRET = 'whsec_test_0123456789abcdef';
const FREIGHT = 4_900;

let fake: Awaited<ReturnType<typeof startFakeStripe>>;
let app: Awaited<ReturnType<typeof openTestApp>>;

beforeAll(async () => {
  fake = await startFakeStripe();
  app = await openTestApp({
    env: {
      STRIPE_SECRET_KEY: 'sk_test_fake',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: fake.url,
    },
  });
  await seedCommerceStore(app, { now: Date.now() });
});

afterAll(async () => {
  await app?.close();
  await fake?.close();
});

/** A shopper's order of one mug, delivered home, with a Stripe payment started for it. */
async function startedPayment(): Promise<{ shopper: Shopper; checkoutUid: string; started: PaymentStarted }> {
  const { shopper, checkoutUid } = await readyCheckout(app);
  const started = await startPayment(app, shopper, checkoutUid, {
    returnPath: `/${CAMPAIGN}/${checkoutUid}/success`,
  });
  expect(started.status).toBe(200);
  return { shopper, checkoutUid, started: started.body };
}

async function webhook(body: string, signature: string | undefined) {
  const response = await app.server.inject({
    method: 'POST',
    url: '/payments/stripe/webhook',
    headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
    payload: body,
  });
  return { status: response.statusCode, body: response.json() as { outcome?: string; message?: string } };
}

const signed = (body: string) => webhook(body, stripeSignature(WEBHOOK_SECRET, body));

/** The Checkout Session object as Stripe sends it in checkout.session.* events. */
function session(transactionUid: string, amount: number, extra: Record<string, unknown> = {}) {
  return {
    id: 'cs_test_x',
    object: 'checkout.session',
    client_reference_id: transactionUid,
    metadata: { transaction_uid: transactionUid },
    payment_intent: `pi_${transactionUid}`,
    payment_status: 'paid',
    status: 'complete',
    amount_total: amount,
    currency: 'dkk',
    ...extra,
  };
}

describe('Stripe Checkout', () => {
  it('creates a form-encoded Checkout Session, and a signed checkout.session.completed pays the order', async () => {
    const { shopper, checkoutUid, started } = await startedPayment();
    const amount = PRICES.mug.DKK + FREIGHT;
    expect(started).toMatchObject({ amount, currency: 'DKK' });
    const recorded = fake.sessions.at(-1);
    expect(recorded?.authorization).toBe('Bearer sk_test_fake');
    expect(recorded?.contentType).toBe('application/x-www-form-urlencoded');
    expect(recorded?.idempotencyKey).toBe(`vitrine-${started.transactionUid}`);
    expect(recorded?.form).toMatchObject({
      mode: 'payment',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'dkk',
      'line_items[0][price_data][unit_amount]': String(amount),
      client_reference_id: started.transactionUid,
      'metadata[transaction_uid]': started.transactionUid,
    });
    expect(recorded?.form.success_url).toMatch(
      new RegExp(`^http://[^/]+/${CAMPAIGN}/${checkoutUid}/success\\?transaction=${started.transactionUid}$`),
    );
    expect(recorded?.form.cancel_url).toBe(recorded?.form.success_url);
    expect(started.paymentUrl).toBe(`https://checkout.stripe.test/c/pay/cs_test_${fake.sessions.length}`);

    const completed = stripeEvent(
      'checkout.session.completed',
      session(started.transactionUid, amount),
      'evt_done',
    );
    expect(await signed(completed)).toEqual({ status: 200, body: { outcome: 'applied' } });
    expect(await signed(completed)).toEqual({ status: 200, body: { outcome: 'duplicate' } });
    const view = await loadCheckout(app, shopper, checkoutUid);
    expect(view).toMatchObject({ payed: true, paidAmount: amount, remainingAmount: 0 });
    expect(view.transactions[0]).toMatchObject({ provider: 'stripe', status: 'received', paymentOK: true });

    // Stripe reports refunds on the charge, as a running total, naming the PaymentIntent.
    const refund = (total: number, id: string) =>
      stripeEvent(
        'charge.refunded',
        {
          id: 'ch_1',
          object: 'charge',
          payment_intent: `pi_${started.transactionUid}`,
          amount,
          amount_refunded: total,
          currency: 'dkk',
        },
        id,
      );
    expect((await signed(refund(1_000, 'evt_r1'))).body.outcome).toBe('applied');
    // The same total again (another event id) refunds nothing more.
    expect((await signed(refund(1_000, 'evt_r2'))).body.outcome).toBe('ignored');
    expect(await loadCheckout(app, shopper, checkoutUid)).toMatchObject({
      payed: false,
      paidAmount: amount - 1_000,
    });
    expect((await signed(refund(amount, 'evt_r3'))).body.outcome).toBe('applied');
    expect(await loadCheckout(app, shopper, checkoutUid)).toMatchObject({
      paidAmount: 0,
      remainingAmount: amount,
    });
  });

  it('expires a replaced session, and refunds at once a second payment the order no longer owed', async () => {
    const { shopper, checkoutUid, started: first } = await startedPayment();
    const firstSession = `cs_test_${fake.sessions.length}`;
    const second = (await startPayment(app, shopper, checkoutUid)).body;
    expect(fake.expired).toContain(firstSession);
    // The shopper had paid the first session in another tab just before it expired.
    const paidFirst = stripeEvent('checkout.session.completed', session(first.transactionUid, first.amount));
    expect((await signed(paidFirst)).body.outcome).toBe('applied');
    const paidSecond = stripeEvent(
      'checkout.session.completed',
      session(second.transactionUid, second.amount),
    );
    expect((await signed(paidSecond)).body.outcome).toBe('refund_due');
    expect(fake.refunds.at(-1)).toEqual({
      idempotencyKey: `vitrine-refund-${second.transactionUid}`,
      form: {
        payment_intent: `pi_${second.transactionUid}`,
        amount: String(second.amount),
        'metadata[transaction_uid]': second.transactionUid,
        'metadata[reason]': 'not_owed',
      },
    });
    let view = await loadCheckout(app, shopper, checkoutUid);
    expect(view).toMatchObject({ payed: true, paidAmount: first.amount });
    expect(view.transactions[1]).toMatchObject({ paymentOK: false, refundDue: second.amount });
    // Stripe reports the refund; nothing is owed back any more, and the order stays paid once.
    const refunded = stripeEvent('charge.refunded', {
      id: 'ch_2',
      object: 'charge',
      payment_intent: `pi_${second.transactionUid}`,
      amount: second.amount,
      amount_refunded: second.amount,
      currency: 'dkk',
    });
    expect((await signed(refunded)).body.outcome).toBe('applied');
    view = await loadCheckout(app, shopper, checkoutUid);
    expect(view).toMatchObject({ payed: true, paidAmount: first.amount });
    expect(view.transactions[1]).toMatchObject({ refundDue: 0, amountRefunded: second.amount });
  });

  it('refunds from the studio with POST /v1/refunds, one per request, and records a refusal', async () => {
    const { checkoutUid, started } = await startedPayment();
    const amount = started.amount;
    const completed = stripeEvent('checkout.session.completed', session(started.transactionUid, amount));
    expect((await signed(completed)).body.outcome).toBe('applied');
    const owner = await signInStaff(app, SHOP, 'owner');
    const refund = (body: object) =>
      app.server.inject({
        method: 'POST',
        url: `/staff/stores/${SHOP}/orders/${checkoutUid}/refunds`,
        headers: owner.headers,
        payload: body,
      });
    const requests = fake.refunds.length;
    const [first, again] = await Promise.all([
      refund({ amount: 2_000, requestKey: 'stripe-refund-1' }),
      refund({ amount: 2_000, requestKey: 'stripe-refund-1' }),
    ]);
    expect([first.statusCode, again.statusCode]).toEqual([200, 200]);
    expect(fake.refunds.length).toBe(requests + 1);
    const detail = first.json() as StudioOrderDetail;
    const refundUid = detail.refunds[0]?.uid;
    expect(fake.refunds.at(-1)).toEqual({
      idempotencyKey: `vitrine-refund-${refundUid}`,
      form: {
        payment_intent: `pi_${started.transactionUid}`,
        amount: '2000',
        'metadata[transaction_uid]': started.transactionUid,
        'metadata[refund_uid]': refundUid,
        reason: 'requested_by_customer',
      },
    });
    // Stripe reports the refund on the charge; the payment records it.
    const charged = stripeEvent('charge.refunded', {
      id: 'ch_studio',
      object: 'charge',
      payment_intent: `pi_${started.transactionUid}`,
      amount,
      amount_refunded: 2_000,
      currency: 'dkk',
    });
    expect((await signed(charged)).body.outcome).toBe('applied');

    // Stripe refuses the next one: a 502, recorded as failed, and the amount is refundable again.
    fake.failNextRefund();
    const refused = await refund({ amount: 1_000, requestKey: 'stripe-refund-2' });
    expect(refused.statusCode).toBe(502);
    expect(refused.json().message).toMatch(/Charge has already been refunded/);
    const after = await app.server.inject({
      method: 'GET',
      url: `/staff/stores/${SHOP}/orders/${checkoutUid}`,
      headers: owner.headers,
    });
    const view = after.json() as StudioOrderDetail;
    expect(view.refunds.map((r) => [r.amount, r.status])).toEqual([
      [2_000, 'requested'],
      [1_000, 'failed'],
    ]);
    expect(view.refundable).toBe(amount - 2_000);
    expect(view.order.transactions[0]?.amountRefunded).toBe(2_000);
  });

  it('refuses forged, stale and unsigned webhooks, changing nothing', async () => {
    const { shopper, checkoutUid, started } = await startedPayment();
    const body = stripeEvent('checkout.session.completed', session(started.transactionUid, started.amount));
    const forged = await webhook(body, stripeSignature('whsec_someone_else', body));
    const stale = await webhook(body, stripeSignature(WEBHOOK_SECRET, body, Date.now() - 10 * 60_000));
    const unsigned = await webhook(body, undefined);
    const tampered = await webhook(
      body.replace(`"amount_total":${started.amount}`, '"amount_total":1'),
      stripeSignature(WEBHOOK_SECRET, body),
    );
    for (const [name, response] of Object.entries({ forged, stale, unsigned, tampered })) {
      expect(response.status, name).toBe(401);
    }
    expect(await loadCheckout(app, shopper, checkoutUid)).toMatchObject({ payed: false, paidAmount: 0 });
  });

  it('follows delayed payment methods, failures and expired sessions', async () => {
    const { shopper, checkoutUid, started } = await startedPayment();
    const unpaid = session(started.transactionUid, started.amount, { payment_status: 'unpaid' });
    expect((await signed(stripeEvent('checkout.session.completed', unpaid))).body.outcome).toBe('ignored');
    expect((await loadCheckout(app, shopper, checkoutUid)).transactions[0]?.status).toBe(
      'awaiting_confirmation',
    );
    expect((await signed(stripeEvent('checkout.session.async_payment_failed', unpaid))).body.outcome).toBe(
      'applied',
    );
    expect((await loadCheckout(app, shopper, checkoutUid)).transactions[0]?.status).toBe('declined');

    const retry = (await startPayment(app, shopper, checkoutUid)).body;
    const expired = session(retry.transactionUid, retry.amount, {
      payment_status: 'unpaid',
      status: 'expired',
    });
    expect((await signed(stripeEvent('checkout.session.expired', expired))).body.outcome).toBe('applied');
    const third = (await startPayment(app, shopper, checkoutUid)).body;
    const paidLater = session(third.transactionUid, third.amount);
    expect(
      (await signed(stripeEvent('checkout.session.async_payment_succeeded', paidLater))).body.outcome,
    ).toBe('applied');
    expect((await loadCheckout(app, shopper, checkoutUid)).transactions.map((t) => t.status)).toEqual([
      'declined',
      'abandoned',
      'received',
    ]);
    // Events this server has no use for are acknowledged, so Stripe stops resending them.
    expect((await signed(stripeEvent('customer.created', { id: 'cus_1' }))).body.outcome).toBe('ignored');
  });

  it('answers 502 when Stripe is down, and the attempt does not stay open', async () => {
    const { shopper, checkoutUid } = await readyCheckout(app);
    fake.failNext();
    const failed = await startPayment<{ error: string }>(app, shopper, checkoutUid);
    expect(failed.status).toBe(502);
    expect(failed.body.error).toBe('payment_provider_failed');
    expect((await loadCheckout(app, shopper, checkoutUid)).transactions.map((t) => t.status)).toEqual([
      'abandoned',
    ]);
  });
});
