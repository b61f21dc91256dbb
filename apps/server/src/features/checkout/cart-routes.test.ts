import { CART_RESERVATION_HOLD_MS } from '@vitrine/domain';
import { type CheckoutReservationDoc, subscriptionKey } from '@vitrine/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCartTab } from '../../test-support/cart-tab.ts';
import { reservationDoc } from '../../test-support/checkout-steps.ts';
import {
  addShow,
  addSingle,
  adminWrite,
  CAMPAIGN,
  call,
  OTHER_CAMPAIGN,
  PRICES,
  SHOP,
  type Shopper,
  seedCommerceStore,
  signIn,
  stockOf,
} from '../../test-support/commerce-fixture.ts';
import {
  connect,
  isAnswerTo,
  type RealtimeTestClient,
  startTestServer,
  subscribeFrame,
  type TestServer,
} from '../../test-support/realtime-test-client.ts';

const START = Date.UTC(2026, 10, 20, 18, 0);
let clock = START;
let server: TestServer;
const clients: RealtimeTestClient[] = [];

beforeAll(async () => {
  server = await startTestServer({ now: () => clock });
  await seedCommerceStore(server, { now: clock });
});

afterAll(async () => {
  for (const client of clients) client.close();
  await server?.close();
});

describe('cart calls: authentication and validation', () => {
  it('refuses calls without an id token', async () => {
    const response = await call(server, null, '/shopapiv2/cart/addSingle', {
      pageUid: SHOP,
      campaignUid: CAMPAIGN,
      productUid: 'mug',
    });
    expect(response.status).toBe(401);
  });

  it('answers malformed payloads with 400 naming the field', async () => {
    const shopper = await signIn(server);
    const bad = await call<{ message: string }>(server, shopper, '/shopapiv2/cart/addSingle', {
      pageUid: SHOP,
      campaignUid: CAMPAIGN,
      productUid: 'mug',
      quantity: 0,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^quantity: /);
    const price = await call<{ message: string }>(server, shopper, '/shopapiv2/cart/addSingle', {
      pageUid: SHOP,
      campaignUid: CAMPAIGN,
      productUid: 'mug',
      price: 1,
    });
    expect(price.status).toBe(400);
    expect(price.body.message).toMatch(/price/);
    const quantity = await call<{ message: string }>(
      server,
      shopper,
      '/functions/customerpage/changeCheckoutProductQuantity',
      { pageUid: SHOP, campaignUid: CAMPAIGN, checkoutUid: 'x', productUid: 'mug', quantity: '2' },
    );
    expect(quantity.status).toBe(400);
    expect(quantity.body.message).toMatch(/^quantity: /);
  });

  it("refuses another user's reservation", async () => {
    const shopper = await signIn(server);
    const response = await call(server, shopper, '/functions/customerpage/loadUserReservation', {
      pageUid: SHOP,
      campaign: CAMPAIGN,
      user: 'someone-else',
    });
    expect(response.status).toBe(403);
  });
});

describe('addSingle feedback (spec §4 product feedback states, §8 texts)', () => {
  let shopper: Shopper;
  beforeAll(async () => {
    shopper = await signIn(server);
  });

  it('adds a product, prices it on the server in the shopper currency and reserves its stock', async () => {
    const before = await stockOf(server, 'mug');
    const { status, body } = await addSingle(server, shopper, 'mug', { quantity: 2 });
    expect(status).toBe(200);
    expect(body.status).toBe('added');
    expect(body.message).toBe('Added');
    expect(body.checkoutUid).toEqual(expect.any(String));
    expect(body.reservation.currency).toBe('DKK');
    expect(body.reservation.reservations).toEqual([
      expect.objectContaining({
        mainProduct: 'mug',
        qty: 2,
        unitPrice: PRICES.mug.DKK,
        totalPrice: 2 * PRICES.mug.DKK,
        variantUid: null,
        productName: 'Mug',
        reservedUntil: clock + CART_RESERVATION_HOLD_MS,
      }),
    ]);
    expect(body.reservation.totalPrice).toBe(2 * PRICES.mug.DKK);
    expect((await stockOf(server, 'mug')).product).toBe((before.product ?? 0) - 2);
    const cart = await call<{ uid: string }>(server, shopper, '/shopapiv2/cart/getCartUid', {
      pageUid: SHOP,
      campaignUid: CAMPAIGN,
    });
    expect(cart.body.uid).toBe(body.checkoutUid);
  });

  it('says "Variant is missing." for a product with variants added without a known one', async () => {
    for (const variantUid of [null, 'shirt-xl']) {
      const { body } = await addSingle(server, shopper, 'shirt', { variantUid });
      expect(body.status).toBe('variantMissing');
      expect(body.message).toBe('Variant is missing.');
    }
  });

  it('says "Product sold out." for a sold-out variant and keeps the cart as it was', async () => {
    const { body } = await addSingle(server, shopper, 'shirt', { variantUid: 'shirt-l' });
    expect(body.status).toBe('soldOut');
    expect(body.message).toBe('Product sold out.');
    expect(body.reservation.reservations.map((line) => line.mainProduct)).toEqual(['mug']);
    expect((await stockOf(server, 'shirt')).variants['shirt-l']).toBe(0);
  });

  it('reserves a variant out of its own stock and the product total', async () => {
    const { body } = await addSingle(server, shopper, 'shirt', { variantUid: 'shirt-m' });
    expect(body.status).toBe('added');
    expect(body.reservation.reservations[1]).toMatchObject({
      mainProduct: 'shirt',
      variantUid: 'shirt-m',
      variantName: 'M',
    });
    expect(await stockOf(server, 'shirt')).toEqual({ product: 1, variants: { 'shirt-m': 1, 'shirt-l': 0 } });
  });

  it('is not found for unknown products and products not shown in the campaign', async () => {
    for (const [productUid, campaignUid] of [
      ['nope', CAMPAIGN],
      ['unlisted', CAMPAIGN],
      ['mug', OTHER_CAMPAIGN],
    ] as const) {
      const { body } = await addSingle(server, shopper, productUid, { campaignUid });
      expect(body.status).toBe('notFound');
    }
    expect(
      (
        await call(server, shopper, '/shopapiv2/cart/addSingle', {
          pageUid: SHOP,
          campaignUid: 'nope',
          productUid: 'mug',
        })
      ).status,
    ).toBe(404);
  });
});

describe('quantity changes, cancellation and expiry give stock back', () => {
  it('changes quantities, refuses more than is left, removes at 0', async () => {
    const shopper = await signIn(server);
    const added = await addSingle(server, shopper, 'mug');
    const checkoutUid = added.body.checkoutUid as string;
    const stock = (await stockOf(server, 'mug')).product as number;
    const change = (quantity: number) =>
      call<{ status: string; reservation: CheckoutReservationDoc }>(
        server,
        shopper,
        '/functions/customerpage/changeCheckoutProductQuantity',
        { pageUid: SHOP, campaignUid: CAMPAIGN, checkoutUid, productUid: 'mug', quantity },
      );
    const three = await change(3);
    expect(three.body.status).toBe('updated');
    expect(three.body.reservation.totalPrice).toBe(3 * PRICES.mug.DKK);
    expect((await stockOf(server, 'mug')).product).toBe(stock - 2);
    const tooMany = await change(3 + stock);
    expect(tooMany.body.status).toBe('soldOut');
    expect(tooMany.body.reservation.reservations[0]?.qty).toBe(3);
    const removed = await change(0);
    expect(removed.body.status).toBe('removed');
    expect(removed.body.reservation.reservations).toEqual([]);
    expect((await stockOf(server, 'mug')).product).toBe(stock + 1);
  });

  it('keeps totals and stock right under concurrent quantity changes of one cart', async () => {
    const shopper = await signIn(server);
    const added = await addSingle(server, shopper, 'mug');
    const checkoutUid = added.body.checkoutUid as string;
    const stockWithOne = (await stockOf(server, 'mug')).product as number;
    const quantities = [2, 5, 1, 4, 3, 2, 5, 1, 3, 4];
    const answers = await Promise.all(
      quantities.map((quantity) =>
        call<{ status: string }>(server, shopper, '/functions/customerpage/changeCheckoutProductQuantity', {
          pageUid: SHOP,
          campaignUid: CAMPAIGN,
          checkoutUid,
          productUid: 'mug',
          quantity,
        }),
      ),
    );
    expect(answers.every((answer) => answer.body.status === 'updated')).toBe(true);
    const { body } = await call<CheckoutReservationDoc>(server, shopper, '/shopapiv2/cart/getCartUid', {
      pageUid: SHOP,
      campaignUid: CAMPAIGN,
    });
    expect(body).toEqual({ uid: checkoutUid });
    const rows = await server.db.query<{ qty: number }>(
      "SELECT qty FROM checkout_lines WHERE checkout_uid = $1 AND product_uid = 'mug'",
      [checkoutUid],
    );
    const finalQty = rows[0]?.qty as number;
    expect(quantities).toContain(finalQty);
    expect((await stockOf(server, 'mug')).product).toBe(stockWithOne + 1 - finalQty);
    expect((await reservationDoc(server, shopper))?.totalPrice).toBe(finalQty * PRICES.mug.DKK);
  });

  it('cancels a line and then the whole reservation, releasing everything', async () => {
    const shopper = await signIn(server);
    const stock = (await stockOf(server, 'mug')).product as number;
    await addSingle(server, shopper, 'mug', { quantity: 2 });
    await addSingle(server, shopper, 'flash');
    const flashStock = (await stockOf(server, 'flash')).product as number;
    const line = await call<{ status: string; reservation: CheckoutReservationDoc }>(
      server,
      shopper,
      '/functions/customerpage/cancelReservation',
      { pageUid: SHOP, campaign: CAMPAIGN, user: shopper.uid, productUid: 'flash' },
    );
    expect(line.body.status).toBe('removed');
    expect(line.body.reservation.reservations.map((l) => l.mainProduct)).toEqual(['mug']);
    expect((await stockOf(server, 'flash')).product).toBe(flashStock + 1);
    const all = await call<{ checkoutUid: string | null }>(
      server,
      shopper,
      '/functions/customerpage/cancelReservation',
      {
        pageUid: SHOP,
        campaign: CAMPAIGN,
        user: shopper.uid,
      },
    );
    expect(all.body.checkoutUid).toBeNull();
    expect((await stockOf(server, 'mug')).product).toBe(stock);
    const cart = await call<{ uid: string | null }>(server, shopper, '/shopapiv2/cart/getCartUid', {
      pageUid: SHOP,
      campaignUid: CAMPAIGN,
    });
    expect(cart.body.uid).toBeNull();
  });

  it('refuses to cancel a reservation named for another user, leaving both carts as they were', async () => {
    const victim = await signIn(server);
    const attacker = await signIn(server);
    await addSingle(server, victim, 'mug');
    await addSingle(server, attacker, 'mug');
    const refused = await call<{ error: string; message: string }>(
      server,
      attacker,
      '/functions/customerpage/cancelReservation',
      { pageUid: SHOP, campaign: CAMPAIGN, user: victim.uid },
    );
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('user: must be the signed-in user of the id token.');
    for (const shopper of [victim, attacker]) {
      const cart = await call<{ uid: string | null }>(server, shopper, '/shopapiv2/cart/getCartUid', {
        pageUid: SHOP,
        campaignUid: CAMPAIGN,
      });
      expect(cart.body.uid).not.toBeNull();
    }
  });

  it('releases the stock of carts left alone longer than the hold', async () => {
    // Earlier tests' carts expire first, so only this cart's units are counted below.
    clock += CART_RESERVATION_HOLD_MS + 1;
    await server.services.cart.releaseExpired();
    const shopper = await signIn(server);
    const stock = (await stockOf(server, 'mug')).product as number;
    await addSingle(server, shopper, 'mug', { quantity: 3 });
    expect((await stockOf(server, 'mug')).product).toBe(stock - 3);
    clock += CART_RESERVATION_HOLD_MS - 1;
    expect(await server.services.cart.releaseExpired()).toBe(0);
    clock += 2;
    expect(await server.services.cart.releaseExpired()).toBe(3);
    expect((await stockOf(server, 'mug')).product).toBe(stock);
    expect((await reservationDoc(server, shopper))?.reservations).toEqual([]);
  });
});

describe('ping (spec §7 /functions/ping)', () => {
  it('renews the hold of an open cart while the shopper stays on the checkout', async () => {
    clock += CART_RESERVATION_HOLD_MS + 1;
    await server.services.cart.releaseExpired();
    const shopper = await signIn(server);
    const added = await addSingle(server, shopper, 'mug');
    clock += CART_RESERVATION_HOLD_MS - 1_000;
    const ping = (checkoutUid: string | null) =>
      call<{ reservedUntil: number | null }>(server, shopper, '/functions/ping', {
        action: 'setLastSeenOnCheckout',
        pageUid: SHOP,
        campaignUid: CAMPAIGN,
        checkoutUid,
      });
    expect((await ping(added.body.checkoutUid)).body).toEqual({
      reservedUntil: clock + CART_RESERVATION_HOLD_MS,
    });
    expect((await ping(null)).body).toEqual({ reservedUntil: null });
    expect(
      (await call(server, shopper, '/functions/ping', { pageUid: SHOP, campaignUid: CAMPAIGN })).status,
    ).toBe(400);
    clock += 2_000;
    expect(await server.services.cart.releaseExpired()).toBe(0);
    const stranger = await signIn(server);
    const foreign = await call(server, stranger, '/functions/ping', {
      action: 'setLastSeenOnCheckout',
      pageUid: SHOP,
      campaignUid: CAMPAIGN,
      checkoutUid: added.body.checkoutUid,
    });
    expect(foreign.body).toEqual({ reservedUntil: null });
  });
});

describe('user reservation (spec §3 "Reservation (loaded per user)")', () => {
  it('loads the store defaults, saves a currency and reprices an open cart', async () => {
    const shopper = await signIn(server);
    const load = await call(server, shopper, '/functions/customerpage/loadUserReservation', {
      pageUid: SHOP,
      campaign: CAMPAIGN,
      user: shopper.uid,
    });
    expect(load.body).toEqual({
      pageUid: SHOP,
      language: 'da',
      languageSaved: false,
      currency: 'DKK',
      showCheckoutPresentation: false,
      checkoutUid: null,
    });
    const added = await addSingle(server, shopper, 'mug');
    const saved = await call<{ currency: string; checkoutUid: string }>(
      server,
      shopper,
      '/functions/customerpage/saveUserReservation',
      {
        pageUid: SHOP,
        campaign: CAMPAIGN,
        user: shopper.uid,
        currency: 'EUR',
        showCheckoutPresentation: true,
      },
    );
    expect(saved.body).toMatchObject({
      currency: 'EUR',
      showCheckoutPresentation: true,
      checkoutUid: added.body.checkoutUid,
    });
    const again = await addSingle(server, shopper, 'mug');
    expect(again.body.reservation.currency).toBe('EUR');
    expect(again.body.reservation.reservations[0]).toMatchObject({ qty: 2, unitPrice: PRICES.mug.EUR });
  });

  it('tells a language the shopper saved for the store from a default', async () => {
    const shopper = await signIn(server);
    const ref = { pageUid: SHOP, campaign: CAMPAIGN, user: shopper.uid };
    const load = () => call(server, shopper, '/functions/customerpage/loadUserReservation', ref);
    expect((await load()).body).toMatchObject({ language: 'da', languageSaved: false });
    await call(server, shopper, '/functions/customerpage/saveUserReservation', { ...ref, currency: 'EUR' });
    expect((await load()).body).toMatchObject({ language: 'da', languageSaved: false });
    await call(server, shopper, '/functions/customerpage/saveUserReservation', { ...ref, language: 'sv' });
    expect((await load()).body).toMatchObject({ language: 'sv', languageSaved: true });
  });
});

describe('expired campaign', () => {
  it('answers "expired" with the video-expired text once the deadline has passed', async () => {
    const shopper = await signIn(server);
    const campaign = 'cart-expired';
    await adminWrite(server, 'PUT', `/admin/pages/${SHOP}/campaigns/${campaign}`, {
      name: 'Over',
      deadline: clock - 1,
    });
    await addShow(server, {
      eventUid: 'cart-expired-event',
      campaignUid: campaign,
      name: 'Over',
      currentStatus: 'vod',
      startedAt: clock - 86_400_000,
      products: ['mug'],
    });
    const { body } = await addSingle(server, shopper, 'mug', { campaignUid: campaign });
    expect(body.status).toBe('expired');
    expect(body.message).toBe('Video expired, products can no longer be purchased.');
  });
});

describe('checkout live query', () => {
  it("tells viewers of the show the product's new stock", async () => {
    const viewer = await connect(server.wsUrl);
    clients.push(viewer);
    const params = { eventId: 'cart-live-event' };
    const id = subscriptionKey('liveEventProducts', params);
    viewer.send(subscribeFrame('liveEventProducts', params));
    await viewer.nextFrame(isAnswerTo(id));
    const shopper = await signIn(server);
    const before = (await stockOf(server, 'flash')).product as number;
    expect((await addSingle(server, shopper, 'flash')).body.status).toBe('added');
    const frame = await viewer.nextFrame(
      (f) =>
        f.type === 'changes' &&
        f.id === id &&
        f.changes.some((change) => {
          const doc = change.doc as { productUid: string; product: { stock: number | null } };
          return doc.productUid === 'flash' && doc.product.stock === before - 1;
        }),
    );
    expect(frame.type).toBe('changes');
  });

  it('updates every open tab of the shopper', async () => {
    const shopper = await signIn(server);
    const tabs = [await openCartTab(server, shopper), await openCartTab(server, shopper)];
    clients.push(...tabs.map((tab) => tab.client));
    const added = await addSingle(server, shopper, 'mug', { quantity: 2 });
    for (const tab of tabs) {
      const frame = await tab.nextChange((doc) => doc.totalPrice === 2 * PRICES.mug.DKK);
      expect(frame.type).toBe('changes');
    }
    expect(added.body.reservation.totalPrice).toBe(2 * PRICES.mug.DKK);
  });
});
