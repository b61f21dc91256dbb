import { randomBytes } from 'node:crypto';
import {
  CART_RESERVATION_HOLD_MS,
  CART_RESERVATION_MAX_AGE_MS,
  type Currency,
  cartCurrency,
  checkAdd,
  type Locale,
  resolveCurrency,
  resolveLocale,
} from '@vitrine/domain';
import {
  type AddSingleRequest,
  CART_FEEDBACK_MESSAGES,
  type CancelReservationRequest,
  type CartFeedbackStatus,
  type CartUpdateResponse,
  CHECKOUT_ERROR_CODES,
  type ChangeCheckoutProductQuantityRequest,
  type CheckoutReservationDoc,
  type GetCartUidRequest,
  type GetCartUidResponse,
  type LoadUserReservationRequest,
  MAX_LINE_QUANTITY,
  type PingRequest,
  type PingResponse,
  type Product,
  type SaveUserReservationRequest,
  type UserReservation,
} from '@vitrine/protocol';
import type { Database, Queryable } from '../../db/database.ts';
import type { AbuseLimiter } from '../../http/abuse-limits.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import type { CatalogService } from '../catalog/catalog-service.ts';
import { releaseStock, reserveStock, type StockItem } from '../catalog/stock.ts';
import { isProductInCampaign } from '../events/campaign-products.ts';
import { refreshPayed } from '../orders/checkout-totals.ts';
import type { StoreService } from '../stores/store-service.ts';
import {
  type CheckoutRow,
  emptyReservationDoc,
  type LineRow,
  lockOwnCheckout,
  paidSoFar,
  readReservationDoc,
  storeReservationDoc,
  variantKey,
  variantOfKey,
  withRetry,
} from './checkout-records.ts';
import { orderRefusalError } from './order-refusal.ts';
import type { ReservationPublisher } from './reservation-publisher.ts';

/** The 409 `shopper_limit` message: more units of one product than the store lets one shopper hold. */
export const shopperLimitMessage = (max: number) =>
  `This store sells at most ${max} of one product per customer.`;

/** Thrown inside a transaction to roll it back and answer a feedback status instead. */
class Feedback extends Error {
  constructor(readonly status: CartFeedbackStatus) {
    super(status);
  }
}

interface ShopperPreferences {
  language: Locale;
  /** The language is one the shopper saved for this store (not an account or store default). */
  languageSaved: boolean;
  currency: Currency;
  showCheckoutPresentation: boolean;
  /** The store's own currency: what a product without a price in the shopper's was shown in. */
  storeCurrency: Currency;
}

/** The prices of a product or variant per currency; a variant's own price wins (as unitPrice). */
function priceListOf(product: Product, variantUid: string | null) {
  const variant = variantUid ? product.variants.find((candidate) => candidate.uid === variantUid) : undefined;
  return { ...product.prices, ...variant?.prices };
}

interface CampaignInfo {
  deadline: number | null;
}

/** The price of a product or variant in minor units of `currency`; a variant's own price wins. */
function unitPrice(product: Product, variantUid: string | null, currency: Currency): number | undefined {
  const variant = variantUid === null ? undefined : product.variants.find((v) => v.uid === variantUid);
  return variant?.prices[currency] ?? product.prices[currency];
}

/**
 * Shoppers' carts (spec §3 "Cart reservation", §7 cart calls): lines priced by the server from
 * the catalogue in the cart's currency, with their units reserved out of free stock while they
 * are in the cart.
 */
export function createCartService(deps: {
  db: Database;
  catalog: CatalogService;
  reservations: ReservationPublisher;
  /** Called after a commit that changed a product's free stock. */
  onStockChanged: (productUid: string) => void;
  now: () => number;
  /** Per-user and per-address limits of pings and cart changes. */
  limits: AbuseLimiter;
  /** The store's units-per-shopper cap. */
  stores: Pick<StoreService, 'integritySettings'>;
}) {
  const { db, catalog, reservations, now, limits } = deps;

  async function campaignInfo(pageUid: string, campaignUid: string): Promise<CampaignInfo> {
    const [row] = await db.query<{ deadline: number | null }>(
      'SELECT deadline FROM campaigns WHERE uid = $1 AND page_uid = $2',
      [campaignUid, pageUid],
    );
    if (!row) throw notFound(`No campaign "${campaignUid}" in store "${pageUid}".`);
    return { deadline: row.deadline };
  }

  /**
   * The shopper's language and currency in a store: what they saved, else their account's, else
   * the store's own.
   */
  async function preferences(pageUid: string, userUid: string): Promise<ShopperPreferences> {
    const [row] = await db.query<{
      page_language: string;
      page_currency: string;
      locale_code: string | null;
      currency_code: string | null;
      language: string | null;
      currency: string | null;
      show_checkout_presentation: boolean | null;
    }>(
      `SELECT p.language AS page_language, p.currency AS page_currency, u.locale_code, u.currency_code,
         r.language, r.currency, r.show_checkout_presentation
       FROM pages p
       LEFT JOIN users u ON u.uid = $2
       LEFT JOIN user_reservations r ON r.page_uid = p.uid AND r.user_uid = $2
       WHERE p.uid = $1`,
      [pageUid, userUid],
    );
    if (!row) throw notFound(`No store "${pageUid}".`);
    const chosenCurrency = row.currency ?? row.currency_code;
    return {
      language: resolveLocale(row.language ?? row.locale_code ?? row.page_language),
      languageSaved: row.language !== null,
      currency: chosenCurrency ? resolveCurrency(chosenCurrency) : resolveCurrency(row.page_currency),
      showCheckoutPresentation: row.show_checkout_presentation ?? false,
      storeCurrency: resolveCurrency(row.page_currency),
    };
  }

  async function findCheckoutUid(
    pageUid: string,
    campaignUid: string,
    userUid: string,
  ): Promise<string | null> {
    const [row] = await db.query<{ uid: string }>(
      'SELECT uid FROM checkouts WHERE page_uid = $1 AND campaign_uid = $2 AND user_uid = $3',
      [pageUid, campaignUid, userUid],
    );
    return row?.uid ?? null;
  }

  /** The shopper's checkout in the campaign, created (empty) when there is none; locked for the transaction. */
  async function lockOrCreateCheckout(
    tx: Queryable,
    pageUid: string,
    campaignUid: string,
    userUid: string,
    prefs: ShopperPreferences,
  ): Promise<CheckoutRow> {
    const at = now();
    await tx.query(
      `INSERT INTO checkouts (uid, page_uid, campaign_uid, user_uid, currency, language, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
       ON CONFLICT (page_uid, campaign_uid, user_uid) DO NOTHING`,
      [
        randomBytes(12).toString('base64url'),
        pageUid,
        campaignUid,
        userUid,
        prefs.currency,
        prefs.language,
        at,
      ],
    );
    const [row] = await tx.query<CheckoutRow>(
      'SELECT * FROM checkouts WHERE page_uid = $1 AND campaign_uid = $2 AND user_uid = $3 FOR UPDATE',
      [pageUid, campaignUid, userUid],
    );
    if (!row) throw new Error('the checkout just upserted is missing');
    return row;
  }

  /**
   * Renews the stock hold of every line of an open cart: the shopper is active. A line is never
   * held past CART_RESERVATION_MAX_AGE_MS after it was added, however active the shopper is, so
   * nobody keeps stock from others forever; it is then released like an inactive one.
   */
  async function renewHolds(tx: Queryable, checkout: CheckoutRow): Promise<void> {
    const until = checkout.status === 'open' ? now() + CART_RESERVATION_HOLD_MS : null;
    // An order's lines hold no timed reservation (LEAST would skip a NULL, hence the CASE).
    await tx.query(
      `UPDATE checkout_lines
       SET reserved_until = CASE WHEN $2::bigint IS NULL THEN NULL ELSE LEAST($2::bigint, added_at + $3::bigint) END
       WHERE checkout_uid = $1`,
      [checkout.uid, until, CART_RESERVATION_MAX_AGE_MS],
    );
    await tx.query('UPDATE checkouts SET updated_at = $2 WHERE uid = $1', [checkout.uid, now()]);
    // An order's total moved: whether its payments still cover it may have changed.
    if (checkout.status !== 'open') await refreshPayed(tx, checkout);
  }

  async function feedback(
    status: CartFeedbackStatus,
    pageUid: string,
    campaignUid: string,
    userUid: string,
    doc?: CheckoutReservationDoc,
  ): Promise<CartUpdateResponse> {
    const reservation = doc ?? (await readReservationDoc(db, pageUid, campaignUid, userUid));
    return {
      status,
      message: CART_FEEDBACK_MESSAGES[status],
      checkoutUid: reservation.checkoutUid ?? null,
      reservation,
    };
  }

  /** After a commit: the shopper's tabs and the viewers of changed products hear of it. */
  async function announce(
    doc: { pageUid: string; campaignUid: string; userUid: string },
    products: string[],
  ) {
    for (const productUid of new Set(products)) deps.onStockChanged(productUid);
    await reservations.announce(doc.pageUid, doc.campaignUid, doc.userUid);
  }

  /**
   * An order with received payments only grows: giving units back would need a refund the shop
   * makes. Nor does it shrink while a payment is under way, so the amount the shopper is paying
   * never exceeds what the order holds.
   */
  async function refuseRemovalWhenPaid(tx: Queryable, checkout: CheckoutRow): Promise<void> {
    const [open] = await tx.query(
      "SELECT 1 FROM payment_transactions WHERE checkout_uid = $1 AND status = 'awaiting_confirmation' LIMIT 1",
      [checkout.uid],
    );
    if (open) {
      throw new HttpError(
        409,
        CHECKOUT_ERROR_CODES.paymentOpen,
        'A payment for this order is under way: complete or interrupt it on the payment page before removing products.',
      );
    }
    if ((await paidSoFar(tx, checkout)) > 0) {
      throw new HttpError(
        409,
        'order_paid',
        'This order has been paid; contact the store to remove products from it.',
      );
    }
  }

  /** Releases the stock of expired lines of open carts: of one product (or variant), or of all. */
  async function releaseExpired(filter?: { productUid: string; variantUid: string | null }): Promise<number> {
    const at = now();
    const params: unknown[] = [at];
    let condition = '';
    if (filter) {
      params.push(filter.productUid, variantKey(filter.variantUid));
      condition = 'AND l.product_uid = $2 AND l.variant_uid = $3';
    }
    const due = await db.query<{ checkout_uid: string }>(
      `SELECT DISTINCT l.checkout_uid FROM checkout_lines l JOIN checkouts c ON c.uid = l.checkout_uid
       WHERE c.status = 'open' AND l.reserved_until < $1 ${condition} LIMIT 200`,
      params,
    );
    let released = 0;
    for (const { checkout_uid } of due) {
      const result = await withRetry(() =>
        db.transaction(async (tx) => {
          const [checkout] = await tx.query<CheckoutRow>(
            'SELECT * FROM checkouts WHERE uid = $1 FOR UPDATE',
            [checkout_uid],
          );
          if (checkout?.status !== 'open') return null;
          const expired = await tx.query<LineRow>(
            'DELETE FROM checkout_lines WHERE checkout_uid = $1 AND reserved_until < $2 RETURNING *',
            [checkout_uid, at],
          );
          if (expired.length === 0) return null;
          await releaseStock(tx, expired.map(stockItemOf));
          return { doc: await storeReservationDoc(tx, checkout_uid), expired };
        }),
      );
      if (!result) continue;
      released += result.expired.reduce((sum, line) => sum + line.qty, 0);
      await announce(
        result.doc,
        result.expired.map((line) => line.product_uid),
      );
    }
    return released;
  }

  /**
   * Refuses (409 `shopper_limit`) units beyond the store's cap on one product per shopper: the
   * units of the product (any variant) that the shopper holds in the store, plus `adding`. Held
   * means in this checkout or in another open cart or unpaid order; what a shopper bought (paid
   * or sent to packing) does not count, so a returning customer can buy again.
   * The cap is read before the transaction (PGlite's one connection is held by it).
   */
  async function enforceUnitsPerShopper(
    tx: Queryable,
    checkout: CheckoutRow,
    productUid: string,
    adding: number,
    maxUnitsPerShopper: number,
  ): Promise<void> {
    const [held] = await tx.query<{ units: number }>(
      `SELECT COALESCE(SUM(l.qty), 0)::int AS units FROM checkout_lines l JOIN checkouts c ON c.uid = l.checkout_uid
       WHERE c.page_uid = $1 AND c.user_uid = $2 AND l.product_uid = $3
         AND (c.uid = $4 OR (c.status <> 'locked' AND NOT c.payed))`,
      [checkout.page_uid, checkout.user_uid, productUid, checkout.uid],
    );
    if ((held?.units ?? 0) + adding > maxUnitsPerShopper) {
      throw new HttpError(409, 'shopper_limit', shopperLimitMessage(maxUnitsPerShopper), {
        maxUnitsPerShopper,
      });
    }
  }

  async function addSingle(
    userUid: string,
    input: AddSingleRequest,
    address: string,
  ): Promise<CartUpdateResponse> {
    await limits.enforce('cartChange', { userUid, address });
    const { pageUid, campaignUid } = input;
    const campaign = await campaignInfo(pageUid, campaignUid);
    const [product] = await catalog.productsByUid([input.productUid]);
    const productFound =
      product !== undefined &&
      product.pageUid === pageUid &&
      (await isProductInCampaign(db, campaignUid, input.productUid));
    const check = checkAdd({
      productFound,
      priced: true,
      deadline: campaign.deadline,
      now: now(),
      hasVariants: (product?.variants.length ?? 0) > 0,
      requestedVariant: input.variantUid,
      variantFound: product?.variants.some((variant) => variant.uid === input.variantUid) ?? false,
    });
    if (check !== null || !product) return feedback(check ?? 'notFound', pageUid, campaignUid, userUid);
    const variant = product.variants.find((candidate) => candidate.uid === input.variantUid) ?? null;
    // Already gone when read: answer without a transaction (a flash sale's many late buyers),
    // unless timed-out carts give units back. The conditional UPDATE below stays the real check.
    const free = variant ? variant.stock : product.stock;
    if (
      free !== null &&
      free < input.quantity &&
      (await releaseExpired({ productUid: product.uid, variantUid: input.variantUid })) === 0
    ) {
      return feedback('soldOut', pageUid, campaignUid, userUid);
    }
    const saved = await preferences(pageUid, userUid);
    // Currency shown = currency charged (domain currency-rules): a new cart takes the currency the
    // product was shown in; an open cart in another one follows the shopper's, when it can.
    const shown = input.currency ?? saved.currency;
    const prefs = {
      ...saved,
      currency:
        cartCurrency([priceListOf(product, input.variantUid)], shown, saved.storeCurrency) ?? saved.currency,
    };
    if (input.currency !== undefined)
      await followShownCurrency(userUid, input, product, shown, saved.storeCurrency);
    const { maxUnitsPerShopper } = await deps.stores.integritySettings(pageUid);

    const attempt = () =>
      withRetry(() =>
        db.transaction(async (tx) => {
          const checkout = await lockOrCreateCheckout(tx, pageUid, campaignUid, userUid, prefs);
          const refusal = orderRefusalError(checkout.status, campaign.deadline, now(), 'add');
          if (refusal) throw refusal;
          const price = unitPrice(product, input.variantUid, checkout.currency);
          if (price === undefined) throw new Feedback('notFound');
          const [line] = await tx.query<{ qty: number }>(
            'SELECT qty FROM checkout_lines WHERE checkout_uid = $1 AND product_uid = $2 AND variant_uid = $3',
            [checkout.uid, product.uid, variantKey(input.variantUid)],
          );
          if ((line?.qty ?? 0) + input.quantity > MAX_LINE_QUANTITY) {
            throw new HttpError(
              409,
              'quantity_limit',
              `At most ${MAX_LINE_QUANTITY} of one product fit in a cart.`,
            );
          }
          await enforceUnitsPerShopper(tx, checkout, product.uid, input.quantity, maxUnitsPerShopper);
          const item = { productUid: product.uid, variantUid: input.variantUid, qty: input.quantity };
          if (!(await reserveStock(tx, item))) throw new Feedback('soldOut');
          await tx.query(
            `INSERT INTO checkout_lines (checkout_uid, product_uid, variant_uid, qty, unit_price, product_name,
               variant_name, sku, image, added_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
             ON CONFLICT (checkout_uid, product_uid, variant_uid) DO UPDATE SET qty = checkout_lines.qty + EXCLUDED.qty`,
            [
              checkout.uid,
              product.uid,
              variantKey(input.variantUid),
              input.quantity,
              price,
              product.name,
              variant?.name ?? null,
              variant?.sku || product.sku,
              product.images[0] ?? null,
              now(),
            ],
          );
          await renewHolds(tx, checkout);
          return storeReservationDoc(tx, checkout.uid);
        }),
      );

    let doc: CheckoutReservationDoc;
    try {
      try {
        doc = await attempt();
      } catch (error) {
        // Units held by carts that timed out are free again: release them and try once more.
        if (
          !(error instanceof Feedback && error.status === 'soldOut') ||
          (await releaseExpired({ productUid: product.uid, variantUid: input.variantUid })) === 0
        ) {
          throw error;
        }
        doc = await attempt();
      }
    } catch (error) {
      if (error instanceof Feedback) return feedback(error.status, pageUid, campaignUid, userUid);
      throw error;
    }
    await announce(doc, [product.uid]);
    return feedback('added', pageUid, campaignUid, userUid, doc);
  }

  async function changeQuantity(
    userUid: string,
    input: ChangeCheckoutProductQuantityRequest,
    address: string,
  ): Promise<CartUpdateResponse> {
    await limits.enforce('cartChange', { userUid, address });
    const campaign = await campaignInfo(input.pageUid, input.campaignUid);
    const { maxUnitsPerShopper } = await deps.stores.integritySettings(input.pageUid);
    let outcome: { status: CartFeedbackStatus; doc: CheckoutReservationDoc };
    try {
      outcome = await withRetry(() =>
        db.transaction(async (tx) => {
          const checkout = await lockOwnCheckout(tx, input, userUid);
          const [line] = await tx.query<LineRow>(
            'SELECT * FROM checkout_lines WHERE checkout_uid = $1 AND product_uid = $2 AND variant_uid = $3',
            [checkout.uid, input.productUid, variantKey(input.variantUid)],
          );
          if (!line) {
            if (input.quantity === 0)
              return { status: 'removed' as const, doc: await storeReservationDoc(tx, checkout.uid) };
            throw new Feedback('notFound');
          }
          const delta = input.quantity - line.qty;
          const refusal = orderRefusalError(
            checkout.status,
            campaign.deadline,
            now(),
            delta > 0 ? 'add' : 'remove',
          );
          if (refusal) throw refusal;
          if (delta < 0) await refuseRemovalWhenPaid(tx, checkout);
          const item: Omit<StockItem, 'qty'> = {
            productUid: line.product_uid,
            variantUid: variantOfKey(line.variant_uid),
          };
          if (delta > 0) {
            await enforceUnitsPerShopper(tx, checkout, line.product_uid, delta, maxUnitsPerShopper);
          }
          if (delta > 0 && !(await reserveStock(tx, { ...item, qty: delta }))) throw new Feedback('soldOut');
          if (delta < 0) await releaseStock(tx, [{ ...item, qty: -delta }]);
          if (input.quantity === 0) {
            await tx.query(
              'DELETE FROM checkout_lines WHERE checkout_uid = $1 AND product_uid = $2 AND variant_uid = $3',
              [checkout.uid, line.product_uid, line.variant_uid],
            );
          } else {
            await tx.query(
              'UPDATE checkout_lines SET qty = $4 WHERE checkout_uid = $1 AND product_uid = $2 AND variant_uid = $3',
              [checkout.uid, line.product_uid, line.variant_uid, input.quantity],
            );
          }
          await renewHolds(tx, checkout);
          const status: CartFeedbackStatus = input.quantity === 0 ? 'removed' : 'updated';
          return { status, doc: await storeReservationDoc(tx, checkout.uid) };
        }),
      );
    } catch (error) {
      if (error instanceof Feedback) return feedback(error.status, input.pageUid, input.campaignUid, userUid);
      throw error;
    }
    await announce(outcome.doc, [input.productUid]);
    return feedback(outcome.status, input.pageUid, input.campaignUid, userUid, outcome.doc);
  }

  async function cancelReservation(
    userUid: string,
    input: CancelReservationRequest,
    address: string,
  ): Promise<CartUpdateResponse> {
    requireSelf(userUid, input.user);
    await limits.enforce('cartChange', { userUid, address });
    const pageUid = input.pageUid;
    const campaignUid = input.campaign;
    await campaignInfo(pageUid, campaignUid);
    const checkoutUid = await findCheckoutUid(pageUid, campaignUid, userUid);
    if (checkoutUid === null) {
      return feedback(
        'removed',
        pageUid,
        campaignUid,
        userUid,
        emptyReservationDoc(pageUid, campaignUid, userUid),
      );
    }
    const result = await withRetry(() =>
      db.transaction(async (tx) => {
        const checkout = await lockOwnCheckout(tx, { pageUid, campaignUid, checkoutUid }, userUid);
        const refusal = orderRefusalError(checkout.status, null, now(), 'remove');
        if (refusal) throw refusal;
        await refuseRemovalWhenPaid(tx, checkout);
        if (input.productUid === undefined) {
          const lines = await tx.query<LineRow>(
            'DELETE FROM checkout_lines WHERE checkout_uid = $1 RETURNING *',
            [checkout.uid],
          );
          await releaseStock(tx, lines.map(stockItemOf));
          // Nothing was received (checked above). A checkout without payment attempts goes
          // entirely; one with attempts stays (empty), so a provider's late confirmation still
          // finds its transaction and the shop can refund it.
          const [attempt] = await tx.query(
            'SELECT 1 FROM payment_transactions WHERE checkout_uid = $1 LIMIT 1',
            [checkout.uid],
          );
          if (attempt) {
            await renewHolds(tx, checkout);
            return { doc: await storeReservationDoc(tx, checkout.uid), lines };
          }
          await tx.query('DELETE FROM checkouts WHERE uid = $1', [checkout.uid]);
          const doc = emptyReservationDoc(pageUid, campaignUid, userUid);
          await writeEmpty(tx, doc);
          return { doc, lines };
        }
        const lines = await tx.query<LineRow>(
          'DELETE FROM checkout_lines WHERE checkout_uid = $1 AND product_uid = $2 AND variant_uid = $3 RETURNING *',
          [checkout.uid, input.productUid, variantKey(input.variantUid)],
        );
        await releaseStock(tx, lines.map(stockItemOf));
        await renewHolds(tx, checkout);
        return { doc: await storeReservationDoc(tx, checkout.uid), lines };
      }),
    );
    await announce(
      result.doc,
      result.lines.map((line) => line.product_uid),
    );
    return feedback('removed', pageUid, campaignUid, userUid, result.doc);
  }

  async function writeEmpty(tx: Queryable, doc: CheckoutReservationDoc): Promise<void> {
    await tx.query(
      `INSERT INTO checkout_reservations (page_uid, campaign_uid, user_uid, data) VALUES ($1, $2, $3, $4)
       ON CONFLICT (page_uid, campaign_uid, user_uid) DO UPDATE SET data = EXCLUDED.data, updated_at = now()`,
      [doc.pageUid, doc.campaignUid, doc.userUid, JSON.stringify(doc)],
    );
  }

  async function getCartUid(userUid: string, input: GetCartUidRequest): Promise<GetCartUidResponse> {
    await campaignInfo(input.pageUid, input.campaignUid);
    const existing = await findCheckoutUid(input.pageUid, input.campaignUid, userUid);
    if (existing !== null || !input.create) return { uid: existing };
    const prefs = await preferences(input.pageUid, userUid);
    const doc = await withRetry(() =>
      db.transaction(async (tx) => {
        const checkout = await lockOrCreateCheckout(tx, input.pageUid, input.campaignUid, userUid, prefs);
        return storeReservationDoc(tx, checkout.uid);
      }),
    );
    await announce(doc, []);
    return { uid: doc.checkoutUid ?? null };
  }

  function requireSelf(userUid: string, user: string): void {
    if (user !== userUid) {
      throw new HttpError(403, 'forbidden', 'user: must be the signed-in user of the id token.');
    }
  }

  async function userReservation(
    userUid: string,
    pageUid: string,
    campaignUid: string,
  ): Promise<UserReservation> {
    const { language, languageSaved, currency, showCheckoutPresentation } = await preferences(
      pageUid,
      userUid,
    );
    return {
      pageUid,
      language,
      languageSaved,
      currency,
      showCheckoutPresentation,
      checkoutUid: await findCheckoutUid(pageUid, campaignUid, userUid),
    };
  }

  async function loadUserReservation(
    userUid: string,
    input: LoadUserReservationRequest,
  ): Promise<UserReservation> {
    requireSelf(userUid, input.user);
    await campaignInfo(input.pageUid, input.campaign);
    return userReservation(userUid, input.pageUid, input.campaign);
  }

  /** Saves language, currency and the presentation flag; a new currency reprices an open cart. */
  async function saveUserReservation(
    userUid: string,
    input: SaveUserReservationRequest,
  ): Promise<UserReservation> {
    requireSelf(userUid, input.user);
    await campaignInfo(input.pageUid, input.campaign);
    await db.query(
      `INSERT INTO user_reservations (page_uid, user_uid, language, currency, show_checkout_presentation, updated_at)
       VALUES ($1, $2, $3, $4, COALESCE($5, false), $6)
       ON CONFLICT (page_uid, user_uid) DO UPDATE SET
         language = COALESCE(EXCLUDED.language, user_reservations.language),
         currency = COALESCE(EXCLUDED.currency, user_reservations.currency),
         show_checkout_presentation = COALESCE($5, user_reservations.show_checkout_presentation),
         updated_at = EXCLUDED.updated_at`,
      [
        input.pageUid,
        userUid,
        input.language ?? null,
        input.currency ?? null,
        input.showCheckoutPresentation ?? null,
        now(),
      ],
    );
    // The checkout's language (its payment page's) follows the shopper's, so the journey keeps one language.
    if (input.language !== undefined) {
      await db.query(
        `UPDATE checkouts SET language = $4 WHERE page_uid = $1 AND campaign_uid = $2 AND user_uid = $3 AND language <> $4`,
        [input.pageUid, input.campaign, userUid, input.language],
      );
    }
    if (input.currency !== undefined)
      await repriceOpenCart(userUid, input.pageUid, input.campaign, input.currency);
    return userReservation(userUid, input.pageUid, input.campaign);
  }

  /**
   * Prices an open cart's lines in a new currency. A cart is priced in one currency, so it stays
   * as it is when some product has no price in the new one.
   */
  async function repriceOpenCart(userUid: string, pageUid: string, campaignUid: string, currency: Currency) {
    const checkoutUid = await findCheckoutUid(pageUid, campaignUid, userUid);
    if (checkoutUid === null) return;
    // Products are read before the transaction: PGlite's one connection is held by it.
    const lineProducts = await db.query<{ product_uid: string }>(
      'SELECT product_uid FROM checkout_lines WHERE checkout_uid = $1',
      [checkoutUid],
    );
    const products = new Map(
      (await catalog.productsByUid(lineProducts.map((line) => line.product_uid))).map((p) => [p.uid, p]),
    );
    const doc = await withRetry(() =>
      db.transaction(async (tx) => {
        const checkout = await lockOwnCheckout(tx, { pageUid, campaignUid, checkoutUid }, userUid);
        if (checkout.status !== 'open' || checkout.currency === currency) return null;
        const lines = await tx.query<LineRow>('SELECT * FROM checkout_lines WHERE checkout_uid = $1', [
          checkout.uid,
        ]);
        const prices = lines.map((line) => {
          const product = products.get(line.product_uid);
          return product ? unitPrice(product, variantOfKey(line.variant_uid), currency) : undefined;
        });
        if (prices.some((price) => price === undefined)) return null;
        for (const [index, line] of lines.entries()) {
          await tx.query(
            'UPDATE checkout_lines SET unit_price = $4 WHERE checkout_uid = $1 AND product_uid = $2 AND variant_uid = $3',
            [line.checkout_uid, line.product_uid, line.variant_uid, prices[index]],
          );
        }
        await tx.query('UPDATE checkouts SET currency = $2, updated_at = $3 WHERE uid = $1', [
          checkout.uid,
          currency,
          now(),
        ]);
        return storeReservationDoc(tx, checkout.uid);
      }),
    );
    if (doc) await announce(doc, []);
  }

  /**
   * Reprices the shopper's open cart in the currency they are shown, with the product being added:
   * in `shown` when every line (and the product) has a price there, else in the store's own.
   */
  async function followShownCurrency(
    userUid: string,
    input: AddSingleRequest,
    product: Product,
    shown: Currency,
    storeCurrency: Currency,
  ): Promise<void> {
    const checkoutUid = await findCheckoutUid(input.pageUid, input.campaignUid, userUid);
    if (checkoutUid === null) return;
    const lines = await db.query<{ product_uid: string; variant_uid: string }>(
      'SELECT product_uid, variant_uid FROM checkout_lines WHERE checkout_uid = $1',
      [checkoutUid],
    );
    const products = new Map(
      (await catalog.productsByUid(lines.map((line) => line.product_uid))).map((p) => [p.uid, p]),
    );
    const priceLists = lines.map((line) => {
      const lineProduct = products.get(line.product_uid);
      return lineProduct ? priceListOf(lineProduct, variantOfKey(line.variant_uid)) : {};
    });
    const target = cartCurrency(
      [...priceLists, priceListOf(product, input.variantUid)],
      shown,
      storeCurrency,
    );
    // repriceOpenCart leaves orders and carts already in the target as they are.
    if (target !== null) await repriceOpenCart(userUid, input.pageUid, input.campaignUid, target);
  }

  /** `/functions/ping`: the shopper is still on the checkout, so an open cart keeps its stock longer. */
  async function ping(userUid: string, input: PingRequest, address: string): Promise<PingResponse> {
    await limits.enforce('ping', { userUid, address });
    const { checkoutUid } = input;
    if (checkoutUid === null) return { reservedUntil: null };
    const result = await withRetry(() =>
      db.transaction(async (tx) => {
        const [checkout] = await tx.query<CheckoutRow>(
          `SELECT * FROM checkouts WHERE uid = $1 AND page_uid = $2 AND campaign_uid = $3 AND user_uid = $4
           FOR UPDATE`,
          [checkoutUid, input.pageUid, input.campaignUid, userUid],
        );
        if (checkout?.status !== 'open') return null;
        // Renewed like any activity (renewHolds), so never past a line's maximum age.
        const renewed = await tx.query<{ product_uid: string; variant_uid: string; reserved_until: string }>(
          `UPDATE checkout_lines SET reserved_until = LEAST($2::bigint, added_at + $3::bigint)
           WHERE checkout_uid = $1 RETURNING product_uid, variant_uid, reserved_until`,
          [checkout.uid, now() + CART_RESERVATION_HOLD_MS, CART_RESERVATION_MAX_AGE_MS],
        );
        if (renewed.length === 0) return null;
        return { renewed, doc: await storeReservationDoc(tx, checkout.uid) };
      }),
    );
    if (!result) return { reservedUntil: null };
    await announce(result.doc, []);
    const at = now();
    const held = result.renewed.filter((line) => Number(line.reserved_until) >= at);
    // Lines past their maximum age are due: released now, as the sweep would a little later.
    for (const line of result.renewed.filter((candidate) => !held.includes(candidate))) {
      await releaseExpired({ productUid: line.product_uid, variantUid: variantOfKey(line.variant_uid) });
    }
    // The hold ends when its first line is released.
    const until = held.length > 0 ? Math.min(...held.map((line) => Number(line.reserved_until))) : null;
    return { reservedUntil: until };
  }

  return {
    ping,
    addSingle,
    changeQuantity,
    cancelReservation,
    getCartUid,
    loadUserReservation,
    saveUserReservation,
    releaseExpired,
    /** The shopper's currency and language in a store (for orders created elsewhere). */
    preferences,
    announce,
  };
}

function stockItemOf(line: LineRow): StockItem {
  return { productUid: line.product_uid, variantUid: variantOfKey(line.variant_uid), qty: line.qty };
}

export type CartService = ReturnType<typeof createCartService>;
