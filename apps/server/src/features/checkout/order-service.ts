import { randomBytes } from 'node:crypto';
import { checkoutProblems, confirmationFits } from '@vitrine/domain';
import {
  CHECKOUT_ERROR_CODES,
  CHECKOUT_PROBLEM_MESSAGES,
  type CheckoutDetails,
  type CheckoutOptions,
  type CheckoutProblem,
  type CheckoutView,
  type FindParcelShopsRequest,
  type FindParcelShopsResponse,
  type PickupLocation,
  type PurchaseDoc,
} from '@vitrine/protocol';
import type { Queryable } from '../../db/database.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import type { OutboxDatabase, Transaction } from '../../realtime/outbox.ts';
import type { EventService } from '../events/event-service.ts';
import { deliveryTerms, type StoreService } from '../stores/store-service.ts';
import type { UserService } from '../users/user-service.ts';
import {
  checkoutDetails,
  completeCheckoutDetails,
  lockOwnCheckout,
  storeReservationDoc,
  withRetry,
} from './checkout-records.ts';
import {
  type CheckoutRow,
  checkoutPageUid,
  insertPurchase,
  lockCheckout,
  lockedCheckout,
  markLocked,
  markOrdered,
  openPayment,
  ownCheckout,
  readLines,
  saveCheckoutDetails,
} from './checkout-store.ts';
import { checkoutTotals, checkoutView, refreshPayed } from './checkout-totals.ts';
import { checkoutTopics } from './live-queries.ts';
import { orderRefusalError } from './order-refusal.ts';
import {
  deliveryCountries,
  findParcelShops,
  isKnownParcelShop,
  pickupLocations,
  shippingMethods,
} from './shipping.ts';

export interface CheckoutRef {
  pageUid: string;
  campaignUid: string;
  checkoutUid: string;
}

/**
 * Checkout details, placing orders and sending them to packing (spec §3 "Order", §4 "Orders and
 * payment"). An order is a checkout with an order number; its lines stop expiring. It may still
 * change until it is sent to packing, which locks it against changes and payments.
 */
export function createOrderService(deps: {
  db: OutboxDatabase;
  stores: StoreService;
  now: () => number;
  /** The order deadline of a checkout's campaign. */
  events: Pick<EventService, 'campaign'>;
  /** The buyer's name shown on purchases. */
  users: Pick<UserService, 'displayName'>;
}) {
  const { db, stores, now, events, users } = deps;

  async function deadlineOf(q: Queryable, campaignUid: string): Promise<number | null> {
    return (await events.campaign(campaignUid, q))?.deadline ?? null;
  }

  /** The store's pickup locations; read before a transaction (PGlite runs one connection, held by it). */
  async function locationsOf(pageUid: string): Promise<PickupLocation[]> {
    return pickupLocations(await stores.pickupStores(pageUid));
  }

  /** Problems of the details beyond the form rules: a pickup location or parcel shop that does not exist. */
  function choiceProblems(details: CheckoutDetails, locations: readonly PickupLocation[]): CheckoutProblem[] {
    if (details.shippingMethod === 'store_pickup' && details.pickupLocationUid !== null) {
      if (!locations.some((location) => location.uid === details.pickupLocationUid)) return ['noPickupPoint'];
    }
    if (
      details.shippingMethod === 'parcel_shop' &&
      details.parcelShopId !== null &&
      !isKnownParcelShop(details.parcelShopId, details.deliveryCountry)
    ) {
      return ['noPickupPoint'];
    }
    return [];
  }

  async function view(checkout: CheckoutRow, locations: readonly PickupLocation[], tx: Queryable = db) {
    const problems = choiceProblems(checkoutDetails(checkout), locations);
    return checkoutView(tx, checkout, await deadlineOf(tx, checkout.campaign_uid), now(), problems);
  }

  async function readOwnCheckout(userUid: string, ref: CheckoutRef): Promise<CheckoutRow> {
    const row = await ownCheckout(db, ref, userUid, false);
    if (!row) throw notFound(`No checkout "${ref.checkoutUid}" of yours in this campaign.`);
    return row;
  }

  /**
   * Makes a locked checkout an order, or re-checks an order: refused once locked, past the
   * deadline, when empty, or while details are missing (422 listing the §5 state messages).
   * Stages the purchases for the show's viewers when it was newly ordered.
   */
  async function placeInTransaction(
    tx: Transaction,
    checkout: CheckoutRow,
    locations: readonly PickupLocation[],
  ): Promise<void> {
    const refusal = orderRefusalError(
      checkout.status,
      await deadlineOf(tx, checkout.campaign_uid),
      now(),
      'order',
    );
    if (refusal) throw refusal;
    const lines = await readLines(tx, checkout.uid);
    if (lines.length === 0) {
      throw new HttpError(
        409,
        CHECKOUT_ERROR_CODES.emptyCart,
        'The cart is empty: add products before ordering.',
      );
    }
    const details = checkoutDetails(checkout);
    const problems = [...new Set([...checkoutProblems(details), ...choiceProblems(details, locations)])];
    if (problems.length > 0) {
      throw new HttpError(
        422,
        CHECKOUT_ERROR_CODES.checkoutIncomplete,
        problems.map((problem) => CHECKOUT_PROBLEM_MESSAGES[problem]).join(' '),
      );
    }
    if (checkout.status !== 'open') return;
    const at = now();
    await markOrdered(tx, checkout.uid, at);
    const accountName = await users.displayName(checkout.user_uid, tx);
    // Viewers see "<first name> bought …": never a full name or address.
    const buyerName = (accountName || details.address.name).trim().split(/\s+/)[0] ?? '';
    const purchases: PurchaseDoc[] = [];
    for (const line of lines) {
      const purchase: PurchaseDoc = {
        uid: randomBytes(12).toString('base64url'),
        pageUid: checkout.page_uid,
        campaignUid: checkout.campaign_uid,
        productUid: line.product_uid,
        buyerName,
        time: at,
      };
      await insertPurchase(tx, purchase);
      purchases.push(purchase);
    }
    tx.publish(
      checkoutTopics.purchases(checkout.page_uid, checkout.campaign_uid),
      purchases.map((doc) => ({ type: 'added', docId: doc.uid, doc })),
    );
  }

  /**
   * A payment under way is for the total when it started: cheaper delivery chosen meanwhile would
   * leave the shopper paying more than the order then owes (and the payment refused as owed back).
   */
  async function refuseShrinkingUnderOpenPayment(tx: Queryable, checkout: CheckoutRow): Promise<void> {
    const open = await openPayment(tx, checkout.uid);
    if (!open) return;
    if (!confirmationFits(open.total_price, (await checkoutTotals(tx, checkout)).remainingAmount)) {
      throw new HttpError(
        409,
        CHECKOUT_ERROR_CODES.paymentOpen,
        'A payment for this order is under way: complete or cancel it on the payment page before choosing cheaper delivery.',
      );
    }
  }

  return {
    placeInTransaction,

    locationsOf,

    async loadCheckout(userUid: string, ref: CheckoutRef): Promise<CheckoutView> {
      const checkout = await readOwnCheckout(userUid, ref);
      return view(checkout, await locationsOf(checkout.page_uid));
    },

    async checkoutOptions(userUid: string, ref: CheckoutRef): Promise<CheckoutOptions> {
      const checkout = await readOwnCheckout(userUid, ref);
      return {
        countries: deliveryCountries(),
        shippingMethods: shippingMethods(
          checkout.currency,
          await deliveryTerms(db, checkout.page_uid, checkout.currency),
        ),
        paymentMethods: ['test_card'],
        pickupLocations: await locationsOf(checkout.page_uid),
      };
    },

    async findParcelShops(userUid: string, input: FindParcelShopsRequest): Promise<FindParcelShopsResponse> {
      await readOwnCheckout(userUid, input);
      return { parcelShops: findParcelShops(input) };
    },

    async updateDetails(userUid: string, ref: CheckoutRef, details: CheckoutDetails): Promise<CheckoutView> {
      const locations = await locationsOf(ref.pageUid);
      return withRetry(() =>
        db.transaction(async (tx) => {
          const checkout = await lockOwnCheckout(tx, ref, userUid);
          const refusal = orderRefusalError(checkout.status, null, now(), 'editDetails');
          if (refusal) throw refusal;
          const { freight } = await deliveryTerms(tx, checkout.page_uid, checkout.currency);
          if (details.shippingMethod !== null && freight[details.shippingMethod] === undefined) {
            throw new HttpError(
              400,
              'shippingMethodNotOffered',
              `The store does not offer ${details.shippingMethod} in ${checkout.currency}.`,
            );
          }
          // The completed record of spec §3: derived fields from what the shopper typed.
          await saveCheckoutDetails(tx, checkout.uid, completeCheckoutDetails(details), now());
          await refuseShrinkingUnderOpenPayment(tx, await lockedCheckout(tx, checkout.uid));
          // The freight may have changed the total an earlier payment covered.
          await refreshPayed(tx, await lockedCheckout(tx, checkout.uid));
          await storeReservationDoc(tx, checkout.uid);
          return view(await lockedCheckout(tx, checkout.uid), locations, tx);
        }),
      );
    },

    async placeOrder(userUid: string, ref: CheckoutRef): Promise<CheckoutView> {
      const locations = await locationsOf(ref.pageUid);
      return withRetry(() =>
        db.transaction(async (tx) => {
          const checkout = await lockOwnCheckout(tx, ref, userUid);
          await placeInTransaction(tx, checkout, locations);
          await refreshPayed(tx, await lockedCheckout(tx, checkout.uid));
          await storeReservationDoc(tx, checkout.uid);
          return view(await lockedCheckout(tx, checkout.uid), locations, tx);
        }),
      );
    },

    /** The studio's "send to packing": the order goes to packing and is locked against changes and payments (spec §4). */
    async sendToPacking(checkoutUid: string): Promise<CheckoutView> {
      const pageUid = await checkoutPageUid(db, checkoutUid);
      if (!pageUid) throw notFound(`No checkout "${checkoutUid}".`);
      const locations = await locationsOf(pageUid);
      return withRetry(() =>
        db.transaction(async (tx) => {
          const checkout = await lockCheckout(tx, checkoutUid);
          if (!checkout) throw notFound(`No checkout "${checkoutUid}".`);
          if (checkout.status === 'open') {
            throw new HttpError(409, 'not_ordered', 'Only placed orders can be sent to packing.');
          }
          if (checkout.status === 'ordered') {
            await markLocked(tx, checkoutUid, now());
          }
          await storeReservationDoc(tx, checkoutUid);
          return view(await lockedCheckout(tx, checkoutUid), locations, tx);
        }),
      );
    },
  };
}

export type OrderService = ReturnType<typeof createOrderService>;
