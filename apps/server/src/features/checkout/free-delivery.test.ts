import type { CheckoutOptions } from '@vitrine/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  cartWithMug,
  checkoutRef,
  loadCheckout,
  reservationDoc,
  saveCheckoutDetails,
} from '../../test-support/checkout-steps.ts';
import { addSingle, call, PRICES, SHOP, signIn } from '../../test-support/commerce-fixture.ts';
import { commerceTestApp } from '../../test-support/commerce-test-app.ts';
import { adminHeaders } from '../../test-support/test-app.ts';

/** Free delivery from 300,00 kr.: one mug (179,00 kr.) pays freight, two do not. */
const FREE_OVER_DKK = 30_000;
const HOME_FREIGHT_DKK = 4_900;

const app = commerceTestApp();

beforeAll(async () => {
  const response = await app().server.inject({
    method: 'PUT',
    url: `/admin/pages/${SHOP}`,
    headers: adminHeaders,
    payload: { name: 'Cart Shop', language: 'da', currency: 'DKK', freeDeliveryOver: { DKK: FREE_OVER_DKK } },
  });
  expect(response.statusCode, response.body).toBe(200);
});

describe('free delivery from a store-set order size (issue 13 §9)', () => {
  it('offers the threshold with the paid methods, charges freight below it and none from it on', async () => {
    const shopper = await signIn(app());
    const checkoutUid = await cartWithMug(app(), shopper, { quantity: 1 });

    const options = await call<CheckoutOptions>(
      app(),
      shopper,
      '/functions/customerpage/checkoutOptions',
      checkoutRef(checkoutUid),
    );
    expect(options.body.shippingMethods).toEqual([
      { kind: 'home_delivery', price: HOME_FREIGHT_DKK, currency: 'DKK', freeOver: FREE_OVER_DKK },
      { kind: 'store_pickup', price: 0, currency: 'DKK', freeOver: null },
      { kind: 'parcel_shop', price: 3_900, currency: 'DKK', freeOver: FREE_OVER_DKK },
    ]);

    const below = await saveCheckoutDetails(app(), shopper, checkoutUid);
    expect(below).toMatchObject({
      subtotal: PRICES.mug.DKK,
      freight: HOME_FREIGHT_DKK,
      totalPrice: PRICES.mug.DKK + HOME_FREIGHT_DKK,
    });
    expect((await reservationDoc(app(), shopper))?.freight).toBe(HOME_FREIGHT_DKK);

    // A second mug takes the order over the threshold: the server drops the freight everywhere.
    expect((await addSingle(app(), shopper, 'mug', { quantity: 1 })).body.status).toBe('added');
    const over = await loadCheckout(app(), shopper, checkoutUid);
    expect(2 * PRICES.mug.DKK).toBeGreaterThanOrEqual(FREE_OVER_DKK);
    expect(over).toMatchObject({
      subtotal: 2 * PRICES.mug.DKK,
      freight: 0,
      totalPrice: 2 * PRICES.mug.DKK,
    });
    expect(await reservationDoc(app(), shopper)).toMatchObject({
      freight: 0,
      remainingAmount: 2 * PRICES.mug.DKK,
    });
  });

  it('keeps charging freight in a currency the store set no threshold for', async () => {
    const response = await app().server.inject({
      method: 'PUT',
      url: `/admin/pages/${SHOP}`,
      headers: adminHeaders,
      payload: { name: 'Cart Shop', language: 'da', currency: 'DKK', freeDeliveryOver: { EUR: 1 } },
    });
    expect(response.statusCode, response.body).toBe(200);
    const shopper = await signIn(app());
    const checkoutUid = await cartWithMug(app(), shopper, { quantity: 2 });
    const view = await saveCheckoutDetails(app(), shopper, checkoutUid);
    expect(view).toMatchObject({ currency: 'DKK', freight: HOME_FREIGHT_DKK });
  });

  it('refuses a threshold that is not whole minor units', async () => {
    const response = await app().server.inject({
      method: 'PUT',
      url: `/admin/pages/${SHOP}`,
      headers: adminHeaders,
      payload: { name: 'Cart Shop', freeDeliveryOver: { DKK: 299.5 } },
    });
    expect(response.statusCode).toBe(400);
  });
});
