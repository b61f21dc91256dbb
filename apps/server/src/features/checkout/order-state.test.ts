import { describe, expect, it } from 'vitest';
import {
  cartWithMug,
  checkoutRef,
  loadCheckout,
  payOrder,
  placeOrder,
  reservationDoc,
  saveCheckoutDetails,
} from '../../test-support/checkout-steps.ts';
import { addSingle, call, HOME_DELIVERY, PRICES, signIn } from '../../test-support/commerce-fixture.ts';
import { commerceTestApp } from '../../test-support/commerce-test-app.ts';

// What an order tells the shopper after it is placed and paid (issue 13 §4, §5): the player's
// cart reads freight, paid and remaining amounts from the reservation document, and the
// confirmation and order name the chosen parcel shop.

const app = commerceTestApp({ store: { mugStock: 1000 } });

describe('the order after payment', () => {
  it("gives the cart's live document its freight, what is paid and what remains", async () => {
    const shopper = await signIn(app());
    const checkoutUid = await cartWithMug(app(), shopper);
    await saveCheckoutDetails(app(), shopper, checkoutUid);
    expect(await reservationDoc(app(), shopper)).toMatchObject({
      status: 'open',
      freight: 4_900,
      paidAmount: 0,
      remainingAmount: PRICES.mug.DKK + 4_900,
    });
    await payOrder(app(), shopper, checkoutUid);
    expect(await reservationDoc(app(), shopper)).toMatchObject({
      status: 'ordered',
      payed: true,
      paidAmount: PRICES.mug.DKK + 4_900,
      remainingAmount: 0,
    });
    // The order grows after payment: the cart shows what is left to pay.
    await addSingle(app(), shopper, 'mug');
    expect(await reservationDoc(app(), shopper)).toMatchObject({
      payed: false,
      totalPrice: 2 * PRICES.mug.DKK,
      paidAmount: PRICES.mug.DKK + 4_900,
      remainingAmount: PRICES.mug.DKK,
    });
  });

  it('names the chosen parcel shop with its address', async () => {
    const shopper = await signIn(app());
    const checkoutUid = await cartWithMug(app(), shopper);
    const found = await call<{ parcelShops: { id: string; name: string; address: string }[] }>(
      app(),
      shopper,
      '/functions/customerpage/findParcelShops',
      { ...checkoutRef(checkoutUid), country: 'DK', postCode: '8000', city: 'Aarhus C' },
    );
    const second = found.body.parcelShops[1];
    if (!second) throw new Error('the lookup gives three parcel shops');
    const chosen = await saveCheckoutDetails(app(), shopper, checkoutUid, {
      details: {
        ...HOME_DELIVERY,
        address: { ...HOME_DELIVERY.address, postCode: '8000', city: 'Aarhus C' },
        shippingMethod: 'parcel_shop',
        parcelShopId: second.id,
      },
    });
    expect(chosen.parcelShop).toEqual({
      id: second.id,
      name: 'Supermarket service desk 8000',
      address: 'Torvet 10',
      postCode: '8000',
      city: 'Aarhus C',
      country: 'DK',
    });
    const placed = await placeOrder(app(), shopper, checkoutUid);
    expect(placed.parcelShop?.name).toBe('Supermarket service desk 8000');
    expect((await loadCheckout(app(), shopper, checkoutUid)).parcelShop?.address).toBe('Torvet 10');
  });
});
