import { CART_RESERVATION_HOLD_MS, CART_RESERVATION_MAX_AGE_MS } from '@vitrine/domain';
import { DEFAULT_MAX_UNITS_PER_SHOPPER, PingResponse } from '@vitrine/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ABUSE_LIMITS } from '../../http/abuse-limits.ts';
import { placeOrder, saveCheckoutDetails } from '../../test-support/checkout-steps.ts';
import {
  addShow,
  addSingle,
  CAMPAIGN,
  call,
  OTHER_CAMPAIGN,
  SHOP,
  type Shopper,
  seedCommerceStore,
  stockOf,
} from '../../test-support/commerce-fixture.ts';
import { adminHeaders, openTestApp } from '../../test-support/test-app.ts';
import { shopperLimitMessage } from './cart-service.ts';

// Issue 12 item 7 (stock hoarding) and the cart parts of item 5 (cheap identities), performed
// through the public API with the abuse limits on.

const START = Date.UTC(2026, 10, 20, 18, 0);
const FLASH_STOCK = 30;
const MINUTE = 60_000;
let clock = START;
let app: Awaited<ReturnType<typeof openTestApp>>;

/** An anonymous shopper signed in from its own address (sign-ups are limited per address). */
let signIns = 0;
async function signInFrom(address = `10.1.${Math.floor(signIns / 250)}.${(signIns % 250) + 1}`) {
  signIns += 1;
  const response = await app.server.inject({
    method: 'POST',
    url: '/functions/auth/signInAnonymously',
    payload: {},
    remoteAddress: address,
  });
  expect(response.statusCode, response.body).toBe(200);
  const session = response.json() as { idToken: string; refreshToken: string; user: { uid: string } };
  return { uid: session.user.uid, token: session.idToken, refreshToken: session.refreshToken };
}

/** The shopper with a fresh id token, as the player gets one when the old one runs out. */
async function refreshed(shopper: Shopper & { refreshToken: string }): Promise<Shopper> {
  const response = await app.server.inject({
    method: 'POST',
    url: '/functions/auth/refreshIdToken',
    payload: { refreshToken: shopper.refreshToken },
  });
  expect(response.statusCode, response.body).toBe(200);
  return { ...shopper, token: (response.json() as { idToken: string }).idToken };
}

function ping(shopper: Shopper, checkoutUid: string | null, remoteAddress = '127.0.0.1') {
  return app.server.inject({
    method: 'POST',
    url: '/functions/ping',
    headers: { authorization: `Bearer ${shopper.token}` },
    payload: { action: 'setLastSeenOnCheckout', pageUid: SHOP, campaignUid: CAMPAIGN, checkoutUid },
    remoteAddress,
  });
}

async function cartOf(shopper: Shopper): Promise<string> {
  const answer = await call<{ uid: string | null }>(app, shopper, '/shopapiv2/cart/getCartUid', {
    pageUid: SHOP,
    campaignUid: CAMPAIGN,
  });
  if (!answer.body.uid) throw new Error('no cart');
  return answer.body.uid;
}

beforeAll(async () => {
  app = await openTestApp({ now: () => clock, env: { VITRINE_ABUSE_LIMITS: 'on' } });
  await seedCommerceStore(app, { now: clock, flashStock: FLASH_STOCK });
});

afterAll(async () => {
  await app?.close();
});

describe('stock hoarding (issue 12 item 7)', () => {
  it("caps one anonymous shopper adding a product's whole stock at the per-shopper maximum", async () => {
    clock += 2 * MINUTE; // fresh rate-limit windows
    const hoarder = await signInFrom();
    const answers: number[] = [];
    for (let unit = 0; unit < FLASH_STOCK; unit++) {
      answers.push((await addSingle(app, hoarder, 'flash')).status);
    }
    expect(answers.filter((status) => status === 200)).toHaveLength(DEFAULT_MAX_UNITS_PER_SHOPPER);
    const refused = await addSingle(app, hoarder, 'flash');
    expect(refused).toEqual({
      status: 409,
      body: {
        error: 'shopper_limit',
        message: shopperLimitMessage(DEFAULT_MAX_UNITS_PER_SHOPPER),
        maxUnitsPerShopper: DEFAULT_MAX_UNITS_PER_SHOPPER,
      },
    });
    expect((await stockOf(app, 'flash')).product).toBe(FLASH_STOCK - DEFAULT_MAX_UNITS_PER_SHOPPER);

    // Nor by raising the line's quantity, nor in another show's cart of the same store.
    const raised = await call<{ error: string }>(
      app,
      hoarder,
      '/functions/customerpage/changeCheckoutProductQuantity',
      {
        pageUid: SHOP,
        campaignUid: CAMPAIGN,
        checkoutUid: await cartOf(hoarder),
        productUid: 'flash',
        quantity: 50,
      },
    );
    expect(raised.status).toBe(409);
    expect(raised.body.error).toBe('shopper_limit');
    expect((await stockOf(app, 'flash')).product).toBe(FLASH_STOCK - DEFAULT_MAX_UNITS_PER_SHOPPER);

    // Another shopper still gets units.
    const other = await signInFrom();
    expect((await addSingle(app, other, 'flash')).body).toMatchObject({ status: 'added' });
    for (const shopper of [hoarder, other]) {
      await call(app, shopper, '/functions/customerpage/cancelReservation', {
        user: shopper.uid,
        pageUid: SHOP,
        campaign: CAMPAIGN,
      });
    }
  });

  it('caps one shopper sending many adds at once: none is counted on a stale view of the cart', async () => {
    // On PostgreSQL the adds run on several connections and wait on the cart's row in turn; each
    // must count the units the ones before it committed (the count is read after that wait).
    clock += 2 * MINUTE; // fresh rate-limit windows
    const hoarder = await signInFrom();
    const answers = await Promise.all(
      Array.from({ length: FLASH_STOCK }, () => addSingle(app, hoarder, 'flash')),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(DEFAULT_MAX_UNITS_PER_SHOPPER);
    expect(statuses.filter((status) => status === 409)).toHaveLength(
      FLASH_STOCK - DEFAULT_MAX_UNITS_PER_SHOPPER,
    );
    expect((await stockOf(app, 'flash')).product).toBe(FLASH_STOCK - DEFAULT_MAX_UNITS_PER_SHOPPER);
    const [line] = await app.db.query<{ qty: number }>(
      "SELECT l.qty FROM checkout_lines l JOIN checkouts c ON c.uid = l.checkout_uid WHERE c.user_uid = $1 AND l.product_uid = 'flash'",
      [hoarder.uid],
    );
    expect(line?.qty).toBe(DEFAULT_MAX_UNITS_PER_SHOPPER);
    await call(app, hoarder, '/functions/customerpage/cancelReservation', {
      user: hoarder.uid,
      pageUid: SHOP,
      campaign: CAMPAIGN,
    });
    expect((await stockOf(app, 'flash')).product).toBe(FLASH_STOCK);
  });

  it('counts units held in another show of the store, not units already bought', async () => {
    clock += 2 * MINUTE;
    // The flash deal in a second show of the store.
    await addShow(app, {
      eventUid: 'hoarding-other-event',
      campaignUid: OTHER_CAMPAIGN,
      name: 'Other show',
      startedAt: clock - MINUTE,
      products: ['flash'],
    });
    const buyer = await signInFrom();
    const max = DEFAULT_MAX_UNITS_PER_SHOPPER;
    expect((await addSingle(app, buyer, 'flash', { quantity: max })).status).toBe(200);
    const checkoutUid = await cartOf(buyer);
    await saveCheckoutDetails(app, buyer, checkoutUid);
    await placeOrder(app, buyer, checkoutUid);
    // An unpaid order still holds its units: none more in the other show.
    const refused = await addSingle(app, buyer, 'flash', { campaignUid: OTHER_CAMPAIGN });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: 'shopper_limit' });
    // Once the shop sends the order to packing the units are bought: the customer may buy again.
    const packed = await app.server.inject({
      method: 'POST',
      url: `/staff/stores/${SHOP}/orders/${checkoutUid}/packing`,
      headers: adminHeaders,
    });
    expect(packed.statusCode, packed.body).toBe(200);
    expect((await addSingle(app, buyer, 'flash', { campaignUid: OTHER_CAMPAIGN })).body).toMatchObject({
      status: 'added',
    });
    await call(app, buyer, '/functions/customerpage/cancelReservation', {
      user: buyer.uid,
      pageUid: SHOP,
      campaign: OTHER_CAMPAIGN,
    });
  });

  it("follows the store's maxUnitsPerShopper setting (admin API, validated)", async () => {
    const page = { name: 'Cart Shop', language: 'da', currency: 'DKK' };
    const invalid = await app.server.inject({
      method: 'PUT',
      url: `/admin/pages/${SHOP}`,
      headers: adminHeaders,
      payload: { ...page, integritySettings: { maxUnitsPerShopper: 0 } },
    });
    expect(invalid.statusCode).toBe(400);
    const saved = await app.server.inject({
      method: 'PUT',
      url: `/admin/pages/${SHOP}`,
      headers: adminHeaders,
      payload: { ...page, integritySettings: { maxUnitsPerShopper: 3 } },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const shopper = await signInFrom();
    expect((await addSingle(app, shopper, 'flash', { quantity: 3 })).status).toBe(200);
    const refused = await addSingle(app, shopper, 'flash');
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: 'shopper_limit', message: shopperLimitMessage(3) });
    await app.server.inject({
      method: 'PUT',
      url: `/admin/pages/${SHOP}`,
      headers: adminHeaders,
      payload: page,
    });
    await call(app, shopper, '/functions/customerpage/cancelReservation', {
      user: shopper.uid,
      pageUid: SHOP,
      campaign: CAMPAIGN,
    });
  });

  it('pings never extend a hold past its maximum age; then the units are released', async () => {
    clock += 2 * MINUTE;
    const before = (await stockOf(app, 'flash')).product;
    const shopper = await signInFrom();
    const addedAt = clock;
    expect((await addSingle(app, shopper, 'flash', { quantity: 2 })).status).toBe(200);
    const checkoutUid = await cartOf(shopper);

    clock = addedAt + 30 * MINUTE;
    let answer = PingResponse.parse((await ping(shopper, checkoutUid)).json());
    expect(answer.reservedUntil).toBe(clock + CART_RESERVATION_HOLD_MS); // an ordinary renewal

    clock = addedAt + 50 * MINUTE;
    answer = PingResponse.parse((await ping(shopper, checkoutUid)).json());
    expect(answer.reservedUntil).toBe(addedAt + CART_RESERVATION_MAX_AGE_MS); // not clock + 20 min

    clock = addedAt + CART_RESERVATION_MAX_AGE_MS + 1;
    answer = PingResponse.parse((await ping(await refreshed(shopper), checkoutUid)).json());
    expect(answer.reservedUntil).toBeNull();
    expect((await stockOf(app, 'flash')).product).toBe(before);
  });
  it("keeps an order's lines without a timed hold when the order changes", async () => {
    clock += 2 * MINUTE;
    const buyer = await signInFrom();
    expect((await addSingle(app, buyer, 'mug')).status).toBe(200);
    const checkoutUid = await cartOf(buyer);
    await saveCheckoutDetails(app, buyer, checkoutUid);
    await placeOrder(app, buyer, checkoutUid);
    expect((await addSingle(app, buyer, 'mug')).body).toMatchObject({ status: 'added' });
    const lines = await app.db.query<{ reserved_until: string | null }>(
      'SELECT reserved_until FROM checkout_lines WHERE checkout_uid = $1',
      [checkoutUid],
    );
    expect(lines).toEqual([{ reserved_until: null }]);
  });
});

describe('cart limits per user and per address (issue 12 item 5)', () => {
  it('refuses one user pinging 3,000 times after the per-user cap', async () => {
    clock += 2 * MINUTE;
    const shopper = await signInFrom();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 3_000; attempt++) statuses.push((await ping(shopper, null)).statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(ABUSE_LIMITS.ping.perUser.max);
    expect(statuses.filter((status) => status === 429)).toHaveLength(3_000 - ABUSE_LIMITS.ping.perUser.max);
    const refused = (await ping(shopper, null)).json();
    expect(refused).toMatchObject({ error: 'rate_limited' });
    clock += ABUSE_LIMITS.ping.perUser.windowMs;
    expect((await ping(shopper, null)).statusCode).toBe(200); // the next window
  });

  it('refuses pings from many anonymous users at one address after the per-address cap', async () => {
    clock += 2 * MINUTE;
    const { perUser, perAddress } = ABUSE_LIMITS.ping;
    const users = await Promise.all(
      Array.from({ length: perAddress.max / perUser.max + 1 }, () => signInFrom()),
    );
    let accepted = 0;
    for (const user of users) {
      for (let attempt = 0; attempt < perUser.max; attempt++) {
        if ((await ping(user, null, '203.0.113.7')).statusCode === 200) accepted += 1;
      }
    }
    expect(accepted).toBe(perAddress.max);
    const refused = await ping(await signInFrom(), null, '203.0.113.7');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/^Too many requests from your network/);
    // Another address is not affected.
    expect((await ping(await signInFrom(), null, '203.0.113.8')).statusCode).toBe(200);
  });

  it('refuses one user adding and removing in a loop after the per-user cap of cart changes', async () => {
    clock += 2 * MINUTE;
    const shopper = await signInFrom();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 100; attempt++) {
      const add = await addSingle(app, shopper, 'mug');
      const remove = await call(app, shopper, '/functions/customerpage/cancelReservation', {
        user: shopper.uid,
        pageUid: SHOP,
        campaign: CAMPAIGN,
      });
      statuses.push(add.status, remove.status);
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(ABUSE_LIMITS.cartChange.perUser.max);
    expect(statuses.filter((status) => status === 429)).toHaveLength(
      200 - ABUSE_LIMITS.cartChange.perUser.max,
    );
  });
});
