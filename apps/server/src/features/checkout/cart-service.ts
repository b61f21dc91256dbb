import { randomBytes } from 'node:crypto';
import {
  CART_RESERVATION_HOLD_MS,
  CART_RESERVATION_MAX_AGE_MS,
  cartCurrency,
  checkAdd,
  keepsPaidAmount,
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
import type { Currency, Locale } from '@vitrine/protocol/vocabulary';
import type { Queryable } from '../../db/database.ts';
import { createGroupCommit, type JobOutcome } from '../../db/group-commit.ts';
import type { ReadCache, ReadView } from '../../db/read-cache.ts';
import type { AbuseLimiter } from '../../http/abuse-limits.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import type { OutboxDatabase } from '../../realtime/outbox.ts';
import type { CatalogService } from '../catalog/catalog-service.ts';
import { freeStock, releaseStock, reserveStock, type StockItem } from '../catalog/stock.ts';
import { isProductInCampaign } from '../events/campaign-products.ts';
import type { EventService } from '../events/event-service.ts';
import { type DeliveryOffer, readDeliveryOffer, type StoreService } from '../stores/store-service.ts';
import type { UserService } from '../users/user-service.ts';
import {
  emptyReservationDoc,
  lockOwnCheckout,
  paidSoFar,
  readReservationDoc,
  reservationDocOf,
  saveReservationDoc,
  saveReservationDocsTakingStock,
  storeReservationDoc,
  variantKey,
  variantOfKey,
  withRetry,
} from './checkout-records.ts';
import {
  type AddedToCart,
  addToCarts,
  type CartAdd,
  type CheckoutRow,
  checkoutsWithExpiredLines,
  deleteCheckout,
  deleteExpiredLines,
  deleteLines,
  extendLineHolds,
  findLine,
  findCheckoutUid as findStoredCheckoutUid,
  hasPaymentAttempt,
  holdLinesAndTouch,
  type LineRow,
  lockCheckout,
  lockOrCreateCheckout as lockOrCreateStoredCheckout,
  openPayment,
  ownCheckout,
  readLines,
  savedShopperChoices,
  saveShopperChoices,
  setCheckoutCurrency,
  setCheckoutLanguage,
  setLinePrice,
  setLineQuantity,
  unitsHeld,
} from './checkout-store.ts';
import { checkoutTotals, refreshPayed } from './checkout-totals.ts';
import { orderRefusalError } from './order-refusal.ts';

/** The 409 `shopper_limit` message: more units of one product than the store lets one shopper hold. */
export const shopperLimitMessage = (max: number) =>
  `This store sells at most ${max} of one product per customer.`;

/** The 409 `price_mismatch` message: the product is in the cart at another unit price (a flash deal's). */
export const PRICE_MISMATCH_MESSAGE =
  'This product is already in your cart at another price: check out or remove it first.';

const shopperLimitError = (maxUnitsPerShopper: number) =>
  new HttpError(409, 'shopper_limit', shopperLimitMessage(maxUnitsPerShopper), { maxUnitsPerShopper });

/** Thrown inside a transaction to roll it back and answer a feedback status instead. */
class Feedback extends Error {
  constructor(readonly status: CartFeedbackStatus) {
    super(status);
  }
}

/** Rolls a batch of adds back: they run alone instead (a refusal of one, or too few units for all). */
class BatchFallsApart extends Error {}

/**
 * Most adds of one product in one transaction: bounds the statements' size and how long a batch
 * keeps its shoppers' checkouts locked.
 */
const MAX_ADDS_PER_BATCH = 100;

interface ShopperPreferences {
  language: Locale;
  /** The language is one the shopper saved for this store (not an account or store default). */
  languageSaved: boolean;
  currency: Currency;
  showCheckoutPresentation: boolean;
  /** The store's own currency: what a product without a price in the shopper's was shown in. */
  storeCurrency: Currency;
}

/** The prices of a product or variant per currency; a variant's own price wins. */
function priceListOf(product: Product, variantUid: string | null) {
  const variant = variantUid ? product.variants.find((candidate) => candidate.uid === variantUid) : undefined;
  return { ...product.prices, ...variant?.prices };
}

interface CampaignInfo {
  deadline: number | null;
}

/** An add that passed the checks made before the transaction, waiting for its batch (addTogether). */
interface PendingAdd {
  userUid: string;
  input: AddSingleRequest;
  deadline: number | null;
  product: Product;
  variant: Product['variants'][number] | null;
  prefs: ShopperPreferences;
  maxUnitsPerShopper: number;
  /** The store's delivery offer (from the node's cache), for the reservation document. */
  offer: DeliveryOffer;
  /** Flash deals hook (issue 30 §3): the deal's prices instead of the catalogue's, when the add is a deal's. */
  dealPrices?: Product['prices'];
}

/** The shopper's cart an add writes (one checkout per campaign and shopper; the product fixes the store). */
const cartKeyOf = (add: PendingAdd) => `${add.input.campaignUid}\u0000${add.userUid}`;

function stockItemOfAdd(add: PendingAdd): StockItem {
  return { productUid: add.product.uid, variantUid: add.input.variantUid, qty: add.input.quantity };
}

/** The price of a product or variant in minor units of `currency`; a variant's own price wins. */
function unitPrice(product: Product, variantUid: string | null, currency: Currency): number | undefined {
  return priceListOf(product, variantUid)[currency];
}

/**
 * Shoppers' carts (spec §3 "Cart reservation", §7 cart calls): lines priced by the server from
 * the catalogue in the cart's currency, with their units reserved out of free stock while they
 * are in the cart.
 */
export function createCartService(deps: {
  db: OutboxDatabase;
  catalog: CatalogService;
  /** Called after a commit that changed a product's free stock. */
  onStockChanged: (productUid: string) => void;
  now: () => number;
  /** Per-user and per-address limits of pings and cart changes. */
  limits: AbuseLimiter;
  /** The store's units-per-shopper cap, language and currency. */
  stores: Pick<StoreService, 'integritySettings' | 'pageSummaries'>;
  /** The campaign a cart is in and its order deadline. */
  events: Pick<EventService, 'campaign'>;
  /** The shopper's saved language and currency. */
  users: Pick<UserService, 'findUser'>;
  /**
   * The node's cache of what an add reads before its transaction (store, campaign, product, show
   * line-up, shopper), checked against the database's read versions by one statement per add.
   */
  reads: ReadCache;
}) {
  const { db, catalog, now, limits, stores, events, users, reads } = deps;

  async function campaignInfo(pageUid: string, campaignUid: string, view?: ReadView): Promise<CampaignInfo> {
    const campaign = await (view
      ? view.get(`page:${pageUid}`, `campaign:${campaignUid}`, () => events.campaign(campaignUid))
      : events.campaign(campaignUid));
    if (campaign?.pageUid !== pageUid) throw notFound(`No campaign "${campaignUid}" in store "${pageUid}".`);
    return { deadline: campaign.deadline };
  }

  /**
   * The shopper's language and currency in a store: what they saved, else their account's, else
   * the store's own.
   */
  async function preferences(pageUid: string, userUid: string, view?: ReadView): Promise<ShopperPreferences> {
    const [pages, user, saved] = await Promise.all([
      view
        ? view.get(`page:${pageUid}`, 'summary', () => stores.pageSummaries([pageUid]))
        : stores.pageSummaries([pageUid]),
      view ? view.get(`user:${userUid}`, 'user', () => users.findUser(userUid)) : users.findUser(userUid),
      view
        ? view.get(`user:${userUid}`, `choices:${pageUid}`, () => savedShopperChoices(db, pageUid, userUid))
        : savedShopperChoices(db, pageUid, userUid),
    ]);
    const page = pages.get(pageUid);
    if (!page) throw notFound(`No store "${pageUid}".`);
    const account = {
      page_language: page.language,
      page_currency: page.currency,
      locale_code: user?.localeCode ?? null,
      currency_code: user?.currencyCode ?? null,
    };
    const row = {
      ...account,
      language: saved?.language ?? null,
      currency: saved?.currency ?? null,
      show_checkout_presentation: saved?.show_checkout_presentation ?? null,
    };
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
    return findStoredCheckoutUid(db, { pageUid, campaignUid, userUid });
  }

  /** The shopper's checkout in the campaign, created (empty) when there is none; locked for the transaction. */
  async function lockOrCreateCheckout(
    tx: Queryable,
    pageUid: string,
    campaignUid: string,
    userUid: string,
    prefs: ShopperPreferences,
  ): Promise<CheckoutRow> {
    return lockOrCreateStoredCheckout(
      tx,
      { pageUid, campaignUid, userUid },
      {
        uid: randomBytes(12).toString('base64url'),
        currency: prefs.currency,
        language: prefs.language,
        at: now(),
      },
    );
  }

  /**
   * Renews the stock hold of every line of an open cart: the shopper is active. A line is never
   * held past CART_RESERVATION_MAX_AGE_MS after it was added, however active the shopper is, so
   * nobody keeps stock from others forever; it is then released like an inactive one.
   */
  async function renewHolds(
    tx: Queryable,
    checkout: CheckoutRow,
  ): Promise<Awaited<ReturnType<typeof holdLinesAndTouch>> | undefined> {
    const until = checkout.status === 'open' ? now() + CART_RESERVATION_HOLD_MS : null;
    // An order's lines hold no timed reservation.
    const touched = await holdLinesAndTouch(tx, checkout.uid, until, CART_RESERVATION_MAX_AGE_MS, now());
    if (checkout.status === 'open') return touched;
    // An order's total moved: whether its payments still cover it may have changed (the row
    // with it is read again by storeReservationDoc).
    await refreshPayed(tx, checkout);
    return undefined;
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

  /**
   * After a commit that changed these products' free stock: their viewers hear of it (coalesced
   * by the stock announcer). The shopper's tabs heard through the transaction's outbox.
   */
  function stockChanged(products: string[]) {
    for (const productUid of new Set(products)) deps.onStockChanged(productUid);
  }

  /**
   * No order shrinks while a payment is under way, so the amount the shopper is paying never
   * exceeds what the order holds.
   */
  async function refuseWhilePaying(tx: Queryable, checkout: CheckoutRow): Promise<void> {
    if (await openPayment(tx, checkout.uid)) {
      throw new HttpError(
        409,
        CHECKOUT_ERROR_CODES.paymentOpen,
        'A payment for this order is under way: complete or interrupt it on the payment page before removing products.',
      );
    }
  }

  /**
   * After a removal inside the transaction: an order keeps what received payments paid for
   * (giving that back needs a refund the shop makes), so its total must still cover them; a line
   * added after a payment can go (domain keepsPaidAmount). Throwing rolls the removal back.
   */
  async function refuseRemovingPaid(tx: Queryable, checkout: CheckoutRow): Promise<void> {
    const after = await checkoutTotals(tx, checkout);
    if (after.paidAmount === 0) return;
    if (!keepsPaidAmount(after.totalPrice, 0, after.paidAmount)) {
      throw new HttpError(
        409,
        'order_paid',
        'These products have been paid; contact the store to remove them. Products added after the payment can be removed.',
      );
    }
    // Taking the unpaid rest away may leave the order paid in full.
    await refreshPayed(tx, checkout);
  }

  /** Releases the stock of expired lines of open carts: of one product (or variant), or of all. */
  async function releaseExpired(filter?: { productUid: string; variantUid: string | null }): Promise<number> {
    const at = now();
    const due = await checkoutsWithExpiredLines(
      db,
      at,
      filter && { productUid: filter.productUid, variantKey: variantKey(filter.variantUid) },
    );
    let released = 0;
    for (const checkout_uid of due) {
      const result = await withRetry(() =>
        db.transaction(async (tx) => {
          const checkout = await lockCheckout(tx, checkout_uid);
          if (checkout?.status !== 'open') return null;
          const expired = await deleteExpiredLines(tx, checkout_uid, at);
          if (expired.length === 0) return null;
          await releaseStock(tx, expired.map(stockItemOf));
          return { doc: await storeReservationDoc(tx, checkout_uid), expired };
        }),
      );
      if (!result) continue;
      released += result.expired.reduce((sum, line) => sum + line.qty, 0);
      stockChanged(result.expired.map((line) => line.product_uid));
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
    refuseBeyondUnitsPerShopper((await unitsHeld(tx, checkout, productUid)) + adding, maxUnitsPerShopper);
  }

  function refuseBeyondUnitsPerShopper(units: number, maxUnitsPerShopper: number): void {
    if (units > maxUnitsPerShopper) throw shopperLimitError(maxUnitsPerShopper);
  }

  /**
   * Products and variants (`uid\0variant`) whose last add on this node found them sold out: their
   * next adds read the stock first. A hint only (the conditional UPDATE decides), so it is bounded
   * by being cleared when it grows past a show's worth of products.
   */
  const soldOutSeen = new Set<string>();

  function sawSoldOut(stockKey: string) {
    if (soldOutSeen.size >= 10_000) soldOutSeen.clear();
    soldOutSeen.add(stockKey);
  }

  /** Fewer than `qty` units of the product or variant are free now (not stock-managed: never). */
  async function isShort(
    productUid: string,
    variantUid: string | null,
    qty: number,
    stockKey: string,
  ): Promise<boolean> {
    const free = await freeStock(db, { productUid, variantUid });
    const short = free !== null && free !== undefined && free < qty;
    if (short) sawSoldOut(stockKey);
    else soldOutSeen.delete(stockKey);
    return short;
  }

  /** The cart's writes of an add, as addToCarts takes them. */
  function cartAddOf(add: PendingAdd, at: number): CartAdd {
    const { input, product, variant, prefs } = add;
    return {
      owner: { pageUid: input.pageUid, campaignUid: input.campaignUid, userUid: add.userUid },
      created: {
        uid: randomBytes(12).toString('base64url'),
        currency: prefs.currency,
        language: prefs.language,
        at,
      },
      line: {
        productUid: product.uid,
        variantKey: variantKey(input.variantUid),
        qty: input.quantity,
        prices: add.dealPrices ?? priceListOf(product, input.variantUid),
        product_name: product.name,
        variant_name: variant?.name ?? null,
        sku: variant?.sku || product.sku,
        image: product.images[0] ?? null,
      },
    };
  }

  /**
   * What refuses an add, judged on what its writes left (addToCarts' answer): the order's state
   * or the deadline, no price in the cart's currency, more than a line holds, more of the product
   * than the store lets one shopper hold. Null when the add stands.
   */
  function addRefusal(add: PendingAdd, added: AddedToCart, at: number): Error | null {
    const refusal = orderRefusalError(added.checkout.status, add.deadline, at, 'add');
    if (refusal) return refusal;
    if (added.unitPrice === null) return new Feedback('notFound');
    if (added.lineQty > MAX_LINE_QUANTITY) {
      return new HttpError(
        409,
        'quantity_limit',
        `At most ${MAX_LINE_QUANTITY} of one product fit in a cart.`,
      );
    }
    if (added.units > add.maxUnitsPerShopper) return shopperLimitError(add.maxUnitsPerShopper);
    // Flash deals hook (issue 30 §3): a line has one unit price, so units at a deal price and at
    // another never merge (a regular add must not ride on a deal line's price, nor the reverse).
    const line = added.lines.find(
      (candidate) =>
        candidate.product_uid === add.product.uid &&
        candidate.variant_uid === variantKey(add.input.variantUid),
    );
    const linePrice = line ? Number(line.unit_price) : null;
    if (
      linePrice !== null &&
      linePrice !== added.unitPrice &&
      (add.dealPrices !== undefined || linePrice < added.unitPrice)
    ) {
      return new HttpError(409, 'price_mismatch', PRICE_MISMATCH_MESSAGE);
    }
    return null;
  }

  /**
   * Adds of one product (or variant), of different shoppers, in ONE transaction and two
   * statements between BEGIN and COMMIT: every cart's writes (checkout, line, holds), then, once
   * the rules are checked on what they left and the documents are built, the documents, the
   * outbox's topic locks and one stock UPDATE taking the adds' sum. A flash sale's buyers thus pay
   * for BEGIN, COMMIT (its WAL flush) and the product row's lock once per batch instead of once
   * each. The product row is locked from that UPDATE to COMMIT only.
   *
   * A lone add is a batch of one: a refusal throws its answer, sold out throws Feedback. In a batch
   * of several, anything that would make one shopper's answer differ from the answer alone (a
   * refusal of one add, fewer units left than the batch wants) throws BatchFallsApart: the batch
   * rolls back and its adds run alone (addBatch). Answers the documents in the order of `adds`.
   */
  async function addTogether(adds: readonly PendingAdd[]): Promise<CheckoutReservationDoc[]> {
    const first = adds[0];
    if (!first) return [];
    const alone = adds.length === 1;
    // Checkouts in one order (by campaign and shopper), so two batches sharing shoppers never wait in a cycle.
    const order = adds
      .map((add, index) => ({ add, index, key: cartKeyOf(add) }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.index - b.index));
    const item = { ...stockItemOfAdd(first), qty: adds.reduce((sum, add) => sum + add.input.quantity, 0) };
    return withRetry(() =>
      db.transaction(async (tx) => {
        const at = now();
        // An order's lines hold no timed reservation: checkout_add_lines clears them for one.
        const added = await addToCarts(
          tx,
          order.map(({ add }) => cartAddOf(add, at)),
          { until: at + CART_RESERVATION_HOLD_MS, maxAgeMs: CART_RESERVATION_MAX_AGE_MS },
        );
        const docs: CheckoutReservationDoc[] = [];
        for (const [position, { add }] of order.entries()) {
          const answer = added[position] as AddedToCart;
          const refusal = addRefusal(add, answer, at);
          if (refusal) throw alone ? refusal : new BatchFallsApart();
          // An order's total moved: whether its payments still cover it may have changed, and the
          // document reads its row again (renewHolds does the same for the other changes).
          const open = answer.checkout.status === 'open';
          if (!open) await refreshPayed(tx, answer.checkout);
          docs.push(await reservationDocOf(tx, answer.checkout.uid, open ? answer : undefined, add.offer));
        }
        // Last, after the topic locks; too few units rolls everything back.
        if (!(await saveReservationDocsTakingStock(tx, docs, item))) {
          throw alone ? new Feedback('soldOut') : new BatchFallsApart();
        }
        const inArrivalOrder: CheckoutReservationDoc[] = new Array(adds.length);
        for (const [position, { index }] of order.entries()) {
          inArrivalOrder[index] = docs[position] as CheckoutReservationDoc;
        }
        return inArrivalOrder;
      }),
    );
  }

  /**
   * One add in its own transaction, as a shopper alone gets it. When sold out, units of carts that
   * timed out are released and the add is tried once more.
   */
  async function addAlone(add: PendingAdd): Promise<CheckoutReservationDoc> {
    const attempt = async () => (await addTogether([add]))[0] as CheckoutReservationDoc;
    try {
      return await attempt();
    } catch (error) {
      if (
        !(error instanceof Feedback && error.status === 'soldOut') ||
        (await releaseExpired({ productUid: add.product.uid, variantUid: add.input.variantUid })) === 0
      ) {
        throw error;
      }
      return attempt();
    }
  }

  /**
   * A group commit's batch (adds of one product or variant that arrived together): together when
   * every add stands and the units suffice; else rolled back and each add alone, in arrival order,
   * so each shopper gets exactly what they would have had alone and the stock goes first come,
   * first served. The stock row stays the truth (other nodes take from it too): nothing is oversold.
   */
  async function addBatch(adds: PendingAdd[]): Promise<JobOutcome<CheckoutReservationDoc>[]> {
    if (adds.length > 1) {
      try {
        const docs = await addTogether(adds);
        batchesTogether.batches += 1;
        batchesTogether.adds += adds.length;
        batchesTogether.largest = Math.max(batchesTogether.largest, adds.length);
        return docs.map((value) => ({ ok: true, value }));
      } catch {
        // Rolled back, whatever the cause: every add runs alone below and meets it there.
      }
    }
    const outcomes: JobOutcome<CheckoutReservationDoc>[] = [];
    // Once an add found too few units even after releasing timed-out holds, a later add of as
    // many or more is sold out too (stock only fell since): answered without a transaction, as
    // the check before the transaction answers every buyer after the sell-out. Otherwise the
    // batch in flight at the sell-out would run up to MAX_ADDS_PER_BATCH doomed transactions.
    let soldOutFrom = Number.POSITIVE_INFINITY;
    for (const add of adds) {
      if (add.input.quantity >= soldOutFrom) {
        outcomes.push({ ok: false, error: new Feedback('soldOut') });
        continue;
      }
      try {
        outcomes.push({ ok: true, value: await addAlone(add) });
      } catch (error) {
        if (error instanceof Feedback && error.status === 'soldOut') {
          soldOutFrom = Math.min(soldOutFrom, add.input.quantity);
        }
        outcomes.push({ ok: false, error });
      }
    }
    return outcomes;
  }

  /** Batches of several adds committed together since the node started (tests, diagnosis). */
  const batchesTogether = { batches: 0, adds: 0, largest: 0 };

  /** Adds of one product or variant (its stock row) queue behind the batch running for it. */
  const addBatches = createGroupCommit({
    run: addBatch,
    maxBatch: MAX_ADDS_PER_BATCH,
    // One shopper's adds never share a batch: each sees the cart the one before left.
    conflict: cartKeyOf,
  });

  async function addSingle(
    userUid: string,
    input: AddSingleRequest,
    address: string,
    /** Flash deals hook (issue 30 §3): the feature that checked the deal hands its prices over. */
    deal?: { prices: Product['prices'] },
  ): Promise<CartUpdateResponse> {
    await limits.enforce('cartChange', { userUid, address });
    const { pageUid, campaignUid } = input;
    // What the add reads before its transaction, from this node's cache when its store's and its
    // shopper's read versions have not moved since it was read (one statement instead of nine).
    const pageScope = `page:${pageUid}` as const;
    const view = await reads.view([pageScope, `user:${userUid}`]);
    const [campaign, [product], inCampaign] = await Promise.all([
      campaignInfo(pageUid, campaignUid, view),
      view.get(pageScope, `product:${input.productUid}`, () => catalog.productsByUid([input.productUid])),
      view.get(pageScope, `line-up:${campaignUid}:${input.productUid}`, () =>
        isProductInCampaign(db, campaignUid, input.productUid),
      ),
    ]);
    const productFound = product !== undefined && product.pageUid === pageUid && inCampaign;
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
    // The cached product's stock is as old as its last catalogue change (stock moves leave the read
    // version alone). So a cached "none left" is read again (a restock must not answer sold out),
    // and so is a product this node saw sell out since, whose cached stock still shows units:
    // otherwise each late buyer of a flash sale would run a whole transaction to learn it.
    const cachedFree = variant ? variant.stock : product.stock;
    const stockKey = `${product.uid}\u0000${input.variantUid ?? ''}`;
    if (
      ((cachedFree !== null && cachedFree < input.quantity) || soldOutSeen.has(stockKey)) &&
      (await isShort(product.uid, input.variantUid, input.quantity, stockKey)) &&
      (await releaseExpired({ productUid: product.uid, variantUid: input.variantUid })) === 0
    ) {
      return feedback('soldOut', pageUid, campaignUid, userUid);
    }
    const [saved, { maxUnitsPerShopper }, offer] = await Promise.all([
      preferences(pageUid, userUid, view),
      view.get(pageScope, 'integrity', () => deps.stores.integritySettings(pageUid)),
      view.get(pageScope, 'delivery', () => readDeliveryOffer(db, pageUid)),
    ]);
    // Currency shown = currency charged (domain currency-rules): a new cart takes the currency the
    // product was shown in; an open cart in another one follows the shopper's, when it can.
    const shown = input.currency ?? saved.currency;
    const prefs = {
      ...saved,
      currency:
        cartCurrency([deal?.prices ?? priceListOf(product, input.variantUid)], shown, saved.storeCurrency) ??
        saved.currency,
    };
    if (input.currency !== undefined)
      await followShownCurrency(userUid, input, product, shown, saved.storeCurrency);

    let doc: CheckoutReservationDoc;
    try {
      doc = await addBatches.submit(stockKey, {
        userUid,
        input,
        deadline: campaign.deadline,
        product,
        variant,
        prefs,
        maxUnitsPerShopper,
        offer,
        ...(deal ? { dealPrices: deal.prices } : {}),
      });
    } catch (error) {
      if (error instanceof Feedback) {
        if (error.status === 'soldOut') sawSoldOut(stockKey);
        return feedback(error.status, pageUid, campaignUid, userUid);
      }
      throw error;
    }
    stockChanged([product.uid]);
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
          const line = await findLine(tx, {
            checkoutUid: checkout.uid,
            productUid: input.productUid,
            variantKey: variantKey(input.variantUid),
          });
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
          if (delta < 0) await refuseWhilePaying(tx, checkout);
          const item: Omit<StockItem, 'qty'> = {
            productUid: line.product_uid,
            variantUid: variantOfKey(line.variant_uid),
          };
          if (delta > 0) {
            await enforceUnitsPerShopper(tx, checkout, line.product_uid, delta, maxUnitsPerShopper);
          }
          const lineKey = {
            checkoutUid: checkout.uid,
            productUid: line.product_uid,
            variantKey: line.variant_uid,
          };
          if (input.quantity === 0) await deleteLines(tx, checkout.uid, lineKey);
          else await setLineQuantity(tx, lineKey, input.quantity);
          if (delta < 0) await refuseRemovingPaid(tx, checkout);
          const touched = await renewHolds(tx, checkout);
          const status: CartFeedbackStatus = input.quantity === 0 ? 'removed' : 'updated';
          const doc = await storeReservationDoc(tx, checkout.uid, touched);
          // The product row last, as in addSingle: locked from here to COMMIT only.
          if (delta > 0 && !(await reserveStock(tx, { ...item, qty: delta }))) throw new Feedback('soldOut');
          if (delta < 0) await releaseStock(tx, [{ ...item, qty: -delta }]);
          return { status, doc };
        }),
      );
    } catch (error) {
      if (error instanceof Feedback) return feedback(error.status, input.pageUid, input.campaignUid, userUid);
      throw error;
    }
    stockChanged([input.productUid]);
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
        await refuseWhilePaying(tx, checkout);
        if (input.productUid === undefined) {
          // Emptying the whole order would give back what was paid: the shop refunds that.
          if ((await paidSoFar(tx, checkout)) > 0) {
            throw new HttpError(
              409,
              'order_paid',
              'This order has been paid; contact the store to remove products from it.',
            );
          }
          const lines = await deleteLines(tx, checkout.uid);
          await releaseStock(tx, lines.map(stockItemOf));
          // Nothing was received (checked above). A checkout without payment attempts goes
          // entirely; one with attempts stays (empty), so a provider's late confirmation still
          // finds its transaction and the shop can refund it.
          if (await hasPaymentAttempt(tx, checkout.uid)) {
            await renewHolds(tx, checkout);
            return { doc: await storeReservationDoc(tx, checkout.uid), lines };
          }
          await deleteCheckout(tx, checkout.uid);
          const doc = emptyReservationDoc(pageUid, campaignUid, userUid);
          await saveReservationDoc(tx, doc);
          return { doc, lines };
        }
        const lines = await deleteLines(tx, checkout.uid, {
          productUid: input.productUid,
          variantKey: variantKey(input.variantUid),
        });
        await refuseRemovingPaid(tx, checkout);
        await releaseStock(tx, lines.map(stockItemOf));
        await renewHolds(tx, checkout);
        return { doc: await storeReservationDoc(tx, checkout.uid), lines };
      }),
    );
    stockChanged(result.lines.map((line) => line.product_uid));
    return feedback('removed', pageUid, campaignUid, userUid, result.doc);
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

  /** The reservation calls' checks: the caller's own reservation, of a campaign of the store. */
  async function requireOwnReservation(userUid: string, input: LoadUserReservationRequest): Promise<void> {
    requireSelf(userUid, input.user);
    await campaignInfo(input.pageUid, input.campaign);
  }

  async function loadUserReservation(
    userUid: string,
    input: LoadUserReservationRequest,
  ): Promise<UserReservation> {
    await requireOwnReservation(userUid, input);
    return userReservation(userUid, input.pageUid, input.campaign);
  }

  /** Saves language, currency and the presentation flag; a new currency reprices an open cart. */
  async function saveUserReservation(
    userUid: string,
    input: SaveUserReservationRequest,
  ): Promise<UserReservation> {
    await requireOwnReservation(userUid, input);
    await saveShopperChoices(
      db,
      input.pageUid,
      userUid,
      {
        language: input.language ?? null,
        currency: input.currency ?? null,
        showCheckoutPresentation: input.showCheckoutPresentation ?? null,
      },
      now(),
    );
    // The checkout's language (its payment page's) follows the shopper's, so the journey keeps one language.
    if (input.language !== undefined) {
      await setCheckoutLanguage(
        db,
        { pageUid: input.pageUid, campaignUid: input.campaign, userUid },
        input.language,
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
    const lineProducts = await readLines(db, checkoutUid);
    const products = new Map(
      (await catalog.productsByUid(lineProducts.map((line) => line.product_uid))).map((p) => [p.uid, p]),
    );
    await withRetry(() =>
      db.transaction(async (tx) => {
        const checkout = await lockOwnCheckout(tx, { pageUid, campaignUid, checkoutUid }, userUid);
        if (checkout.status !== 'open' || checkout.currency === currency) return null;
        const lines = await readLines(tx, checkout.uid);
        const prices = lines.map((line) => {
          const product = products.get(line.product_uid);
          return product ? unitPrice(product, variantOfKey(line.variant_uid), currency) : undefined;
        });
        if (prices.some((price) => price === undefined)) return null;
        for (const [index, line] of lines.entries()) {
          const price = prices[index];
          if (price === undefined) continue;
          await setLinePrice(
            tx,
            { checkoutUid: line.checkout_uid, productUid: line.product_uid, variantKey: line.variant_uid },
            price,
          );
        }
        await setCheckoutCurrency(tx, checkout.uid, currency, now());
        return storeReservationDoc(tx, checkout.uid);
      }),
    );
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
    const lines = await readLines(db, checkoutUid);
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
        const checkout = await ownCheckout(
          tx,
          { pageUid: input.pageUid, campaignUid: input.campaignUid, checkoutUid },
          userUid,
          true,
        );
        if (checkout?.status !== 'open') return null;
        // Renewed like any activity (renewHolds), so never past a line's maximum age.
        const renewed = await extendLineHolds(
          tx,
          checkout.uid,
          now() + CART_RESERVATION_HOLD_MS,
          CART_RESERVATION_MAX_AGE_MS,
        );
        if (renewed.length === 0) return null;
        return { renewed, doc: await storeReservationDoc(tx, checkout.uid) };
      }),
    );
    if (!result) return { reservedUntil: null };
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
    /** Batches of several adds of one product that committed together (group commit), and their adds. */
    batchesTogether: () => ({ ...batchesTogether }),

    /**
     * Flash deals hook (issue 30 §3): the units of a product (or variant) each of these carts still
     * holds at a given unit price (0 for a line gone: timed out, removed), read in `q` (the deal's
     * transaction), and which of the carts became orders.
     */
    async heldAtPrice(
      q: Queryable,
      holds: readonly { checkoutUid: string; unitPrice: number }[],
      productUid: string,
      variantUid: string | null,
    ): Promise<{ held: Map<string, number>; ordered: Set<string> }> {
      if (holds.length === 0) return { held: new Map(), ordered: new Set() };
      const rows = await q.query<{ uid: string; status: string; qty: number | null }>(
        `SELECT c.uid, c.status, l.qty
         FROM unnest($1::text[], $2::bigint[]) AS h(checkout_uid, unit_price)
         JOIN checkouts c ON c.uid = h.checkout_uid
         LEFT JOIN checkout_lines l ON l.checkout_uid = h.checkout_uid AND l.product_uid = $3
           AND l.variant_uid = $4 AND l.unit_price = h.unit_price`,
        [
          holds.map((hold) => hold.checkoutUid),
          holds.map((hold) => hold.unitPrice),
          productUid,
          variantKey(variantUid),
        ],
      );
      return {
        held: new Map(rows.map((row) => [row.uid, row.qty ?? 0])),
        ordered: new Set(rows.filter((row) => row.status !== 'open').map((row) => row.uid)),
      };
    },
  };
}

function stockItemOf(line: LineRow): StockItem {
  return { productUid: line.product_uid, variantUid: variantOfKey(line.variant_uid), qty: line.qty };
}

export type CartService = ReturnType<typeof createCartService>;
