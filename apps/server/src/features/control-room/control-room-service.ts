import { median, ROOM_DELAY_REPORT_MAX_AGE_MS, ROOM_RATE_WINDOW_MS, roleIncludes } from '@vitrine/domain';
import type {
  CompetitionNoticeRequest,
  ControlRoom,
  ControlRoomLineupItem,
  ControlRoomLiveDoc,
  ControlRoomPresentations,
  ControlRoomStats,
  CurrencyAmount,
  EventProduct,
  LiveStreamView,
  StaffRole,
} from '@vitrine/protocol';
import { HttpError, notFound } from '../../http/errors.ts';
import type { Presence } from '../../realtime/presence.ts';
import type { ShowOrder } from '../checkout/order-admin.ts';
import type { CompetitionService } from '../competitions/competition-service.ts';
import type { EventService } from '../events/event-service.ts';
import type { ProductPresentations } from '../events/product-presentations.ts';
import { type ShowService, toLineupItem } from '../events/show-service.ts';
import type { TrackingService } from '../tracking/tracking-service.ts';

/**
 * Who may not win a store's competitions: viewers banned from the store. The moderation feature
 * answers it; until it exists the composition root passes a set nobody is in.
 */
export interface DrawExclusions {
  bannedViewers(pageUid: string): Promise<ReadonlySet<string>>;
}

/** How long the room's figures of one show are shared by everyone asking (the host and moderators each ask every second). */
export const ROOM_STATS_SHARED_MS = 900;

/**
 * Adds to cart older than this are counted once and kept (per show, per node); only newer ones
 * are read each second. An insert's received_at is its transaction's start, so one committing
 * later than this after it began would be missed: tracking inserts are single statements.
 */
export const ADDS_SETTLE_MS = 5_000;

/** Adds to cart of a show counted up to `until` (settled), per catalogue product ('' for none). */
interface SettledAdds {
  until: number;
  adds: ReadonlyMap<string, number>;
  usedAt: number;
}

const addCounts = (into: Map<string, number>, more: ReadonlyMap<string, number>) => {
  for (const [uid, count] of more) into.set(uid, (into.get(uid) ?? 0) + count);
  return into;
};

/**
 * The host running the show sees the revenue so far (issue 16 hides it from moderators only); the
 * show report in analytics, read after the show, keeps it the owner's.
 */
export const canSeeRevenue = (role: StaffRole) => roleIncludes(role, 'host');
/** Presenting products and running the stream are the host's (their calls need host). */
const canHost = (role: StaffRole) => roleIncludes(role, 'host');

/** A product no unit of which is left. */
function soldOut(product: EventProduct['product']): boolean {
  if (product.variants.length > 0) return product.variants.every((variant) => variant.stock === 0);
  return product.stock === 0;
}

export interface ControlRoomDeps {
  now: () => number;
  shows: Pick<ShowService, 'campaignOf'>;
  events: Pick<EventService, 'anyEvent' | 'eventProducts' | 'republishProduct'>;
  presentations: ProductPresentations;
  catalog: { markSoldOut(pageUid: string, productUid: string): Promise<boolean> };
  live: { stream(pageUid: string, eventId: string, origin: string): Promise<LiveStreamView> };
  presence: Pick<Presence, 'viewerCount' | 'peak'>;
  tracking: Pick<TrackingService, 'showRecentFigures' | 'showAddsToCart'>;
  /** The checkout feature's orders of a show. */
  showOrders: (campaignUid: string) => Promise<ShowOrder[]>;
  competitions: Pick<CompetitionService, 'list' | 'draw' | 'notice' | 'requireInCampaign'>;
  exclusions: DrawExclusions;
  /**
   * A fingerprint of the show's moderation board (the comments feature's): the `controlRoom`
   * live query carries it so the room reads the board again only when it changed.
   */
  boardKey?: (pageUid: string, showUid: string) => Promise<string>;
  /** The origin the `controlRoom` live query's figures are computed for (no request there). */
  origin?: string;
}

/**
 * The control room of a live show (issue 16): one page where the host presents products and runs
 * the stream, moderators run competitions, and both see the room's numbers every second. It
 * owns no table: it asks each feature's service.
 */
export function createControlRoomService(deps: ControlRoomDeps) {
  const { now, shows, events, presentations } = deps;
  /** The latest figures of each show, shared for ROOM_STATS_SHARED_MS. */
  const shared = new Map<string, { at: number; stats: Promise<ControlRoomStats> }>();
  const settledAdds = new Map<string, SettledAdds>();

  /**
   * The show's adds to cart per catalogue product: the settled count kept from earlier seconds,
   * moved on to `at − ADDS_SETTLE_MS`, plus the newest ones read now. A long show's events are
   * so read once, not every second.
   */
  async function addsToCart(pageUid: string, campaignUid: string, at: number): Promise<Map<string, number>> {
    const key = `${pageUid}:${campaignUid}`;
    const current = settledAdds.get(key);
    const settleAt = at - ADDS_SETTLE_MS;
    // A clock set back would leave adds between it and the settled time uncounted: count afresh.
    const before =
      current && current.until <= settleAt
        ? current
        : { until: 0, adds: new Map<string, number>(), usedAt: at };
    let settled = before;
    if (settleAt > before.until) {
      const newlySettled = await deps.tracking.showAddsToCart(pageUid, campaignUid, before.until, settleAt);
      settled = { until: settleAt, adds: addCounts(new Map(before.adds), newlySettled), usedAt: at };
      // Another computation may have moved it on meanwhile: keep one, never add twice.
      if (settledAdds.get(key) === current) settledAdds.set(key, settled);
    } else settledAdds.set(key, { ...before, usedAt: at });
    for (const [other, value] of settledAdds) if (at - value.usedAt > 10 * 60_000) settledAdds.delete(other);
    const recent = await deps.tracking.showAddsToCart(pageUid, campaignUid, settled.until, null);
    return addCounts(new Map(settled.adds), recent);
  }

  async function lineupOf(showUid: string): Promise<ControlRoomLineupItem[]> {
    return (await events.eventProducts(showUid)).map((item) => ({
      ...toLineupItem(item),
      soldOut: soldOut(item.product),
    }));
  }

  async function room(
    pageUid: string,
    showUid: string,
    role: StaffRole,
    origin: string,
  ): Promise<ControlRoom> {
    const campaignUid = await shows.campaignOf(pageUid, showUid);
    const event = await events.anyEvent(pageUid, showUid);
    if (!event) throw notFound(`No show "${showUid}" in this store.`);
    const [lineup, presented, stream] = await Promise.all([
      lineupOf(showUid),
      presentations.read(showUid),
      deps.live.stream(pageUid, showUid, origin),
    ]);
    return {
      showUid,
      campaignUid,
      name: event.event.eventName,
      lineup,
      ...presented,
      stream: { state: stream.state, previewUrl: stream.previewUrl },
      can: { present: canHost(role), runStream: canHost(role), seeRevenue: canSeeRevenue(role) },
    };
  }

  async function computeStats(pageUid: string, showUid: string, origin: string): Promise<ControlRoomStats> {
    const at = now();
    const campaignUid = await shows.campaignOf(pageUid, showUid);
    const event = await events.anyEvent(pageUid, showUid);
    if (!event) throw notFound(`No show "${showUid}" in this store.`);
    const showSince = event.event.liveStartTime ?? event.event.eventStartTimestamp;
    const [stream, viewers, peakViewers, figures, adds, orders, presented, products, competitions] =
      await Promise.all([
        deps.live.stream(pageUid, showUid, origin),
        deps.presence.viewerCount(showUid),
        deps.presence.peak(showUid),
        deps.tracking.showRecentFigures(pageUid, campaignUid, {
          recentSince: at - ROOM_RATE_WINDOW_MS,
          delaySince: Math.max(showSince, at - ROOM_DELAY_REPORT_MAX_AGE_MS),
        }),
        // Adds before the show count too: a show's campaign is the show.
        addsToCart(pageUid, campaignUid, at),
        deps.showOrders(campaignUid),
        presentations.read(showUid),
        events.eventProducts(showUid),
        deps.competitions.list(pageUid, campaignUid),
      ]);
    const productOf = new Map(products.map((product) => [product.uid, product.productUid]));
    const ordersOf = (productUid: string | undefined) =>
      productUid === undefined
        ? 0
        : orders.filter((order) => order.lines.some((line) => line.productUid === productUid)).length;
    const revenue = new Map<string, number>();
    for (const order of orders)
      for (const line of order.lines)
        revenue.set(order.currency, (revenue.get(order.currency) ?? 0) + line.total);
    const delay = median(figures.delays);
    return {
      at,
      currentStatus: event.event.currentStatus,
      streamState: stream.state,
      liveStartTime: event.event.liveStartTime,
      liveEndTime: event.event.liveEndTime,
      viewers,
      peakViewers: Math.max(peakViewers, viewers),
      commentsPerMinute: figures.comments,
      reactionsPerMinute: figures.reactions,
      addsToCart: [...adds.values()].reduce((sum, count) => sum + count, 0),
      orders: orders.length,
      revenue: [...revenue]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([currency, amount]) => ({ currency, amount }) as CurrencyAmount),
      presented: presented.presented.map((presentation) => {
        const productUid = productOf.get(presentation.uid);
        return {
          ...presentation,
          addsToCart: productUid === undefined ? 0 : (adds.get(productUid) ?? 0),
          orders: ordersOf(productUid),
        };
      }),
      medianDelayMs: delay === null ? null : Math.round(delay),
      delayReports: figures.delays.length,
      competitions: competitions.map((competition) => ({
        uid: competition.uid,
        participantCount: competition.participantCount,
        openForParticipation: competition.openForParticipation,
        winnerCount: competition.winnerDetails.length,
      })),
      lineupKey: products.map((product) => product.uid).join(' '),
      soldOut: products.filter((product) => soldOut(product.product)).map((product) => product.uid),
    };
  }

  const api = {
    room,

    /**
     * The room's numbers. Everyone asking about one show within ROOM_STATS_SHARED_MS gets the same
     * figures (one computation), and revenue leaves the server only for roles that see it.
     */
    async stats(
      pageUid: string,
      showUid: string,
      role: StaffRole,
      origin: string,
    ): Promise<ControlRoomStats> {
      // The show must be this store's before shared figures are handed out.
      await shows.campaignOf(pageUid, showUid);
      const key = `${pageUid}:${showUid}`;
      let entry = shared.get(key);
      const age = entry ? now() - entry.at : Number.POSITIVE_INFINITY;
      // A clock set back makes the age negative: not fresh either.
      if (!entry || age >= ROOM_STATS_SHARED_MS || age < 0) {
        entry = { at: now(), stats: computeStats(pageUid, showUid, origin) };
        shared.set(key, entry);
        // A failure is not shared: the next asker computes again.
        entry.stats.catch(() => shared.delete(key));
        for (const [other, value] of shared) if (now() - value.at > 60_000) shared.delete(other);
      }
      const stats = await entry.stats;
      return canSeeRevenue(role) ? stats : { ...stats, revenue: null };
    },

    /**
     * The `controlRoom` live query's document: the room's figures (with revenue: the live query
     * takes it out for subscribers who may not see it) and the moderation board's fingerprint.
     */
    async liveDoc(pageUid: string, showUid: string): Promise<ControlRoomLiveDoc> {
      const [figures, boardKey] = await Promise.all([
        api.stats(pageUid, showUid, 'owner', deps.origin ?? ''),
        deps.boardKey ? deps.boardKey(pageUid, showUid) : Promise.resolve(''),
      ]);
      return { ...figures, boardKey };
    },

    /** Forgets the show's shared figures: after a change made here, the next read is fresh. */
    invalidate(pageUid: string, showUid: string): void {
      shared.delete(`${pageUid}:${showUid}`);
    },

    async present(
      pageUid: string,
      showUid: string,
      eventProductUid: string,
    ): Promise<ControlRoomPresentations> {
      await shows.campaignOf(pageUid, showUid);
      return presentations.present(showUid, eventProductUid);
    },

    async stop(pageUid: string, showUid: string, eventProductUid: string): Promise<ControlRoomPresentations> {
      await shows.campaignOf(pageUid, showUid);
      return presentations.stop(showUid, eventProductUid);
    },

    async markSoldOut(
      pageUid: string,
      showUid: string,
      eventProductUid: string,
      role: StaffRole,
      origin: string,
    ): Promise<ControlRoom> {
      await shows.campaignOf(pageUid, showUid);
      const product = (await events.eventProducts(showUid)).find((item) => item.uid === eventProductUid);
      if (!product) throw new HttpError(422, 'not_in_show', 'This product is not in the show.');
      if (!(await deps.catalog.markSoldOut(pageUid, product.productUid)))
        throw notFound('This product is no longer in the catalogue.');
      // Viewers' players follow the show's products: they see it sold out at once.
      await events.republishProduct(product.productUid);
      return room(pageUid, showUid, role, origin);
    },

    /** Draws among the entrants who have not won, leaving out the store's banned viewers. */
    async draw(pageUid: string, showUid: string, competitionUid: string, count: number) {
      await deps.competitions.requireInCampaign(
        pageUid,
        await shows.campaignOf(pageUid, showUid),
        competitionUid,
      );
      return deps.competitions.draw(competitionUid, count, await deps.exclusions.bannedViewers(pageUid));
    },

    async announce(
      pageUid: string,
      showUid: string,
      competitionUid: string,
      notice: CompetitionNoticeRequest,
    ) {
      await deps.competitions.requireInCampaign(
        pageUid,
        await shows.campaignOf(pageUid, showUid),
        competitionUid,
      );
      return deps.competitions.notice(competitionUid, notice);
    },
  };
  return api;
}

export type ControlRoomService = ReturnType<typeof createControlRoomService>;
