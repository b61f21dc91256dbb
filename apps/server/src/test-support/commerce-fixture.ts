import type { CartUpdateResponse, UpdateCheckoutDetailsInput } from '@vitrine/protocol';
import type { App } from '../app.ts';
import { adminHeaders } from './test-app.ts';

export const SHOP = 'cart-shop';
export const CAMPAIGN = 'cart-live';
export const OTHER_CAMPAIGN = 'cart-other';
export const EVENT = 'cart-live-event';

const DAY = 24 * 60 * 60_000;

/** Prices in minor units: mug 179,00 kr. / 23,95 €; shirt 549,00 kr.; flash 99,00 kr. */
export const PRICES = {
  mug: { DKK: 17_900, EUR: 2_395 },
  shirt: { DKK: 54_900, EUR: 7_395 },
  flash: { DKK: 9_900 },
} as const;

type Injectable = Pick<App, 'server'>;

/** A PUT or POST with the admin key that must succeed; fails with the server's answer. */
export async function adminWrite(
  app: Injectable,
  method: 'PUT' | 'POST',
  url: string,
  payload: object,
): Promise<void> {
  const response = await app.server.inject({ method, url, headers: adminHeaders, payload });
  if (response.statusCode >= 300)
    throw new Error(`${method} ${url} answered ${response.statusCode}: ${response.body}`);
}

/**
 * A store with one live campaign showing: a mug (10 in stock), a shirt with a size M variant
 * (2 in stock) and a sold-out size L, and a flash-sale item with `flashStock` units; an "unlisted"
 * product belongs to the store but to no show. The campaign deadline is `deadline`. Tests that buy
 * many mugs ask for more with `mugStock`.
 */
export async function seedCommerceStore(
  app: Injectable,
  options: { now: number; flashStock?: number; mugStock?: number; deadline?: number | null },
): Promise<void> {
  await adminWrite(app, 'PUT', `/admin/pages/${SHOP}`, {
    name: 'Cart <Shop> & Co',
    language: 'da',
    currency: 'DKK',
    address: { name: 'Cart Shop ApS', street: 'Havnegade 4', postCode: '8000', city: 'Aarhus C' },
  });
  await setMugStock(app, options.mugStock ?? 10);
  await adminWrite(app, 'PUT', `/staff/stores/${SHOP}/products/shirt`, {
    name: 'Shirt',
    sku: 'SH',
    prices: PRICES.shirt,
    stock: 2,
    options: [
      {
        id: 'size',
        optionType: 'size',
        name: 'Size',
        optionValues: [
          { id: 'm', name: 'M' },
          { id: 'l', name: 'L' },
        ],
      },
    ],
    variants: [
      {
        uid: 'shirt-m',
        name: 'M',
        sku: 'SH-M',
        prices: PRICES.shirt,
        stock: 2,
        options: [{ optionId: 'size', optionValueId: 'm' }],
      },
      {
        uid: 'shirt-l',
        name: 'L',
        sku: 'SH-L',
        prices: PRICES.shirt,
        stock: 0,
        options: [{ optionId: 'size', optionValueId: 'l' }],
      },
    ],
  });
  await adminWrite(app, 'PUT', `/staff/stores/${SHOP}/products/flash`, {
    name: 'Flash deal',
    prices: PRICES.flash,
    stock: options.flashStock ?? 3,
  });
  await adminWrite(app, 'PUT', `/staff/stores/${SHOP}/products/unlisted`, {
    name: 'Unlisted',
    prices: PRICES.mug,
    stock: 5,
  });
  for (const campaign of [CAMPAIGN, OTHER_CAMPAIGN]) {
    await adminWrite(app, 'PUT', `/admin/pages/${SHOP}/campaigns/${campaign}`, {
      name: campaign,
      deadline: options.deadline === undefined ? options.now + 7 * DAY : options.deadline,
    });
  }
  await addShow(app, {
    eventUid: EVENT,
    campaignUid: CAMPAIGN,
    name: 'Live cart show',
    startedAt: options.now - 60_000,
    products: ['mug', 'shirt', 'flash'],
  });
}

/** A public show of the fixture's store in `campaignUid`, selling `products` in that order. */
export async function addShow(
  app: Injectable,
  show: {
    eventUid: string;
    campaignUid: string;
    name: string;
    startedAt: number;
    products: string[];
    currentStatus?: 'live' | 'vod';
  },
): Promise<void> {
  await adminWrite(app, 'PUT', `/admin/events/${show.eventUid}`, {
    pageUid: SHOP,
    campaignId: show.campaignUid,
    status: 'public',
    currentStatus: show.currentStatus ?? 'live',
    eventName: show.name,
    eventStartTimestamp: show.startedAt,
  });
  for (const [index, productUid] of show.products.entries()) {
    await adminWrite(app, 'PUT', `/admin/events/${show.eventUid}/products/${productUid}`, {
      productUid,
      sorting: index,
    });
  }
}

/** Sets the fixture's mug's free stock, for tests that buy more than the store was seeded with. */
export function setMugStock(app: Injectable, stock: number): Promise<void> {
  return adminWrite(app, 'PUT', `/staff/stores/${SHOP}/products/mug`, {
    name: 'Mug',
    sku: 'MUG',
    prices: PRICES.mug,
    stock,
  });
}

export interface Shopper {
  uid: string;
  token: string;
}

export async function signIn(app: Injectable): Promise<Shopper> {
  const response = await app.server.inject({
    method: 'POST',
    url: '/functions/auth/signInAnonymously',
    payload: {},
  });
  if (response.statusCode !== 200)
    throw new Error(`sign-in answered ${response.statusCode}: ${response.body}`);
  const session = response.json() as { idToken: string; user: { uid: string } };
  return { uid: session.user.uid, token: session.idToken };
}

/** A POST as a shopper; resolves with status and JSON body. */
export async function call<T = unknown>(
  app: Injectable,
  shopper: Shopper | null,
  url: string,
  payload: object,
): Promise<{ status: number; body: T }> {
  const response = await app.server.inject({
    method: 'POST',
    url,
    headers: shopper ? { authorization: `Bearer ${shopper.token}` } : {},
    payload,
  });
  return { status: response.statusCode, body: response.json() as T };
}

export function addSingle(
  app: Injectable,
  shopper: Shopper,
  productUid: string,
  extra: { variantUid?: string | null; quantity?: number; campaignUid?: string; currency?: string } = {},
) {
  return call<CartUpdateResponse>(app, shopper, '/shopapiv2/cart/addSingle', {
    pageUid: SHOP,
    campaignUid: extra.campaignUid ?? CAMPAIGN,
    productUid,
    ...(extra.variantUid !== undefined ? { variantUid: extra.variantUid } : {}),
    ...(extra.quantity !== undefined ? { quantity: extra.quantity } : {}),
    ...(extra.currency !== undefined ? { currency: extra.currency } : {}),
  });
}

/** Free stock of a product (and of a variant) as the catalog holds it. */
export async function stockOf(app: Pick<App, 'services'>, productUid: string) {
  const [product] = await app.services.catalog.productsByUid([productUid]);
  if (!product) throw new Error(`no product ${productUid}`);
  return {
    product: product.stock,
    variants: Object.fromEntries(product.variants.map((variant) => [variant.uid, variant.stock])),
  };
}

/** Complete checkout details for home delivery in Denmark with the test card. */
export const HOME_DELIVERY: UpdateCheckoutDetailsInput['details'] = {
  deliveryCountry: 'DK',
  address: {
    name: 'Ada Lovelace',
    address: 'Mejlgade 1',
    postCode: '8000',
    city: 'Aarhus C',
    phone: '+45 12 34 56 78',
    emailAddress: 'ada@example.com',
  },
  shippingMethod: 'home_delivery',
  paymentMethod: 'test_card',
  termsAccepted: true,
};
