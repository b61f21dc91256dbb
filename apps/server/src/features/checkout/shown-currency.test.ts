import type { UserReservation } from '@vitrine/protocol';
import { describe, expect, it } from 'vitest';
import { loadCheckout, placeOrder, saveCheckoutDetails } from '../../test-support/checkout-steps.ts';
import { addSingle, CAMPAIGN, call, PRICES, SHOP, signIn } from '../../test-support/commerce-fixture.ts';
import { commerceTestApp } from '../../test-support/commerce-test-app.ts';

// Currency shown = currency charged (issue 13 §1, domain currency-rules): the cart is priced in
// the currency the shopper was shown, an open cart follows a language switch, an order keeps its
// currency, and the saved reservation carries language and currency (spec §3 Reservation).

const app = commerceTestApp({ store: { mugStock: 1000, flashStock: 1000 } });

describe('the cart is charged in the currency the shopper was shown', () => {
  it('prices a new cart in the shown currency', async () => {
    const shopper = await signIn(app());
    const added = await addSingle(app(), shopper, 'mug', { currency: 'EUR' });
    expect(added.body.status).toBe('added');
    expect(added.body.reservation).toMatchObject({ currency: 'EUR', totalPrice: PRICES.mug.EUR });
  });

  it("keeps the store's currency for a product that was shown in it (no price in the shopper's)", async () => {
    const shopper = await signIn(app());
    const added = await addSingle(app(), shopper, 'flash', { currency: 'EUR' });
    expect(added.body.reservation).toMatchObject({ currency: 'DKK', totalPrice: PRICES.flash.DKK });
  });

  it('reprices an open cart when the shopper now sees another currency', async () => {
    const shopper = await signIn(app());
    await addSingle(app(), shopper, 'mug', { currency: 'DKK' });
    const added = await addSingle(app(), shopper, 'mug', { currency: 'EUR' });
    expect(added.body.reservation).toMatchObject({ currency: 'EUR', totalPrice: 2 * PRICES.mug.EUR });
  });

  it('keeps an order in its currency', async () => {
    const shopper = await signIn(app());
    const first = await addSingle(app(), shopper, 'mug', { currency: 'DKK' });
    const checkoutUid = first.body.checkoutUid as string;
    await saveCheckoutDetails(app(), shopper, checkoutUid);
    await placeOrder(app(), shopper, checkoutUid);
    const more = await addSingle(app(), shopper, 'mug', { currency: 'EUR' });
    expect(more.body.reservation).toMatchObject({ currency: 'DKK', totalPrice: 2 * PRICES.mug.DKK });
  });

  it("saves the shopper's language and currency: the cart is repriced and the checkout speaks it", async () => {
    const shopper = await signIn(app());
    const first = await addSingle(app(), shopper, 'mug');
    const checkoutUid = first.body.checkoutUid as string;
    expect(first.body.reservation.currency).toBe('DKK');
    const reservation = { pageUid: SHOP, campaign: CAMPAIGN, user: shopper.uid };
    const saved = await call<UserReservation>(app(), shopper, '/functions/customerpage/saveUserReservation', {
      ...reservation,
      language: 'de',
      currency: 'EUR',
    });
    expect(saved.body).toMatchObject({ language: 'de', currency: 'EUR', checkoutUid });
    expect(await loadCheckout(app(), shopper, checkoutUid)).toMatchObject({
      currency: 'EUR',
      language: 'de',
      subtotal: PRICES.mug.EUR,
    });
    const loaded = await call<UserReservation>(
      app(),
      shopper,
      '/functions/customerpage/loadUserReservation',
      reservation,
    );
    expect(loaded.body).toMatchObject({ language: 'de', currency: 'EUR' });
    // Without a currency of its own, the next add follows the saved one.
    expect((await addSingle(app(), shopper, 'mug')).body.reservation).toMatchObject({
      currency: 'EUR',
      totalPrice: 2 * PRICES.mug.EUR,
    });
  });
});
