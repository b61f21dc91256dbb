import { randomBytes } from 'node:crypto';
import {
  FLASH_DEAL_ENDED_MESSAGE,
  flashDealOverForAll,
  flashDealProblems,
  flashDealVerdict,
  plausibleStreamPosition,
} from '@vitrine/domain';
import {
  type CartUpdateResponse,
  type CreateFlashDealRequest,
  FLASH_DEAL_ERROR_CODES,
  type FlashDealAddRequest,
  type FlashDealAdminView,
  type FlashDealPresentation,
  type FlashDealStatus,
  type LiveEvent,
  type PriceList,
  type Product,
} from '@vitrine/protocol';
import type { Queryable } from '../../db/database.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import type { OutboxDatabase, Transaction } from '../../realtime/outbox.ts';
import type { CatalogService } from '../catalog/catalog-service.ts';
import type { CartService } from '../checkout/cart-service.ts';
import { isProductInCampaign } from '../events/campaign-products.ts';
import type { EventService } from '../events/event-service.ts';

export const DEAL_NOT_STARTED_MESSAGE = 'This deal has not started yet.';
export const DEAL_SOLD_OUT_MESSAGE = 'This deal is sold out.';
export const dealLimitMessage = (max: number) => `This deal is limited to ${max} per customer.`;
export const SHOW_NOT_LIVE_MESSAGE = 'A flash deal starts only while the show is live.';

/** How far back the viewer's last reported delay counts (the player reports it every 30 s). */
const DELAY_REPORT_MAX_AGE_MS = 2 * 60_000;

interface DealRow {
  uid: string;
  page_uid: string;
  campaign_uid: string;
  event_uid: string;
  product_uid: string;
  variant_uid: string | null;
  product_name: string;
  prices: PriceList;
  regular_prices: PriceList;
  countdown_sec: number;
  duration_sec: number;
  total_units: number;
  per_shopper_limit: number;
  units_taken: number;
  started_at: string | number | null;
  ended_at: string | number | null;
  created_at: string | number;
}

const numberOrNull = (value: string | number | null) => (value === null ? null : Number(value));

interface ClaimRow {
  deal_uid: string;
  user_uid: string;
  qty: number;
  adds: number;
  pending: number;
  checkout_uid: string | null;
  currency: string | null;
  unit_price: string | number | null;
}

/** The carts claims went to, with the deal price they hold there. */
const holdsOf = (claims: readonly ClaimRow[]) =>
  claims.flatMap((claim) =>
    claim.checkout_uid === null || claim.unit_price === null
      ? []
      : [{ checkoutUid: claim.checkout_uid, unitPrice: Number(claim.unit_price) }],
  );

function stampsOf(row: DealRow) {
  return {
    startedAt: numberOrNull(row.started_at),
    endedAt: numberOrNull(row.ended_at),
    countdownSec: row.countdown_sec,
    durationSec: row.duration_sec,
  };
}

function presentationOf(row: DealRow): FlashDealPresentation {
  const { startedAt, endedAt } = stampsOf(row);
  const unitsLeft = Math.max(0, row.total_units - row.units_taken);
  return {
    uid: row.uid,
    productUid: row.product_uid,
    variantUid: row.variant_uid,
    prices: row.prices,
    regularPrices: row.regular_prices,
    countdownSec: row.countdown_sec,
    durationSec: row.duration_sec,
    startedAt,
    endedAt,
    totalUnits: row.total_units,
    perShopperLimit: row.per_shopper_limit,
    unitsLeft,
    soldOut: unitsLeft === 0,
  };
}

/** The regular prices of a product or variant; a variant's own prices win. */
function regularPricesOf(product: Product, variantUid: string | null): PriceList {
  const variant = variantUid ? product.variants.find((candidate) => candidate.uid === variantUid) : undefined;
  return { ...product.prices, ...variant?.prices };
}

/**
 * Flash deals (issue 30 §3): the host prepares deals for a show's products, starts one from the
 * control room (stamped now, like a cue) or ends it early; viewers get them in the campaign
 * presentation document (sold out at once). An add at the deal price goes through the cart (its
 * stock, holds and per-shopper cap) after the deal's own units and per-shopper limit are claimed
 * by a conditional UPDATE, so the deal is never oversold.
 */
export function createFlashDealService(deps: {
  db: OutboxDatabase;
  now: () => number;
  catalog: Pick<CatalogService, 'productsByUid'>;
  events: Pick<EventService, 'eventsByIds' | 'presentFlashDeals'>;
  cart: Pick<CartService, 'addSingle' | 'heldAtPrice'>;
  /** The delay the viewer's player last reported for the show (ms), null when none recently. */
  reportedDelayMs: (input: {
    pageUid: string;
    campaignUid: string;
    userUid: string;
    since: number;
  }) => Promise<number | null>;
}) {
  const { db, now, catalog, events, cart } = deps;

  async function rowsOf(q: Queryable, pageUid: string, campaignUid: string): Promise<DealRow[]> {
    return q.query<DealRow>(
      'SELECT * FROM flash_deals WHERE page_uid = $1 AND campaign_uid = $2 ORDER BY created_at, uid',
      [pageUid, campaignUid],
    );
  }

  async function requireDeal(q: Queryable, pageUid: string, campaignUid: string, uid: string) {
    const [row] = await q.query<DealRow>(
      'SELECT * FROM flash_deals WHERE uid = $1 AND page_uid = $2 AND campaign_uid = $3',
      [uid, pageUid, campaignUid],
    );
    if (!row) throw notFound(`No flash deal "${uid}" in this show.`);
    return row;
  }

  async function liveEvent(eventUid: string): Promise<LiveEvent> {
    const [event] = await events.eventsByIds([eventUid]);
    if (!event) throw notFound(`No show "${eventUid}".`);
    return event;
  }

  function statusOf(row: DealRow, event: LiveEvent | undefined, at: number): FlashDealStatus {
    const stamps = stampsOf(row);
    if (stamps.startedAt === null) return stamps.endedAt === null ? 'prepared' : 'ended';
    if (stamps.endedAt !== null) return 'ended';
    return event && flashDealOverForAll(stamps, event, at) ? 'ended' : 'started';
  }

  /** Every deal of the campaign as the studio sees it, with its figures. */
  async function adminViews(
    q: Queryable,
    pageUid: string,
    campaignUid: string,
  ): Promise<FlashDealAdminView[]> {
    const rows = await rowsOf(q, pageUid, campaignUid);
    if (rows.length === 0) return [];
    const uids = rows.map((row) => row.uid);
    const [viewCounts, claims, eventList] = await Promise.all([
      q.query<{ deal_uid: string; views: number }>(
        'SELECT deal_uid, count(*)::int AS views FROM flash_deal_views WHERE deal_uid = ANY($1) GROUP BY deal_uid',
        [uids],
      ),
      q.query<ClaimRow>('SELECT * FROM flash_deal_claims WHERE deal_uid = ANY($1)', [uids]),
      events.eventsByIds([...new Set(rows.map((row) => row.event_uid))]),
    ]);
    const at = now();
    const views: FlashDealAdminView[] = [];
    for (const row of rows) {
      const mine = claims.filter((claim) => claim.deal_uid === row.uid);
      // Which of its shoppers' carts became orders: the checkout feature knows.
      const { ordered: orderedCarts } = await cart.heldAtPrice(
        q,
        holdsOf(mine),
        row.product_uid,
        row.variant_uid,
      );
      const ordered = mine.filter(
        (claim) => claim.checkout_uid !== null && orderedCarts.has(claim.checkout_uid) && claim.qty > 0,
      );
      const revenue = new Map<string, number>();
      for (const claim of ordered) {
        if (claim.currency === null || claim.unit_price === null) continue;
        revenue.set(
          claim.currency,
          (revenue.get(claim.currency) ?? 0) + claim.qty * Number(claim.unit_price),
        );
      }
      views.push({
        ...presentationOf(row),
        status: statusOf(
          row,
          eventList.find((event) => event.id === row.event_uid),
          at,
        ),
        productName: row.product_name,
        createdAt: Number(row.created_at),
        stats: {
          views: viewCounts.find((view) => view.deal_uid === row.uid)?.views ?? 0,
          adds: mine.reduce((sum, claim) => sum + claim.adds, 0),
          units: mine.reduce((sum, claim) => sum + claim.qty, 0),
          orders: ordered.length,
          revenue: [...revenue].map(([currency, amount]) => ({
            currency: currency as FlashDealAdminView['stats']['revenue'][number]['currency'],
            amount,
          })),
        },
      });
    }
    return views;
  }

  /** Writes the campaign's deals into its presentation document (announced at commit). */
  async function publish(tx: Transaction, pageUid: string, campaignUid: string): Promise<void> {
    const rows = await rowsOf(tx, pageUid, campaignUid);
    await events.presentFlashDeals(tx, pageUid, campaignUid, rows.map(presentationOf));
  }

  async function viewOf(pageUid: string, campaignUid: string, uid: string): Promise<FlashDealAdminView> {
    const views = await adminViews(db, pageUid, campaignUid);
    const view = views.find((candidate) => candidate.uid === uid);
    if (!view) throw notFound(`No flash deal "${uid}" in this show.`);
    return view;
  }

  /** Gives back units claimed for an add the cart then refused. */
  async function releaseClaim(
    dealUid: string,
    userUid: string,
    quantity: number,
    page: string,
    campaign: string,
  ) {
    await db.transaction(async (tx) => {
      await tx.query('UPDATE flash_deals SET units_taken = GREATEST(0, units_taken - $2) WHERE uid = $1', [
        dealUid,
        quantity,
      ]);
      await tx.query(
        `UPDATE flash_deal_claims SET qty = GREATEST(0, qty - $3), adds = GREATEST(0, adds - 1),
           pending = GREATEST(0, pending - 1)
         WHERE deal_uid = $1 AND user_uid = $2`,
        [dealUid, userUid, quantity],
      );
      await publish(tx, page, campaign);
    });
  }

  /**
   * When each deal's unheld units were last looked for on this node: at most once a second, so a
   * sold-out deal's many late shoppers do not each run the search.
   */
  const lastRelease = new Map<string, number>();
  function releaseDue(dealUid: string): boolean {
    const at = now();
    if (at - (lastRelease.get(dealUid) ?? Number.NEGATIVE_INFINITY) < 1000) return false;
    if (lastRelease.size > 1000) lastRelease.clear();
    lastRelease.set(dealUid, at);
    return true;
  }

  /**
   * Gives back the deal units no cart holds any more (a cart that timed out, a line removed or
   * lowered, a cancelled reservation): held like any stock, so they go to the next shopper. A claim
   * still being added (no checkout yet) is left alone. Answers how many units came back.
   */
  async function releaseUnheld(row: DealRow): Promise<number> {
    return db.transaction(async (tx) => {
      // The deal's row first: claims and releases of one deal take turns.
      await tx.query('SELECT uid FROM flash_deals WHERE uid = $1 FOR UPDATE', [row.uid]);
      const claims = await tx.query<ClaimRow>(
        `SELECT * FROM flash_deal_claims
         WHERE deal_uid = $1 AND checkout_uid IS NOT NULL AND unit_price IS NOT NULL AND pending = 0 AND qty > 0`,
        [row.uid],
      );
      // What their carts still hold at the deal price: the checkout feature knows.
      const { held } = await cart.heldAtPrice(tx, holdsOf(claims), row.product_uid, row.variant_uid);
      const unheld = claims.flatMap((claim) => {
        const gone = claim.qty - Math.min(claim.qty, held.get(claim.checkout_uid ?? '') ?? 0);
        return gone > 0 ? [{ user_uid: claim.user_uid, gone }] : [];
      });
      const released = unheld.reduce((sum, claim) => sum + claim.gone, 0);
      if (released === 0) return 0;
      for (const claim of unheld) {
        await tx.query('UPDATE flash_deal_claims SET qty = qty - $3 WHERE deal_uid = $1 AND user_uid = $2', [
          row.uid,
          claim.user_uid,
          claim.gone,
        ]);
      }
      await tx.query('UPDATE flash_deals SET units_taken = GREATEST(0, units_taken - $2) WHERE uid = $1', [
        row.uid,
        released,
      ]);
      await publish(tx, row.page_uid, row.campaign_uid);
      return released;
    });
  }

  /** Claims `quantity` deal units for the shopper (never past the total or her limit), or throws the refusal. */
  async function claim(row: DealRow, userUid: string, quantity: number): Promise<void> {
    await db.transaction(async (tx) => {
      const taken = await tx.query(
        `UPDATE flash_deals SET units_taken = units_taken + $2
         WHERE uid = $1 AND units_taken + $2 <= total_units RETURNING uid`,
        [row.uid, quantity],
      );
      if (taken.length === 0) throw new HttpError(409, FLASH_DEAL_ERROR_CODES.soldOut, DEAL_SOLD_OUT_MESSAGE);
      const claimed = await tx.query(
        `INSERT INTO flash_deal_claims AS c (deal_uid, user_uid, qty, adds, pending) VALUES ($1, $2, $3, 1, 1)
         ON CONFLICT (deal_uid, user_uid) DO UPDATE SET qty = c.qty + EXCLUDED.qty, adds = c.adds + 1,
           pending = c.pending + 1
         WHERE c.qty + EXCLUDED.qty <= $4
         RETURNING qty`,
        [row.uid, userUid, quantity, row.per_shopper_limit],
      );
      if (claimed.length === 0 || quantity > row.per_shopper_limit) {
        throw new HttpError(409, FLASH_DEAL_ERROR_CODES.limit, dealLimitMessage(row.per_shopper_limit), {
          perShopperLimit: row.per_shopper_limit,
        });
      }
      // Sold out shows at once: every claim republishes the units left.
      await publish(tx, row.page_uid, row.campaign_uid);
    });
  }

  return {
    list: (pageUid: string, campaignUid: string) => adminViews(db, pageUid, campaignUid),

    /** Prepares a deal for a product (or variant) of the show; 400 for invalid terms, 422 for a product not in it. */
    async create(
      pageUid: string,
      campaignUid: string,
      eventUid: string,
      input: CreateFlashDealRequest,
    ): Promise<FlashDealAdminView> {
      const [product] = await catalog.productsByUid([input.productUid]);
      if (
        !product ||
        product.pageUid !== pageUid ||
        !(await isProductInCampaign(db, campaignUid, product.uid))
      ) {
        throw new HttpError(422, 'not_in_show', `Product "${input.productUid}" is not in this show.`);
      }
      if (
        input.variantUid !== null &&
        !product.variants.some((variant) => variant.uid === input.variantUid)
      ) {
        throw new HttpError(
          422,
          'not_in_show',
          `Product "${input.productUid}" has no variant "${input.variantUid}".`,
        );
      }
      if (input.variantUid === null && product.variants.length > 0) {
        throw new HttpError(400, 'invalid_request', 'variantUid: this product has variants: choose one');
      }
      const regularPrices = regularPricesOf(product, input.variantUid);
      const problems = flashDealProblems(
        { ...input, prices: input.prices as Record<string, number> },
        regularPrices,
      );
      if (problems.length > 0) {
        throw new HttpError(
          400,
          'invalid_request',
          problems.map((problem) => `${problem.field}: ${problem.message}`).join('; '),
        );
      }
      const uid = randomBytes(12).toString('base64url');
      await db.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO flash_deals (uid, page_uid, campaign_uid, event_uid, product_uid, variant_uid, product_name,
             prices, regular_prices, countdown_sec, duration_sec, total_units, per_shopper_limit, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
          [
            uid,
            pageUid,
            campaignUid,
            eventUid,
            product.uid,
            input.variantUid,
            product.name,
            JSON.stringify(input.prices),
            JSON.stringify(regularPrices),
            input.countdownSec,
            input.durationSec,
            input.totalUnits,
            input.perShopperLimit,
            now(),
          ],
        );
        await publish(tx, pageUid, campaignUid);
      });
      return viewOf(pageUid, campaignUid, uid);
    },

    /** Starts a prepared deal, stamped now on the stream clock; only while the show is live, once. */
    async start(pageUid: string, campaignUid: string, uid: string): Promise<FlashDealAdminView> {
      const row = await requireDeal(db, pageUid, campaignUid, uid);
      const event = await liveEvent(row.event_uid);
      if (event.event.currentStatus !== 'live') throw new HttpError(409, 'not_live', SHOW_NOT_LIVE_MESSAGE);
      await db.transaction(async (tx) => {
        const started = await tx.query(
          'UPDATE flash_deals SET started_at = $2 WHERE uid = $1 AND started_at IS NULL AND ended_at IS NULL RETURNING uid',
          [uid, now()],
        );
        if (started.length === 0) throw new HttpError(409, 'conflict', 'This deal was started already.');
        await publish(tx, pageUid, campaignUid);
      });
      return viewOf(pageUid, campaignUid, uid);
    },

    /** Ends a deal early, stamped now (a prepared one is withdrawn). Ending an ended deal changes nothing. */
    async end(pageUid: string, campaignUid: string, uid: string): Promise<FlashDealAdminView> {
      await requireDeal(db, pageUid, campaignUid, uid);
      await db.transaction(async (tx) => {
        await tx.query('UPDATE flash_deals SET ended_at = $2 WHERE uid = $1 AND ended_at IS NULL', [
          uid,
          now(),
        ]);
        await publish(tx, pageUid, campaignUid);
      });
      return viewOf(pageUid, campaignUid, uid);
    },

    /** Counts a viewer who saw the deal (once each). */
    async viewed(userUid: string, input: { pageUid: string; campaignUid: string; dealUid: string }) {
      const row = await requireDeal(db, input.pageUid, input.campaignUid, input.dealUid);
      await db.query(
        'INSERT INTO flash_deal_views (deal_uid, viewer_key) VALUES ($1, $2) ON CONFLICT DO NOTHING',
        [row.uid, userUid],
      );
      return { ok: true as const };
    },

    /**
     * An add at the deal price (the acceptance rule of domain flash-deals): the viewer's stamped
     * stream position, kept plausible by her reported delay, must lie in the deal's window on the
     * stream clock; then the deal's units and her share are claimed (never past either limit) and
     * the cart adds the product at the deal price, or the claim is given back.
     */
    async add(userUid: string, input: FlashDealAddRequest, address: string): Promise<CartUpdateResponse> {
      const row = await requireDeal(db, input.pageUid, input.campaignUid, input.dealUid);
      const event = await liveEvent(row.event_uid);
      const at = now();
      const measuredDelayMs = await deps.reportedDelayMs({
        pageUid: row.page_uid,
        campaignUid: row.campaign_uid,
        userUid,
        since: at - DELAY_REPORT_MAX_AGE_MS,
      });
      const position = plausibleStreamPosition({
        claimedMs: input.streamPositionMs,
        nowMs: at,
        measuredDelayMs,
        record: event,
      });
      // Only during the live show: once it ended (a replay), a deal is over whatever its timing.
      const verdict =
        event.event.currentStatus === 'live' ? flashDealVerdict(stampsOf(row), event, position) : 'ended';
      if (verdict === 'ended')
        throw new HttpError(409, FLASH_DEAL_ERROR_CODES.ended, FLASH_DEAL_ENDED_MESSAGE);
      if (verdict === 'notStarted') {
        throw new HttpError(409, FLASH_DEAL_ERROR_CODES.notStarted, DEAL_NOT_STARTED_MESSAGE);
      }
      const quantity = input.quantity;
      try {
        await claim(row, userUid, quantity);
      } catch (error) {
        // Sold out: units carts no longer hold come back first (as the cart does for its stock).
        const soldOut = error instanceof HttpError && error.code === FLASH_DEAL_ERROR_CODES.soldOut;
        if (!soldOut || !releaseDue(row.uid) || (await releaseUnheld(row)) === 0) throw error;
        await claim(row, userUid, quantity);
      }
      let answer: CartUpdateResponse;
      try {
        answer = await cart.addSingle(
          userUid,
          {
            productUid: row.product_uid,
            variantUid: row.variant_uid,
            quantity,
            context: 'checkout',
            pageUid: row.page_uid,
            campaignUid: row.campaign_uid,
            ...(input.currency ? { currency: input.currency } : {}),
          },
          address,
          { prices: row.prices },
        );
      } catch (error) {
        await releaseClaim(row.uid, userUid, quantity, row.page_uid, row.campaign_uid);
        throw error;
      }
      if (answer.status !== 'added') {
        await releaseClaim(row.uid, userUid, quantity, row.page_uid, row.campaign_uid);
        return answer;
      }
      const currency = answer.reservation.currency ?? null;
      const unitPrice = currency === null ? null : (row.prices[currency] ?? null);
      await db.query(
        `UPDATE flash_deal_claims SET checkout_uid = $3, currency = $4, unit_price = $5,
           pending = GREATEST(0, pending - 1)
         WHERE deal_uid = $1 AND user_uid = $2`,
        [row.uid, userUid, answer.checkoutUid, currency, unitPrice],
      );
      return answer;
    },
  };
}

export type FlashDealService = ReturnType<typeof createFlashDealService>;
