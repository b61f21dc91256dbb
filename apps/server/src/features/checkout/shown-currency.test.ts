import type { CartUpdateResponse, CheckoutView, UserReservation } from '@vitrine/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CAMPAIGN,
  call,
  PRICES,
  SHOP,
  type Shopper,
  seedCommerceStore,
  signIn,
} from '../../test-support/commerce-fixture.ts';
import { adminHeaders, openTestApp } from '../../test-support/test-app.ts';

// Currency shown = currency charged (issue 13 §1, domain currency-rules): the cart is priced in
// the currency the shopper was shown, an open cart follows a language switch, an order keeps its
// currency, and the saved reservation carries language and currency (spec §3 Reservation).

type TestApp = Awaited<ReturnType<typeof openTestApp>>;
let app: TestApp;

beforeAll(async () => {
  app = await openTestApp();
  await seedCommerceStore(app, { now: Date.now() });
  for (const [uid, prices] of [
    ['mug', PRICES.mug],
    ['flash', PRICES.flash],
  ] as const) {
    const restock = await app.server.inject({
      method: 'PUT',
      url: `/staff/stores/${SHOP}/products/${uid}`,
      headers: adminHeaders,
      payload: { name: uid, sku: uid.toUpperCase(), prices, stock: 1000 },
    });
    expect(restock.statusCode).toBeLessThan(300);
  }
});

afterAll(async () => {
  await app?.close();
});

const add = (shopper: Shopper, productUid: string, currency?: string) =>
  call<CartUpdateResponse>(app, shopper, '/shopapiv2/cart/addSingle', {
    pageUid: SHOP,
    campaignUid: CAMPAIGN,
    productUid,
    ...(currency ? { currency } : {}),
  });

const view = async (shopper: Shopper, checkoutUid: string) =>
  (
    await call<CheckoutView>(app, shopper, '/functions/customerpage/loadCheckout', {
      pageUid: SHOP,
      campaignUid: CAMPAIGN,
      checkoutUid,
    })
  ).body;

describe('the cart is charged in the currency the shopper was shown', () => {
  it('prices a new cart in the shown currency', async () => {
    const shopper = await signIn(app);
    const added = await add(shopper, 'mug', 'EUR');
    expect(added.body.status).toBe('added');
    expect(added.body.reservation).toMatchObject({ currency: 'EUR', totalPrice: PRICES.mug.EUR });
  });

  it("keeps the store's currency for a product that was shown in it (no price in the shopper's)", async () => {
    const shopper = await signIn(app);
    const added = await add(shopper, 'flash', 'EUR');
    expect(added.body.reservation).toMatchObject({ currency: 'DKK', totalPrice: PRICES.flash.DKK });
  });

  it('reprices an open cart when the shopper now sees another currency', async () => {
    const shopper = await signIn(app);
    await add(shopper, 'mug', 'DKK');
    const added = await add(shopper, 'mug', 'EUR');
    expect(added.body.reservation).toMatchObject({ currency: 'EUR', totalPrice: 2 * PRICES.mug.EUR });
  });

  it('keeps an order in its currency', async () => {
    const shopper = await signIn(app);
    const first = await add(shopper, 'mug', 'DKK');
    const checkoutUid = first.body.checkoutUid as string;
    const ref = { pageUid: SHOP, campaignUid: CAMPAIGN, checkoutUid };
    await call(app, shopper, '/functions/customerpage/updateCheckoutDetails', {
      ...ref,
      details: {
        deliveryCountry: 'DK',
        address: {
          name: 'Ada',
          address: 'Mejlgade 1',
          postCode: '8000',
          city: 'Aarhus',
          phone: '+4512345678',
          emailAddress: 'ada@example.com',
        },
        shippingMethod: 'home_delivery',
        paymentMethod: 'test_card',
        termsAccepted: true,
      },
    });
    expect((await call(app, shopper, '/functions/customerpage/placeOrder', ref)).status).toBe(200);
    const more = await add(shopper, 'mug', 'EUR');
    expect(more.body.reservation).toMatchObject({ currency: 'DKK', totalPrice: 2 * PRICES.mug.DKK });
  });

  it("saves the shopper's language and currency: the cart is repriced and the checkout speaks it", async () => {
    const shopper = await signIn(app);
    const first = await add(shopper, 'mug');
    const checkoutUid = first.body.checkoutUid as string;
    expect(first.body.reservation.currency).toBe('DKK');
    const reservation = { pageUid: SHOP, campaign: CAMPAIGN, user: shopper.uid };
    const saved = await call<UserReservation>(app, shopper, '/functions/customerpage/saveUserReservation', {
      ...reservation,
      language: 'de',
      currency: 'EUR',
    });
    expect(saved.body).toMatchObject({ language: 'de', currency: 'EUR', checkoutUid });
    expect(await view(shopper, checkoutUid)).toMatchObject({
      currency: 'EUR',
      language: 'de',
      subtotal: PRICES.mug.EUR,
    });
    const loaded = await call<UserReservation>(
      app,
      shopper,
      '/functions/customerpage/loadUserReservation',
      reservation,
    );
    expect(loaded.body).toMatchObject({ language: 'de', currency: 'EUR' });
    // Without a currency of its own, the next add follows the saved one.
    expect((await add(shopper, 'mug')).body.reservation).toMatchObject({
      currency: 'EUR',
      totalPrice: 2 * PRICES.mug.EUR,
    });
  });
});
