import { randomBytes } from 'node:crypto';
import {
  MAX_PRICE_MINOR_UNITS,
  PAYMENT_SIGNATURE_HEADER,
  type PaymentStarted,
  type PaymentWebhookEvent,
} from '@vitrine/protocol';
import { describe, expect, it, vi } from 'vitest';
import {
  checkoutRef,
  loadCheckout,
  readyCheckout,
  reservationDoc,
  saveCheckoutDetails,
  startPayment,
} from '../../test-support/checkout-steps.ts';
import {
  addSingle,
  CAMPAIGN,
  call,
  EVENT,
  HOME_DELIVERY,
  PRICES,
  SHOP,
  seedCommerceStore,
  signIn,
} from '../../test-support/commerce-fixture.ts';
import { commerceTestApp } from '../../test-support/commerce-test-app.ts';
import type { TestApp } from '../../test-support/file-test-app.ts';
import { manualTimers } from '../../test-support/manual-timers.ts';
import { adminHeaders, openTestApp, openTestDatabase } from '../../test-support/test-app.ts';
import { TEST_CONFIRMATION_DELAY_MS } from './payment-routes.ts';
import { PAYMENT_PAGE_TEXTS } from './payments/payment-page-texts.ts';
import { signWebhook } from './payments/webhook-signature.ts';

/** The test provider's confirmation timers: a test fires them once it has moved the clock on. */
const confirmationTimers = manualTimers();
/** How far the app's clock runs ahead of the real one. */
let clockAhead = 0;

const FREIGHT = 4_900;
/** The test provider's page speaks the order's language: the fixture's shoppers order in Danish. */
const ORDER_TEXTS = PAYMENT_PAGE_TEXTS.da;

const app = commerceTestApp({
  app: { now: () => Date.now() + clockAhead, scheduleTimer: confirmationTimers.schedule },
  // Every test here buys mugs; the fixture's 10 would run out.
  store: { mugStock: 1000 },
});

function event(
  transactionUid: string,
  type: PaymentWebhookEvent['type'],
  amount: number,
  id = `evt_${randomBytes(6).toString('hex')}`,
): PaymentWebhookEvent {
  return { id, type, transactionUid, amount, currency: 'DKK', created: Date.now() };
}

/** Delivers a webhook as the test provider does, or with the given body/signature. */
async function deliver(body: string, signature: string | undefined) {
  const response = await app().server.inject({
    method: 'POST',
    url: '/payments/test/webhook',
    headers: {
      'content-type': 'application/json',
      ...(signature ? { [PAYMENT_SIGNATURE_HEADER]: signature } : {}),
    },
    payload: body,
  });
  return { status: response.statusCode, body: response.json() as { outcome?: string; message?: string } };
}

async function deliverSigned(payload: PaymentWebhookEvent, at = Date.now()) {
  const body = JSON.stringify(payload);
  return deliver(body, signWebhook(await testProvider().webhookSecret(), body, at));
}

async function storedState(transactionUid: string) {
  const [transaction] = await app().db.query<{ status: string; payment_ok: boolean; updated: number }>(
    'SELECT status, payment_ok, updated FROM payment_transactions WHERE uid = $1',
    [transactionUid],
  );
  const events = await app().db.query<{ event_id: string; applied: boolean }>(
    'SELECT event_id, applied FROM payment_events WHERE transaction_uid = $1 ORDER BY received_at, event_id',
    [transactionUid],
  );
  return { transaction, events };
}

function testProvider() {
  const provider = app().services.testProvider;
  if (!provider) throw new Error('the test provider is enabled in tests');
  return provider;
}

/** The hosted page's path with the page key from the payment URL. */
const pagePath = (paymentUrl: string) => {
  const url = new URL(paymentUrl);
  return `${url.pathname}${url.search}`;
};

/** Posts a choice on the hosted page as its form does, with the page key of the payment URL. */
function choose(started: PaymentStarted, action: 'approve' | 'decline' | 'abandon', key = pageKey(started)) {
  return app().server.inject({
    method: 'POST',
    url: `/payments/test/pay/${started.transactionUid}/${action}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ key }).toString(),
  });
}

const pageKey = (started: PaymentStarted) => new URL(started.paymentUrl).searchParams.get('key') ?? '';

async function refundDue(transactionUid: string): Promise<number | undefined> {
  const [row] = await app().db.query<{ refund_due: number }>(
    'SELECT refund_due FROM payment_transactions WHERE uid = $1',
    [transactionUid],
  );
  return row?.refund_due;
}

describe('userPaymentStarted and the hosted payment page', () => {
  it('places the order and opens a payment for the whole amount, awaiting confirmation', async () => {
    const { shopper, checkoutUid } = await readyCheckout(app());
    const started = await startPayment(app(), shopper, checkoutUid, { returnPath: '/cart-live/x/success' });
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ amount: PRICES.mug.DKK + FREIGHT, currency: 'DKK' });
    expect(started.body.paymentUrl).toMatch(
      /^http:\/\/[^/]+\/payments\/test\/pay\/[A-Za-z0-9_-]+\?key=[A-Za-z0-9_-]+$/,
    );
    const view = await loadCheckout(app(), shopper, checkoutUid);
    expect(view.status).toBe('ordered');
    expect(view.orderNumber).toEqual(expect.any(Number));
    expect(view.transactions).toEqual([
      expect.objectContaining({
        uid: started.body.transactionUid,
        status: 'awaiting_confirmation',
        paymentOK: false,
        totalPrice: PRICES.mug.DKK + FREIGHT,
      }),
    ]);
    expect(view.payed).toBe(false);

    const page = await app().server.inject({ method: 'GET', url: pagePath(started.body.paymentUrl) });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    // The store name "Cart <Shop> & Co" is text, never markup.
    expect(page.body).toContain('Cart &lt;Shop&gt; &amp; Co');
    expect(page.body).not.toContain('<Shop>');
    // In the order's language (the shop's Danish here), as the amount is.
    expect(page.body).toContain('<html lang="da">');
    expect(page.body).toContain(ORDER_TEXTS.approve);
    expect(page.body).toContain(ORDER_TEXTS.decline);
    expect(page.body).toContain(ORDER_TEXTS.abandon);
    expect(page.body).toContain('228,00');
  });

  it('refuses a return path off this site', async () => {
    const { shopper, checkoutUid } = await readyCheckout(app());
    for (const returnPath of ['//evil.example/x', 'https://evil.example/', '/\\evil.example']) {
      const refused = await startPayment<{ message: string }>(app(), shopper, checkoutUid, { returnPath });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(/^returnPath: /);
    }
  });

  it('opens and approves the page only with the key given to the shopper who started the payment', async () => {
    const { shopper, checkoutUid } = await readyCheckout(app());
    const started = (await startPayment(app(), shopper, checkoutUid)).body;
    // A stranger who learned the transaction id (from the return URL, a log, a screenshot)
    // tries to open the page and to approve, decline or abandon the payment.
    const peek = await app().server.inject({
      method: 'GET',
      url: `/payments/test/pay/${started.transactionUid}`,
    });
    expect(peek.statusCode).toBe(403);
    expect(peek.body).not.toContain(ORDER_TEXTS.approve);
    for (const key of ['', 'guessed-key', pageKey(started).slice(1)]) {
      for (const action of ['approve', 'decline', 'abandon'] as const) {
        const attack = await choose(started, action, key);
        expect(attack.statusCode, `${action} with "${key}"`).toBe(403);
        expect(attack.json()).toMatchObject({ error: 'wrong_payment_key' });
      }
    }
    // Another shopper's key for their own payment opens only their own page.
    const other = await readyCheckout(app());
    const theirs = (await startPayment(app(), other.shopper, other.checkoutUid)).body;
    expect((await choose(started, 'approve', pageKey(theirs))).statusCode).toBe(403);
    const view = await loadCheckout(app(), shopper, checkoutUid);
    expect(view.transactions.map((t) => t.status)).toEqual(['awaiting_confirmation']);
    expect(
      await app().db.query('SELECT 1 FROM test_payment_confirmations WHERE transaction_uid = $1', [
        started.transactionUid,
      ]),
    ).toEqual([]);
    // The shopper's own page works, and says nothing to other sites about its key.
    const own = await app().server.inject({ method: 'GET', url: pagePath(started.paymentUrl) });
    expect(own.statusCode).toBe(200);
    // Either policy keeps the page URL, and so its key, from other sites.
    expect(['no-referrer', 'strict-origin-when-cross-origin']).toContain(own.headers['referrer-policy']);
    expect(own.body).toContain(`name="key" value="${pageKey(started)}"`);
  });

  it('lets only the store’s allowed embed origins frame the payment page (the checkout runs in the player’s frame)', async () => {
    const { shopper, checkoutUid } = await readyCheckout(app());
    const started = (await startPayment(app(), shopper, checkoutUid)).body;
    const framing = async () => {
      const page = await app().server.inject({ method: 'GET', url: pagePath(started.paymentUrl) });
      expect(page.statusCode).toBe(200);
      expect(page.headers['referrer-policy']).toBe('no-referrer');
      return {
        ancestors: /frame-ancestors ([^;]*)/.exec(String(page.headers['content-security-policy']))?.[1],
        xFrameOptions: page.headers['x-frame-options'],
      };
    };
    expect(await framing()).toEqual({ ancestors: "'none'", xFrameOptions: 'DENY' });
    await app().services.stores.allowOrigins(SHOP, ['https://retailer.example']);
    expect(await framing()).toEqual({
      ancestors: "'self' https://retailer.example",
      xFrameOptions: undefined,
    });
  });

  it('redirects back to a return path with characters outside Latin-1, percent-encoded', async () => {
    const { shopper, checkoutUid } = await readyCheckout(app());
    const started = await startPayment(app(), shopper, checkoutUid, {
      returnPath: '/cart-live/ordre/betalt-✓-€-ø?væg=日本',
    });
    expect(started.status).toBe(200);
    const declined = await choose(started.body, 'decline');
    expect(declined.statusCode).toBe(303);
    expect(declined.headers.location).toBe(
      `/cart-live/ordre/betalt-%E2%9C%93-%E2%82%AC-%C3%B8?v%C3%A6g=%E6%97%A5%E6%9C%AC&transaction=${started.body.transactionUid}`,
    );
  });

  it('answers 404 for an unknown payment page', async () => {
    const page = await app().server.inject({ method: 'GET', url: '/payments/test/pay/unknown' });
    expect(page.statusCode).toBe(404);
  });
});

describe('webhooks', () => {
  it('goes from awaiting confirmation to received and marks the order paid', async () => {
    const { shopper, checkoutUid } = await readyCheckout(app());
    const { body } = await startPayment(app(), shopper, checkoutUid);
    expect(
      (await deliverSigned(event(body.transactionUid, 'payment.authorized', body.amount))).body.outcome,
    ).toBe('ignored');
    expect((await loadCheckout(app(), shopper, checkoutUid)).transactions[0]?.status).toBe(
      'awaiting_confirmation',
    );
    const received = await deliverSigned(event(body.transactionUid, 'payment.succeeded', body.amount));
    expect(received).toEqual({ status: 200, body: { outcome: 'applied' } });
    const view = await loadCheckout(app(), shopper, checkoutUid);
    expect(view).toMatchObject({ payed: true, paidAmount: body.amount, remainingAmount: 0 });
    expect(view.transactions[0]).toMatchObject({ status: 'received', paymentOK: true });
    expect(await reservationDoc(app(), shopper)).toMatchObject({
      payed: true,
      lastPaymentStatus: 'received',
    });
    const again = await startPayment(app(), shopper, checkoutUid);
    expect(again.status).toBe(409);
  });

  it('is idempotent: the same event three times, out of order, makes one transition', async () => {
    const { shopper, checkoutUid } = await readyCheckout(app());
    const { body } = await startPayment(app(), shopper, checkoutUid);
    const succeeded = event(body.transactionUid, 'payment.succeeded', body.amount, 'evt_success');
    const canceled = event(body.transactionUid, 'payment.canceled', body.amount, 'evt_cancel');
    const authorized = event(body.transactionUid, 'payment.authorized', body.amount, 'evt_auth');
    const outcomes: string[] = [];
    for (const delivery of [succeeded, canceled, succeeded, authorized, succeeded, canceled]) {
      const response = await deliverSigned(delivery);
      expect(response.status).toBe(200);
      outcomes.push(response.body.outcome as string);
    }
    expect(outcomes).toEqual(['applied', 'ignored', 'duplicate', 'ignored', 'duplicate', 'duplicate']);
    const state = await storedState(body.transactionUid);
    expect(state.transaction).toMatchObject({ status: 'received', payment_ok: true });
    expect(state.events.filter((recorded) => recorded.applied).map((recorded) => recorded.event_id)).toEqual([
      'evt_success',
    ]);
    expect(state.events).toHaveLength(3);
    expect((await loadCheckout(app(), shopper, checkoutUid)).paidAmount).toBe(body.amount);
  });

  it('rejects forged, tampered, stale and unsigned deliveries and changes nothing', async () => {
    const { shopper, checkoutUid } = await readyCheckout(app());
    const { body } = await startPayment(app(), shopper, checkoutUid);
    const payload = event(body.transactionUid, 'payment.succeeded', body.amount);
    const raw = JSON.stringify(payload);
    const secret = await testProvider().webhookSecret();
    const before = await storedState(body.transactionUid);

    const forged = await deliver(raw, signWebhook(randomBytes(32), raw, Date.now()));
    const tampered = await deliver(
      JSON.stringify({ ...payload, amount: 1 }),
      signWebhook(secret, raw, Date.now()),
    );
    const stale = await deliver(raw, signWebhook(secret, raw, Date.now() - 10 * 60_000));
    const unsigned = await deliver(raw, undefined);
    const garbage = await deliver(raw, 't=abc,v1=zz');
    for (const [name, response] of Object.entries({ forged, tampered, stale, unsigned, garbage })) {
      expect(response.status, name).toBe(401);
    }
    expect(stale.body.message).toBe('The webhook signature is stale.');
    expect(forged.body.message).toBe('The webhook signature is mismatch.');
    expect(await storedState(body.transactionUid)).toEqual(before);
    expect(before.events).toEqual([]);
    expect((await loadCheckout(app(), shopper, checkoutUid)).payed).toBe(false);
  });

  it('keeps a cancelled order with a payment attempt, so a late confirmation is found and owed back', async () => {
    const { shopper, checkoutUid } = await readyCheckout(app());
    const { body } = await startPayment(app(), shopper, checkoutUid);
    const cancel = () =>
      call<{ checkoutUid: string | null; error?: string }>(
        app(),
        shopper,
        '/functions/customerpage/cancelReservation',
        {
          pageUid: SHOP,
          campaign: CAMPAIGN,
          user: shopper.uid,
        },
      );
    // While the payment is open the order cannot be emptied under it.
    const refused = await cancel();
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('payment_open');
    // The shopper interrupts the payment; now the order can be emptied.
    await deliverSigned(event(body.transactionUid, 'payment.canceled', body.amount));
    const cancelled = await cancel();
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.checkoutUid).toBe(checkoutUid);
    // The provider confirms the interrupted payment after all: it is found, but the empty order
    // owes nothing, so the money does not count and is owed back to the shopper.
    const late = await deliverSigned(event(body.transactionUid, 'payment.succeeded', body.amount));
    expect(late).toEqual({ status: 200, body: { outcome: 'refund_due' } });
    const view = await loadCheckout(app(), shopper, checkoutUid);
    expect(view).toMatchObject({ items: [], paidAmount: 0, remainingAmount: 0, payed: false });
    expect(await refundDue(body.transactionUid)).toBe(body.amount);
  });

  it('refuses an event whose amount does not match its transaction, recording nothing', async () => {
    const { shopper, checkoutUid } = await readyCheckout(app());
    const { body } = await startPayment(app(), shopper, checkoutUid);
    const wrong = await deliverSigned(event(body.transactionUid, 'payment.succeeded', body.amount - 1));
    expect(wrong.status).toBe(422);
    expect((await storedState(body.transactionUid)).events).toEqual([]);
    const unknown = await deliverSigned(event('no-such-transaction', 'payment.succeeded', 1));
    expect(unknown.status).toBe(404);
    const malformed = await deliverSigned({
      ...event(body.transactionUid, 'payment.succeeded', 1),
      amount: -1,
    });
    expect(malformed.status).toBe(400);
  });
});

describe('an order is paid at most once, and only for what it holds', () => {
  it('cancels the open attempt when another starts, and never counts two payments of one order', async () => {
    const { shopper, checkoutUid } = await readyCheckout(app());
    const first = (await startPayment(app(), shopper, checkoutUid)).body;
    const second = (await startPayment(app(), shopper, checkoutUid)).body;
    expect(second.transactionUid).not.toBe(first.transactionUid);
    let view = await loadCheckout(app(), shopper, checkoutUid);
    expect(view.transactions.map((t) => t.status)).toEqual(['abandoned', 'awaiting_confirmation']);
    // The provider still confirms both (the shopper paid in two tabs): the first pays the order,
    // the second no longer fits and is owed back.
    expect(
      (await deliverSigned(event(first.transactionUid, 'payment.succeeded', first.amount))).body.outcome,
    ).toBe('applied');
    const twice = await deliverSigned(event(second.transactionUid, 'payment.succeeded', second.amount));
    expect(twice).toEqual({ status: 200, body: { outcome: 'refund_due' } });
    view = await loadCheckout(app(), shopper, checkoutUid);
    expect(view).toMatchObject({ payed: true, paidAmount: first.amount, remainingAmount: 0 });
    expect(await refundDue(second.transactionUid)).toBe(second.amount);
    expect(await refundDue(first.transactionUid)).toBe(0);
    expect(view.transactions.map((t) => [t.status, t.paymentOK, t.refundDue])).toEqual([
      ['received', true, 0],
      ['received', false, second.amount],
    ]);
  });

  it('refuses removing or reducing lines while a payment is open', async () => {
    const { shopper, checkoutUid } = await readyCheckout(app());
    await addSingle(app(), shopper, 'mug');
    const { body } = await startPayment(app(), shopper, checkoutUid);
    for (const quantity of [1, 0]) {
      const reduced = await call<{ message: string; error: string }>(
        app(),
        shopper,
        '/functions/customerpage/changeCheckoutProductQuantity',
        { ...checkoutRef(checkoutUid), productUid: 'mug', quantity },
      );
      expect(reduced.status).toBe(409);
      expect(reduced.body.error).toBe('payment_open');
      expect(reduced.body.message).toMatch(/payment for this order is under way/);
    }
    const removed = await call(app(), shopper, '/functions/customerpage/cancelReservation', {
      pageUid: SHOP,
      campaign: CAMPAIGN,
      user: shopper.uid,
      productUid: 'mug',
    });
    expect(removed.status).toBe(409);
    const view = await loadCheckout(app(), shopper, checkoutUid);
    expect(view.items[0]?.quantity).toBe(2);
    // The payment lands for what the order holds.
    await deliverSigned(event(body.transactionUid, 'payment.succeeded', body.amount));
    expect(await loadCheckout(app(), shopper, checkoutUid)).toMatchObject({
      payed: true,
      paidAmount: body.amount,
    });
  });

  it('refuses cheaper delivery while a payment for the dearer one is under way', async () => {
    const { shopper, checkoutUid } = await readyCheckout(app());
    const { body } = await startPayment(app(), shopper, checkoutUid);
    const pickup = await call<{ error: string }>(
      app(),
      shopper,
      '/functions/customerpage/updateCheckoutDetails',
      {
        ...checkoutRef(checkoutUid),
        details: { ...HOME_DELIVERY, shippingMethod: 'store_pickup' },
      },
    );
    expect(pickup.status).toBe(409);
    expect(pickup.body.error).toBe('payment_open');
    const view = await loadCheckout(app(), shopper, checkoutUid);
    expect(view).toMatchObject({ freight: FREIGHT, totalPrice: body.amount });
    // Once the payment lands, the order is what the shopper paid for.
    expect(
      (await deliverSigned(event(body.transactionUid, 'payment.succeeded', body.amount))).body.outcome,
    ).toBe('applied');
    expect(await loadCheckout(app(), shopper, checkoutUid)).toMatchObject({
      payed: true,
      paidAmount: body.amount,
    });
  });

  it('refunds part of a payment: the order owes that part again, not the whole payment', async () => {
    const { shopper, checkoutUid } = await readyCheckout(app());
    const { body } = await startPayment(app(), shopper, checkoutUid);
    await deliverSigned(event(body.transactionUid, 'payment.succeeded', body.amount));
    const refunded = await deliverSigned(event(body.transactionUid, 'payment.refunded', 1));
    expect(refunded.body.outcome).toBe('applied');
    const view = await loadCheckout(app(), shopper, checkoutUid);
    expect(view).toMatchObject({ payed: false, paidAmount: body.amount - 1, remainingAmount: 1 });
  });
});

describe('large amounts', () => {
  it('takes an order above 2^31 - 1 minor units end to end, and refuses prices above the maximum', async () => {
    const price = 3_000_000_000; // 30,000,000.00 kr.
    const put = (prices: object) =>
      app().server.inject({
        method: 'PUT',
        url: `/staff/stores/${SHOP}/products/yacht`,
        headers: adminHeaders,
        payload: { name: 'Yacht', prices, stock: 5 },
      });
    const tooDear = await put({ DKK: MAX_PRICE_MINOR_UNITS + 1 });
    expect(tooDear.statusCode).toBe(400);
    expect(tooDear.json().message).toMatch(/prices\.DKK: must be at most 10000000000 minor units/);
    expect((await put({ DKK: price })).statusCode).toBeLessThan(300);
    const listed = await app().server.inject({
      method: 'PUT',
      url: `/admin/events/${EVENT}/products/yacht`,
      headers: adminHeaders,
      payload: { productUid: 'yacht', sorting: 9 },
    });
    expect(listed.statusCode).toBeLessThan(300);

    const shopper = await signIn(app());
    const added = await addSingle(app(), shopper, 'yacht', { quantity: 2 });
    expect(added.status).toBe(200);
    const checkoutUid = added.body.checkoutUid as string;
    await saveCheckoutDetails(app(), shopper, checkoutUid);
    const { body } = await startPayment(app(), shopper, checkoutUid);
    expect(body.amount).toBe(2 * price + FREIGHT);
    await deliverSigned(event(body.transactionUid, 'payment.succeeded', body.amount));
    const view = await loadCheckout(app(), shopper, checkoutUid);
    expect(view).toMatchObject({
      payed: true,
      totalPrice: 2 * price + FREIGHT,
      paidAmount: 2 * price + FREIGHT,
    });
    expect(view.items[0]).toMatchObject({ price, total: 2 * price });
    expect(typeof view.transactions[0]?.totalPrice).toBe('number');
  });
});

describe('without test payments (VITRINE_TEST_PAYMENTS=off, the production default)', () => {
  it('offers no test provider: no payment can be started, and its page and webhook do not exist', async () => {
    // A second app on this file's database, whose store is seeded already: only the setting differs.
    const shop = await openTestApp({ db: app().db, env: { VITRINE_TEST_PAYMENTS: 'off' } });
    try {
      const { shopper, checkoutUid } = await readyCheckout(shop);
      const started = await startPayment<{ error: string }>(shop, shopper, checkoutUid);
      expect(started.status).toBe(503);
      expect(started.body.error).toBe('no_payment_provider');
      expect(shop.services.testProvider).toBeNull();
      const page = await shop.server.inject({ method: 'GET', url: '/payments/test/pay/anything?key=x' });
      expect(page.statusCode).toBe(404);
      const approve = await shop.server.inject({
        method: 'POST',
        url: '/payments/test/pay/anything/approve',
      });
      expect(approve.statusCode).toBe(404);
      const hook = await shop.server.inject({
        method: 'POST',
        url: '/payments/test/webhook',
        headers: { 'content-type': 'application/json' },
        payload: '{}',
      });
      expect(hook.statusCode).toBe(404);
    } finally {
      await shop.close();
    }
  });
});

describe('the test provider after a crash', () => {
  it('confirms on restart an approval whose confirmation the crashed process never sent', async () => {
    const db = await openTestDatabase();
    // Apps as every test's (openTestApp), on the real clock and timers: live video in this process
    // and no RTMP port. With the production defaults each app forked a media worker (LIVE_MEDIA=child)
    // that this test never uses, and closing waited for it: 70 of the test's 80 s at load 10.
    const first = await openTestApp({ db });
    let second: TestApp | undefined;
    try {
      await seedCommerceStore(first, { now: Date.now() });
      const { shopper, checkoutUid } = await readyCheckout(first);
      const started = (await startPayment(first, shopper, checkoutUid)).body;
      const url = new URL(started.paymentUrl);
      const approved = await first.server.inject({
        method: 'POST',
        url: `${url.pathname}/approve`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ key: url.searchParams.get('key') ?? '' }).toString(),
      });
      expect(approved.statusCode).toBe(303);
      // The process dies before its confirmation timer fires (close drops the timer, as kill -9 does).
      await first.close();
      const status = async () =>
        (
          await db.query<{ status: string }>('SELECT status FROM payment_transactions WHERE uid = $1', [
            started.transactionUid,
          ])
        )[0]?.status;
      expect(await status()).toBe('awaiting_confirmation');
      // A new process on the same database confirms it.
      second = await openTestApp({ db });
      await second.server.ready();
      // It confirms every recorded approval once ready, in the background, and forgets the approval
      // only after its confirmation was taken: the status turns first, so both are awaited.
      await vi.waitFor(
        async () => {
          expect(await status()).toBe('received');
          expect(await db.query('SELECT * FROM test_payment_confirmations')).toEqual([]);
        },
        { timeout: 10_000, interval: 50 },
      );
      const [checkout] = await db.query<{ payed: boolean }>('SELECT payed FROM checkouts WHERE uid = $1', [
        checkoutUid,
      ]);
      expect(checkout?.payed).toBe(true);
    } finally {
      await second?.close();
      await db.dispose();
    }
  });
});

describe('the hosted page: decline, retry, remaining amount', () => {
  it('declines, retries with a new payment, and confirms an approval after a moment', async () => {
    const { shopper, checkoutUid } = await readyCheckout(app());
    const first = (
      await startPayment(app(), shopper, checkoutUid, { returnPath: `/${CAMPAIGN}/${checkoutUid}/success` })
    ).body;
    const declined = await choose(first, 'decline');
    expect(declined.statusCode).toBe(303);
    expect(declined.headers.location).toBe(
      `/${CAMPAIGN}/${checkoutUid}/success?transaction=${first.transactionUid}`,
    );
    let view = await loadCheckout(app(), shopper, checkoutUid);
    expect(view.transactions.map((t) => t.status)).toEqual(['declined']);
    expect(view.remainingAmount).toBe(first.amount);

    // The interrupted payment is retried with a new transaction for what remains.
    const second = (await startPayment(app(), shopper, checkoutUid)).body;
    expect(second.transactionUid).not.toBe(first.transactionUid);
    expect(second.amount).toBe(first.amount);
    const approved = await choose(second, 'approve');
    expect(approved.statusCode).toBe(303);
    expect(approved.headers.location).toBe(
      `/${CAMPAIGN}/${checkoutUid}/success?transaction=${second.transactionUid}`,
    );
    view = await loadCheckout(app(), shopper, checkoutUid);
    expect(view.transactions[1]?.status).toBe('awaiting_confirmation');
    // The provider confirms after a moment: its one timer fires once the moment has passed.
    expect(confirmationTimers.pendingDelays()).toEqual([TEST_CONFIRMATION_DELAY_MS]);
    clockAhead += TEST_CONFIRMATION_DELAY_MS;
    await confirmationTimers.fireAll();
    view = await loadCheckout(app(), shopper, checkoutUid);
    expect(view.transactions[1]?.status).toBe('received');
    expect(view).toMatchObject({ payed: true, remainingAmount: 0 });
    const settled = await app().server.inject({ method: 'GET', url: pagePath(second.paymentUrl) });
    expect(settled.body).toContain(ORDER_TEXTS.status.received);
    expect(settled.body).not.toContain(ORDER_TEXTS.approve);
  });

  it('lets a grown order pay its remaining amount, or give back what was added after the payment (issue 27)', async () => {
    const { shopper, checkoutUid } = await readyCheckout(app());
    const first = (await startPayment(app(), shopper, checkoutUid)).body;
    await deliverSigned(event(first.transactionUid, 'payment.succeeded', first.amount));
    expect((await loadCheckout(app(), shopper, checkoutUid)).payed).toBe(true);
    const quantity = (value: number, productUid = 'mug') =>
      call(app(), shopper, '/functions/customerpage/changeCheckoutProductQuantity', {
        ...checkoutRef(checkoutUid),
        productUid,
        quantity: value,
      });
    const cancel = (productUid?: string) =>
      call(app(), shopper, '/functions/customerpage/cancelReservation', {
        pageUid: SHOP,
        campaign: CAMPAIGN,
        user: shopper.uid,
        ...(productUid ? { productUid } : {}),
      });
    // Before packing the order may still grow; the payments no longer cover it.
    expect((await addSingle(app(), shopper, 'mug')).body.status).toBe('added');
    let view = await loadCheckout(app(), shopper, checkoutUid);
    expect(view).toMatchObject({ payed: false, paidAmount: first.amount, remainingAmount: PRICES.mug.DKK });
    // The unit added after the payment can go again, and the order is paid in full once more.
    expect((await quantity(1)).status).toBe(200);
    expect(await loadCheckout(app(), shopper, checkoutUid)).toMatchObject({
      payed: true,
      remainingAmount: 0,
    });
    // The paid unit stays, whichever way the shopper tries to take it back.
    const paidRemoval = await quantity(0);
    expect(paidRemoval.status).toBe(409);
    expect(paidRemoval.body).toMatchObject({ error: 'order_paid' });
    expect((await cancel('mug')).status).toBe(409);
    expect((await cancel()).status).toBe(409);
    expect((await loadCheckout(app(), shopper, checkoutUid)).items.map((item) => item.quantity)).toEqual([1]);
    // Grown again, the rest is paid.
    expect((await addSingle(app(), shopper, 'mug')).body.status).toBe('added');
    const rest = (await startPayment(app(), shopper, checkoutUid)).body;
    expect(rest.amount).toBe(PRICES.mug.DKK);
    await deliverSigned(event(rest.transactionUid, 'payment.succeeded', rest.amount));
    view = await loadCheckout(app(), shopper, checkoutUid);
    expect(view).toMatchObject({
      payed: true,
      paidAmount: first.amount + PRICES.mug.DKK,
      remainingAmount: 0,
    });
  });
});
