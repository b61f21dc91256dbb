import { randomBytes } from 'node:crypto';
import {
  type CheckoutReservationDoc,
  type CheckoutView,
  PAYMENT_SIGNATURE_HEADER,
  type PaymentStarted,
  type PaymentWebhookEvent,
} from '@vitrine/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addSingle,
  CAMPAIGN,
  call,
  HOME_DELIVERY,
  PRICES,
  SHOP,
  type Shopper,
  seedCommerceStore,
  signIn,
} from '../../test-support/commerce-fixture.ts';
import { adminHeaders, openTestApp } from '../../test-support/test-app.ts';
import { signWebhook } from './payments/webhook-signature.ts';

// What an order tells the shopper after it is placed and paid (issue 13 §4, §5): the player's
// cart reads freight, paid and remaining amounts from the reservation document, and the
// confirmation and order name the chosen parcel shop.

type TestApp = Awaited<ReturnType<typeof openTestApp>>;
let app: TestApp;

beforeAll(async () => {
  app = await openTestApp();
  await seedCommerceStore(app, { now: Date.now() });
  const restock = await app.server.inject({
    method: 'PUT',
    url: `/staff/stores/${SHOP}/products/mug`,
    headers: adminHeaders,
    payload: { name: 'Mug', sku: 'MUG', prices: PRICES.mug, stock: 1000 },
  });
  expect(restock.statusCode).toBeLessThan(300);
});

afterAll(async () => {
  await app?.close();
});

const ref = (checkoutUid: string) => ({ pageUid: SHOP, campaignUid: CAMPAIGN, checkoutUid });

async function reservationDoc(shopper: Shopper): Promise<CheckoutReservationDoc | undefined> {
  const [row] = await app.db.query<{ data: CheckoutReservationDoc }>(
    'SELECT data FROM checkout_reservations WHERE user_uid = $1',
    [shopper.uid],
  );
  return row?.data;
}

async function paySigned(started: PaymentStarted): Promise<void> {
  const provider = app.services.testProvider;
  if (!provider) throw new Error('the test provider is enabled in tests');
  const payload: PaymentWebhookEvent = {
    id: `evt_${randomBytes(6).toString('hex')}`,
    type: 'payment.succeeded',
    transactionUid: started.transactionUid,
    amount: started.amount,
    currency: started.currency,
    created: Date.now(),
  };
  const body = JSON.stringify(payload);
  const response = await app.server.inject({
    method: 'POST',
    url: '/payments/test/webhook',
    headers: {
      'content-type': 'application/json',
      [PAYMENT_SIGNATURE_HEADER]: signWebhook(await provider.webhookSecret(), body, Date.now()),
    },
    payload: body,
  });
  expect(response.statusCode).toBe(200);
}

describe('the order after payment', () => {
  it("gives the cart's live document its freight, what is paid and what remains", async () => {
    const shopper = await signIn(app);
    const added = await addSingle(app, shopper, 'mug');
    const checkoutUid = added.body.checkoutUid as string;
    await call(app, shopper, '/functions/customerpage/updateCheckoutDetails', {
      ...ref(checkoutUid),
      details: HOME_DELIVERY,
    });
    expect(await reservationDoc(shopper)).toMatchObject({
      status: 'open',
      freight: 4_900,
      paidAmount: 0,
      remainingAmount: PRICES.mug.DKK + 4_900,
    });
    const started = await call<PaymentStarted>(
      app,
      shopper,
      '/functions/customerpage/userPaymentStarted',
      ref(checkoutUid),
    );
    await paySigned(started.body);
    expect(await reservationDoc(shopper)).toMatchObject({
      status: 'ordered',
      payed: true,
      paidAmount: PRICES.mug.DKK + 4_900,
      remainingAmount: 0,
    });
    // The order grows after payment: the cart shows what is left to pay.
    await addSingle(app, shopper, 'mug');
    expect(await reservationDoc(shopper)).toMatchObject({
      payed: false,
      totalPrice: 2 * PRICES.mug.DKK,
      paidAmount: PRICES.mug.DKK + 4_900,
      remainingAmount: PRICES.mug.DKK,
    });
  });

  it('names the chosen parcel shop with its address', async () => {
    const shopper = await signIn(app);
    const added = await addSingle(app, shopper, 'mug');
    const checkoutUid = added.body.checkoutUid as string;
    const found = await call<{ parcelShops: { id: string; name: string; address: string }[] }>(
      app,
      shopper,
      '/functions/customerpage/findParcelShops',
      { ...ref(checkoutUid), country: 'DK', postCode: '8000', city: 'Aarhus C' },
    );
    const second = found.body.parcelShops[1];
    if (!second) throw new Error('the lookup gives three parcel shops');
    const chosen = await call<CheckoutView>(app, shopper, '/functions/customerpage/updateCheckoutDetails', {
      ...ref(checkoutUid),
      details: {
        ...HOME_DELIVERY,
        address: { ...HOME_DELIVERY.address, postCode: '8000', city: 'Aarhus C' },
        shippingMethod: 'parcel_shop',
        parcelShopId: second.id,
      },
    });
    expect(chosen.body.parcelShop).toEqual({
      id: second.id,
      name: 'Supermarket service desk 8000',
      address: 'Torvet 10',
      postCode: '8000',
      city: 'Aarhus C',
      country: 'DK',
    });
    const placed = await call<CheckoutView>(
      app,
      shopper,
      '/functions/customerpage/placeOrder',
      ref(checkoutUid),
    );
    expect(placed.body.parcelShop?.name).toBe('Supermarket service desk 8000');
    const homeDelivery = await call<CheckoutView>(
      app,
      shopper,
      '/functions/customerpage/loadCheckout',
      ref(checkoutUid),
    );
    expect(homeDelivery.body.parcelShop?.address).toBe('Torvet 10');
  });
});
