import type { CheckoutOptions, CheckoutView } from '@vitrine/protocol';
import { describe, expect, it } from 'vitest';
import {
  cartWithMug,
  checkoutRef,
  loadCheckout,
  placeOrder,
  saveCheckoutDetails,
} from '../../test-support/checkout-steps.ts';
import {
  addShow,
  adminWrite,
  CAMPAIGN,
  call,
  HOME_DELIVERY,
  PRICES,
  SHOP,
  signIn,
} from '../../test-support/commerce-fixture.ts';
import { commerceTestApp } from '../../test-support/commerce-test-app.ts';
import { adminHeaders } from '../../test-support/test-app.ts';
import { checkoutTopics } from './live-queries.ts';

const LOCKED = 'The order has been locked for changes and payments because it was sent for packing.';
const OVERDUE = 'Sorry, deadline for ordering these products is overdue.';

const app = commerceTestApp();

describe('checkout to order', () => {
  it('shows items and totals, takes details with freight, and places the order with a number', async () => {
    const shopper = await signIn(app());
    const checkoutUid = await cartWithMug(app(), shopper, { quantity: 2 });
    const open = await loadCheckout(app(), shopper, checkoutUid);
    expect(open).toMatchObject({
      status: 'open',
      orderNumber: null,
      currency: 'DKK',
      subtotal: 2 * PRICES.mug.DKK,
      freight: 0,
      totalPrice: 2 * PRICES.mug.DKK,
      remainingAmount: 2 * PRICES.mug.DKK,
      locked: false,
      deadlinePassed: false,
    });
    expect(open.items).toEqual([
      expect.objectContaining({ item: 'Mug', price: PRICES.mug.DKK, quantity: 2, total: 2 * PRICES.mug.DKK }),
    ]);
    expect(open.problems).toContain('noShippingMethod');

    const options = await call<CheckoutOptions>(
      app(),
      shopper,
      '/functions/customerpage/checkoutOptions',
      checkoutRef(checkoutUid),
    );
    expect(options.body.shippingMethods).toContainEqual({
      kind: 'home_delivery',
      price: 4_900,
      currency: 'DKK',
      freeOver: null,
    });
    expect(options.body.pickupLocations).toEqual([
      {
        uid: `${SHOP}-store`,
        // The shop's name at its street, not the company name twice (issue 13 §9).
        name: 'Cart <Shop> & Co',
        address: 'Havnegade 4',
        postCode: '8000',
        city: 'Aarhus C',
        openingHours: '',
      },
    ]);

    const updated = await saveCheckoutDetails(app(), shopper, checkoutUid);
    expect(updated).toMatchObject({
      freight: 4_900,
      totalPrice: 2 * PRICES.mug.DKK + 4_900,
      problems: [],
    });

    const published: unknown[] = [];
    const stopListening = await app().bus.listen(checkoutTopics.purchases(SHOP, CAMPAIGN), (batch) =>
      published.push(...batch.changes),
    );
    const placed = await call<CheckoutView>(
      app(),
      shopper,
      '/functions/customerpage/placeOrder',
      checkoutRef(checkoutUid),
    );
    await stopListening();
    // Viewers following the purchases live query hear of it, with the buyer's first name only.
    expect(published).toEqual([
      expect.objectContaining({
        type: 'added',
        doc: expect.objectContaining({
          productUid: 'mug',
          buyerName: 'Ada',
          pageUid: SHOP,
          campaignUid: CAMPAIGN,
        }),
      }),
    ]);
    expect(placed.status).toBe(200);
    expect(placed.body.status).toBe('ordered');
    expect(placed.body.orderNumber).toBeGreaterThanOrEqual(100_001);
    const lines = await app().db.query<{ reserved_until: number | null }>(
      'SELECT reserved_until FROM checkout_lines WHERE checkout_uid = $1',
      [checkoutUid],
    );
    expect(lines).toEqual([{ reserved_until: null }]);
    const purchases = await app().db.query<{ product_uid: string; buyer_name: string }>(
      'SELECT product_uid, buyer_name FROM purchases WHERE page_uid = $1',
      [SHOP],
    );
    expect(purchases).toContainEqual({ product_uid: 'mug', buyer_name: 'Ada' });

    // Placing again changes nothing (same number).
    const again = await call<CheckoutView>(
      app(),
      shopper,
      '/functions/customerpage/placeOrder',
      checkoutRef(checkoutUid),
    );
    expect(again.body.orderNumber).toBe(placed.body.orderNumber);
  });

  it('refuses an incomplete checkout with the state messages of spec §5', async () => {
    const shopper = await signIn(app());
    const checkoutUid = await cartWithMug(app(), shopper);
    const refused = await call<{ error: string; message: string }>(
      app(),
      shopper,
      '/functions/customerpage/placeOrder',
      checkoutRef(checkoutUid),
    );
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      error: 'checkout_incomplete',
      message:
        'No shipping method selected. No payment method selected. Terms and conditions not accepted. ' +
        'Select your delivery country. Delivery address is missing.',
    });
  });

  it('finds parcel shops near an address, or none', async () => {
    const shopper = await signIn(app());
    const checkoutUid = await cartWithMug(app(), shopper);
    const found = await call<{ parcelShops: { id: string }[] }>(
      app(),
      shopper,
      '/functions/customerpage/findParcelShops',
      {
        ...checkoutRef(checkoutUid),
        country: 'DK',
        postCode: '8000',
        city: 'Aarhus C',
      },
    );
    expect(found.body.parcelShops).toHaveLength(3);
    const none = await call<{ parcelShops: unknown[] }>(
      app(),
      shopper,
      '/functions/customerpage/findParcelShops',
      {
        ...checkoutRef(checkoutUid),
        country: 'DK',
        postCode: '0000',
      },
    );
    expect(none.body.parcelShops).toEqual([]);
    const withShop = await saveCheckoutDetails(app(), shopper, checkoutUid, {
      details: {
        ...HOME_DELIVERY,
        shippingMethod: 'parcel_shop',
        parcelShopId: found.body.parcelShops[0]?.id,
      },
    });
    expect(withShop).toMatchObject({ freight: 3_900, problems: [] });
    const forged = await saveCheckoutDetails(app(), shopper, checkoutUid, {
      details: { ...HOME_DELIVERY, shippingMethod: 'parcel_shop', parcelShopId: 'ps-XX-1' },
    });
    expect(forged.problems).toEqual(['noPickupPoint']);
  });

  it('stores the completed spec §3 address record, derived fields computed from what was typed', async () => {
    const shopper = await signIn(app());
    const checkoutUid = await cartWithMug(app(), shopper);
    const saved = await saveCheckoutDetails(app(), shopper, checkoutUid, {
      details: {
        ...HOME_DELIVERY,
        // A client's own derived values are replaced by the server's.
        address: {
          ...HOME_DELIVERY.address,
          name: 'Ada King Lovelace',
          note: 'Ring twice',
          firstName: 'Bob',
        },
      },
    });
    const completed = {
      name: 'Ada King Lovelace',
      firstName: 'Ada King',
      lastName: 'Lovelace',
      postcodeAndCity: '8000 Aarhus C',
      note: 'Ring twice',
      commentField: 'Ring twice',
    };
    expect(saved.details.address).toMatchObject(completed);
    const [stored] = await app().db.query<{ details: { address: Record<string, string> } }>(
      'SELECT details FROM checkouts WHERE uid = $1',
      [checkoutUid],
    );
    expect(stored?.details.address).toMatchObject(completed);
  });

  it("answers 404 for someone else's checkout", async () => {
    const owner = await signIn(app());
    const checkoutUid = await cartWithMug(app(), owner);
    const stranger = await signIn(app());
    const response = await call(
      app(),
      stranger,
      '/functions/customerpage/loadCheckout',
      checkoutRef(checkoutUid),
    );
    expect(response.status).toBe(404);
  });
});

describe('deadline (spec §4: an order past its deadline cannot be ordered)', () => {
  it('refuses ordering and paying with the §8 text once the deadline has passed', async () => {
    const campaign = 'cart-deadline';
    const now = Date.now();
    await adminWrite(app(), 'PUT', `/admin/pages/${SHOP}/campaigns/${campaign}`, {
      name: 'Soon over',
      deadline: now + 60 * 60_000,
    });
    await addShow(app(), {
      eventUid: 'cart-deadline-event',
      campaignUid: campaign,
      name: 'Last call',
      startedAt: now,
      products: ['mug'],
    });
    const shopper = await signIn(app());
    const checkoutUid = await cartWithMug(app(), shopper, { campaignUid: campaign });
    const checkout = checkoutRef(checkoutUid, campaign);
    await saveCheckoutDetails(app(), shopper, checkoutUid, { campaignUid: campaign });
    // The deadline moves into the past.
    const moved = await app().server.inject({
      method: 'PUT',
      url: `/admin/pages/${SHOP}/campaigns/${campaign}`,
      headers: adminHeaders,
      payload: { name: 'Over', deadline: now - 1 },
    });
    expect(moved.statusCode).toBe(200);
    for (const url of ['/functions/customerpage/placeOrder', '/functions/customerpage/userPaymentStarted']) {
      const refused = await call<{ error: string; message: string }>(app(), shopper, url, checkout);
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({ error: 'deadline_overdue', message: OVERDUE });
    }
    const view = await call<CheckoutView>(app(), shopper, '/functions/customerpage/loadCheckout', checkout);
    expect(view.body).toMatchObject({ deadlinePassed: true, status: 'open' });
  });
});

describe('locked order (spec §4: sent to packing blocks changes and payments)', () => {
  it('refuses every change and payment with the §8 text', async () => {
    const shopper = await signIn(app());
    const checkoutUid = await cartWithMug(app(), shopper);
    await saveCheckoutDetails(app(), shopper, checkoutUid);
    const early = await app().server.inject({
      method: 'POST',
      url: `/staff/stores/${SHOP}/orders/${checkoutUid}/packing`,
      headers: adminHeaders,
    });
    // A cart is not an order yet: the studio's orders do not hold it.
    expect(early.statusCode).toBe(404);
    await placeOrder(app(), shopper, checkoutUid);
    const anonymous = await app().server.inject({
      method: 'POST',
      url: `/staff/stores/${SHOP}/orders/${checkoutUid}/packing`,
    });
    expect(anonymous.statusCode).toBe(401);
    const packed = await app().server.inject({
      method: 'POST',
      url: `/staff/stores/${SHOP}/orders/${checkoutUid}/packing`,
      headers: adminHeaders,
    });
    expect(packed.statusCode).toBe(200);
    expect(packed.json()).toMatchObject({ order: { status: 'locked', locked: true } });

    const attempts: [string, object][] = [
      ['/shopapiv2/cart/addSingle', { pageUid: SHOP, campaignUid: CAMPAIGN, productUid: 'mug' }],
      [
        '/functions/customerpage/changeCheckoutProductQuantity',
        { ...checkoutRef(checkoutUid), productUid: 'mug', quantity: 3 },
      ],
      [
        '/functions/customerpage/changeCheckoutProductQuantity',
        { ...checkoutRef(checkoutUid), productUid: 'mug', quantity: 0 },
      ],
      ['/functions/customerpage/cancelReservation', { pageUid: SHOP, campaign: CAMPAIGN, user: shopper.uid }],
      [
        '/functions/customerpage/updateCheckoutDetails',
        { ...checkoutRef(checkoutUid), details: HOME_DELIVERY },
      ],
      ['/functions/customerpage/placeOrder', checkoutRef(checkoutUid)],
      ['/functions/customerpage/userPaymentStarted', checkoutRef(checkoutUid)],
    ];
    for (const [url, payload] of attempts) {
      const refused = await call<{ error: string; message: string }>(app(), shopper, url, payload);
      expect(refused.status, url).toBe(423);
      expect(refused.body, url).toEqual({ error: 'order_locked', message: LOCKED });
    }
    const view = await loadCheckout(app(), shopper, checkoutUid);
    expect(view.items).toEqual([expect.objectContaining({ quantity: 1 })]);
    expect(view.transactions).toEqual([]);
  });
});
