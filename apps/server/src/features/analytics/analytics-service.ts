import {
  ANALYTICS_MINUTE_MS,
  ANALYTICS_ROLLUP_INTERVAL_MS,
  type AnalyticsRawEvent,
  ATTRIBUTION_GRACE_MS,
  averageOrderValue,
  averageWatchSeconds,
  conversionRate,
  isOrderAttributed,
  minorUnitDigits,
  minuteOf,
  peakMinute,
  presentedViewers,
  productChapters,
  retentionCurve,
  revenueFigures,
  rollupEvents,
  weeklyTrend,
} from '@vitrine/domain';
import type { StaffRole } from '@vitrine/protocol';
import {
  ANALYTICS_EVENTS_EXPORT_MAX,
  type AnalyticsFunnelRow,
  type AnalyticsMinute,
  type CsvFile,
  type CurrencyAmount,
  type ShowAnalytics,
  type StoreAnalytics,
} from '@vitrine/protocol';
import type { Currency } from '@vitrine/protocol/vocabulary';
import { stringify } from 'csv-stringify/sync';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.ts';
import type { ScheduleTimer } from '../../schedule-timer.ts';
import type { ShowOrder } from '../checkout/order-admin.ts';
import type { EventService } from '../events/event-service.ts';
import type { ShowService } from '../events/show-service.ts';
import type { TrackingService } from '../tracking/tracking-service.ts';
import {
  applyRollup,
  ensureCursor,
  knownShows,
  lockShow,
  type OrderMinuteRow,
  type ProductOrderRow,
  readCursor,
  recentShows,
  replaceCompetitionMinutes,
  replaceShowOrders,
  showCompetitionMinutes,
  showMinutes,
  showOrderMinutes,
  showProductOrders,
  showProductViewers,
  showsOrders,
  showsTotals,
  showViewerSpans,
  showViewerTotals,
  showWatchHistogram,
  touchShows,
  writeCursor,
} from './analytics-store.ts';

/** Events one rollup slice reads; a tick reads slices until it has caught up (or MAX_SLICES). */
export const ROLLUP_SLICE_EVENTS = 20_000;
const MAX_SLICES_PER_TICK = 100;
/** Events younger than this wait for the next tick: their insert may not have committed yet. */
export const ROLLUP_SETTLE_MS = 2_000;
/** How often raw events past the retention are deleted. */
const PURGE_INTERVAL_MS = 60 * 60_000;
/** Most unknown campaigns one slice looks up (events naming forged campaigns are dropped). */
const MAX_CAMPAIGN_LOOKUPS = 200;
/** Most shows the store overview lists. */
const OVERVIEW_SHOWS = 200;

export interface AnalyticsDeps {
  db: Database;
  tracking: Pick<TrackingService, 'rawSlice' | 'showEvents' | 'purgeBefore'>;
  /** The checkout feature's orders of a show (its service, never its tables). */
  showOrders: (campaignUid: string) => Promise<ShowOrder[]>;
  /** The flash deals feature's figures of a show's deals (issue 30 §3). */
  flashDeals?: (
    pageUid: string,
    campaignUid: string,
  ) => Promise<
    {
      uid: string;
      productName: string;
      stats: { views: number; adds: number; units: number; orders: number; revenue: CurrencyAmount[] };
    }[]
  >;
  /** The competitions feature's entries of a show per minute. */
  participation: (campaignUid: string) => Promise<{ minute: number; entries: number }[]>;
  events: Pick<EventService, 'campaign'>;
  shows: Pick<ShowService, 'preview' | 'list'>;
  now: () => number;
  log?: FastifyBaseLogger;
  /** Days raw tracking events are kept. */
  retentionDays: number;
  scheduleTimer: ScheduleTimer;
}

const byCurrency = (rows: readonly { currency: string; amount: number }[]): CurrencyAmount[] => {
  const sums = new Map<string, number>();
  for (const row of rows) sums.set(row.currency, (sums.get(row.currency) ?? 0) + row.amount);
  return [...sums]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, amount]) => ({ currency: currency as Currency, amount }));
};

/** Minor units as a plain decimal for CSV. */
function decimal(amount: number, currency: string): string {
  const digits = minorUnitDigits(currency);
  return (amount / 10 ** digits).toFixed(digits);
}

/** A spreadsheet runs a cell starting with = + - @ as a formula: text is quoted out of it. */
const spreadsheetSafe = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

/**
 * Show analytics (issue 17): a rollup job reads new tracking events by id in slices and adds
 * them to per-minute rollups, refreshes the orders of recently watched shows from the checkout
 * feature, and deletes raw events past the retention; reports and exports read the rollups only.
 */
export function createAnalyticsService(deps: AnalyticsDeps) {
  const { db, tracking, now } = deps;
  let running: Promise<number> | null = null;
  let lastPurge = Number.NEGATIVE_INFINITY;

  /** One slice: read, roll up, store (a cursor moved meanwhile by another node → nothing). */
  async function rollupSlice(): Promise<{ read: number; caughtUp: boolean }> {
    const cursor = (await readCursor(db))?.lastEventId ?? 0;
    const events = await tracking.rawSlice(cursor, ROLLUP_SLICE_EVENTS, now() - ROLLUP_SETTLE_MS);
    const last = events.at(-1);
    if (!last) return { read: 0, caughtUp: true };
    const campaigns = [...new Set(events.map((event) => event.campaignUid))];
    const pages = await knownShows(db, campaigns);
    let lookups = 0;
    for (const campaignUid of campaigns) {
      if (pages.has(campaignUid) || lookups >= MAX_CAMPAIGN_LOOKUPS) continue;
      lookups += 1;
      const campaign = await deps.events.campaign(campaignUid);
      if (campaign) pages.set(campaignUid, campaign.pageUid);
    }
    const known: AnalyticsRawEvent[] = events.filter((event) => pages.has(event.campaignUid));
    const rollup = rollupEvents(known);
    const at = now();
    const applied = await db.transaction(async (tx) => {
      const locked = (await readCursor(tx, true))?.lastEventId ?? 0;
      if (locked !== cursor) return false;
      await applyRollup(tx, rollup);
      await touchShows(
        tx,
        [...new Set(known.map((event) => event.campaignUid))].map((campaignUid) => ({
          campaignUid,
          pageUid: pages.get(campaignUid) ?? '',
        })),
        at,
      );
      await writeCursor(tx, last.id, at);
      return true;
    });
    return { read: applied ? events.length : 0, caughtUp: events.length < ROLLUP_SLICE_EVENTS };
  }

  /**
   * Orders of shows watched within the attribution grace, per minute and per product, and their
   * competition entries per minute.
   */
  async function refreshOrders(): Promise<void> {
    for (const show of await recentShows(db, now() - ATTRIBUTION_GRACE_MS)) {
      const campaign = await deps.events.campaign(show.campaignUid);
      if (!campaign) continue;
      const orders = await deps.showOrders(show.campaignUid);
      const startsAt = (await firstMinute(show.campaignUid)) ?? 0;
      const minutes = new Map<string, OrderMinuteRow>();
      const products = new Map<string, ProductOrderRow>();
      for (const order of orders) {
        if (!isOrderAttributed(order.orderedAt, { startsAt, replayUntil: campaign.deadline })) continue;
        const minute = minuteOf(order.orderedAt);
        const total = order.lines.reduce((sum, line) => sum + line.total, 0);
        const minuteKey = `${minute}:${order.currency}`;
        const entry = minutes.get(minuteKey) ?? {
          minute,
          currency: order.currency,
          orders: 0,
          paidOrders: 0,
          revenue: 0,
          freight: 0,
          refunded: 0,
        };
        entry.orders += 1;
        entry.paidOrders += order.paid ? 1 : 0;
        entry.revenue += total;
        entry.freight += order.freight;
        entry.refunded += order.refunded;
        minutes.set(minuteKey, entry);
        const seen = new Set<string>();
        for (const line of order.lines) {
          const key = `${line.productUid}:${order.currency}`;
          const product = products.get(key) ?? {
            productUid: line.productUid,
            currency: order.currency,
            orders: 0,
            paidOrders: 0,
            quantity: 0,
            revenue: 0,
          };
          if (!seen.has(key)) {
            product.orders += 1;
            product.paidOrders += order.paid ? 1 : 0;
            seen.add(key);
          }
          product.quantity += line.quantity;
          product.revenue += line.total;
          products.set(key, product);
        }
      }
      const participation = await deps.participation(show.campaignUid);
      await db.transaction(async (tx) => {
        await lockShow(tx, show.campaignUid);
        await replaceShowOrders(tx, show.campaignUid, [...minutes.values()], [...products.values()]);
        await replaceCompetitionMinutes(tx, show.campaignUid, participation);
      });
    }
  }

  async function firstMinute(campaignUid: string): Promise<number | null> {
    const [first] = await showMinutes(db, campaignUid);
    return first?.minute ?? null;
  }

  async function rollupNow(): Promise<number> {
    await ensureCursor(db);
    let read = 0;
    for (let slice = 0; slice < MAX_SLICES_PER_TICK; slice++) {
      const result = await rollupSlice();
      read += result.read;
      if (result.caughtUp) break;
    }
    await refreshOrders();
    if (now() - lastPurge >= PURGE_INTERVAL_MS) {
      lastPurge = now();
      await tracking.purgeBefore(now() - deps.retentionDays * 24 * 60 * 60_000);
    }
    return read;
  }

  /**
   * Runs the rollup now; a run already under way is awaited instead of starting a second. Returns
   * how many events it read.
   */
  function rollup(): Promise<number> {
    if (!running) {
      running = rollupNow().finally(() => {
        running = null;
      });
    }
    return running;
  }

  const canSeeRevenue = (role: StaffRole) => role === 'owner';

  async function showReport(pageUid: string, showUid: string, role: StaffRole): Promise<ShowAnalytics> {
    const { event, products } = await deps.shows.preview(pageUid, showUid);
    const campaignUid = event.event.campaignId;
    const revenueVisible = canSeeRevenue(role);
    const [
      minuteRows,
      orderMinutes,
      productOrders,
      viewerTotals,
      histogram,
      spans,
      productViewers,
      cursor,
      entries,
    ] = await Promise.all([
      showMinutes(db, campaignUid),
      showOrderMinutes(db, campaignUid),
      showProductOrders(db, campaignUid),
      showViewerTotals(db, campaignUid),
      showWatchHistogram(db, campaignUid),
      showViewerSpans(db, campaignUid),
      showProductViewers(db, campaignUid),
      readCursor(db),
      showCompetitionMinutes(db, campaignUid),
    ]);
    const ordersByMinute = new Map<number, OrderMinuteRow[]>();
    for (const row of orderMinutes)
      ordersByMinute.set(row.minute, [...(ordersByMinute.get(row.minute) ?? []), row]);
    const minuteSet = new Set([
      ...minuteRows.map((row) => row.minute),
      ...orderMinutes.map((row) => row.minute),
    ]);
    const rowsByMinute = new Map(minuteRows.map((row) => [row.minute, row]));
    const minutes: AnalyticsMinute[] = [...minuteSet]
      .sort((a, b) => a - b)
      .map((minute) => {
        const row = rowsByMinute.get(minute);
        const ordered = ordersByMinute.get(minute) ?? [];
        return {
          minute,
          viewersLive: row?.viewers_live ?? 0,
          viewersReplay: row?.viewers_replay ?? 0,
          productViews: row?.product_views ?? 0,
          watchSeconds: Math.round(row?.watch_seconds ?? 0),
          comments: row?.comments ?? 0,
          reactions: row?.reactions ?? 0,
          competitionEntries: entries.get(minute) ?? 0,
          detailsOpened: row?.details_opened ?? 0,
          adds: row?.adds ?? 0,
          orders: ordered.reduce((sum, entry) => sum + entry.orders, 0),
          revenue: revenueVisible
            ? byCurrency(ordered.map((entry) => ({ currency: entry.currency, amount: entry.revenue })))
            : null,
        };
      });
    const lastMinute = minutes.at(-1)?.minute;
    const showEnd =
      event.event.liveEndTime ?? (lastMinute !== undefined ? lastMinute + ANALYTICS_MINUTE_MS : now());
    const names = new Map(products.map((product) => [product.productUid, product.product.name]));
    const chapterList = productChapters(
      products.map((product) => ({ productUid: product.productUid, cues: product.cues })),
      showEnd,
    );
    const chapters = chapterList.map((chapter) => ({
      ...chapter,
      name: names.get(chapter.productUid) ?? chapter.productUid,
    }));
    const funnelProducts = [
      ...new Set([
        ...products.map((product) => product.productUid),
        ...productViewers.keys(),
        ...productOrders.map((row) => row.productUid),
      ]),
    ];
    const funnel: AnalyticsFunnelRow[] = funnelProducts.map((productUid) => {
      const viewers = productViewers.get(productUid);
      const ordered = productOrders.filter((row) => row.productUid === productUid);
      return {
        productUid,
        name: names.get(productUid) ?? productUid,
        presented: presentedViewers(
          spans,
          chapterList.filter((chapter) => chapter.productUid === productUid),
        ),
        detailsOpened: viewers?.detailsOpened ?? 0,
        added: viewers?.added ?? 0,
        ordered: ordered.reduce((sum, row) => sum + row.orders, 0),
        paid: ordered.reduce((sum, row) => sum + row.paidOrders, 0),
        quantity: ordered.reduce((sum, row) => sum + row.quantity, 0),
        revenue: revenueVisible
          ? byCurrency(ordered.map((row) => ({ currency: row.currency, amount: row.revenue })))
          : null,
      };
    });
    const peak = peakMinute(
      minutes.map((m) => ({ minute: m.minute, viewers: m.viewersLive + m.viewersReplay })),
    );
    const orders = orderMinutes.reduce((sum, row) => sum + row.orders, 0);
    const revenue = byCurrency(orderMinutes.map((row) => ({ currency: row.currency, amount: row.revenue })));
    const ordersByCurrency = new Map<string, number>();
    for (const row of orderMinutes)
      ordersByCurrency.set(row.currency, (ordersByCurrency.get(row.currency) ?? 0) + row.orders);
    const sum = (pick: (minute: AnalyticsMinute) => number) =>
      minutes.reduce((total, m) => total + pick(m), 0);
    return {
      show: {
        uid: event.id,
        name: event.event.eventName,
        campaignUid,
        startsAt: event.event.eventStartTimestamp,
        status: event.event.currentStatus,
      },
      rolledUpAt: cursor && cursor.rolledUpAt > 0 ? cursor.rolledUpAt : null,
      revenueVisible,
      minutes,
      chapters,
      totals: {
        uniqueViewers: viewerTotals.unique_viewers,
        liveViewers: viewerTotals.live_viewers,
        replayViewers: viewerTotals.replay_viewers,
        peakViewers: peak?.viewers ?? 0,
        peakAt: peak?.minute ?? null,
        averageWatchSeconds: averageWatchSeconds(viewerTotals.watch_seconds, viewerTotals.unique_viewers),
        comments: sum((m) => m.comments),
        reactions: sum((m) => m.reactions),
        competitionEntries: sum((m) => m.competitionEntries),
        adds: sum((m) => m.adds),
        orders,
        paidOrders: orderMinutes.reduce((total, row) => total + row.paidOrders, 0),
        conversionRate: conversionRate(orders, viewerTotals.unique_viewers),
        revenue: revenueVisible ? revenue : null,
        revenueBreakdown: revenueVisible
          ? revenueFigures(orderMinutes).map((figures) => ({
              ...figures,
              currency: figures.currency as Currency,
            }))
          : null,
        averageOrderValue: revenueVisible
          ? revenue.map((entry) => ({
              currency: entry.currency,
              amount: averageOrderValue(entry.amount, ordersByCurrency.get(entry.currency) ?? 0),
            }))
          : null,
      },
      retention: retentionCurve(histogram),
      funnel,
      flashDeals: (await deps.flashDeals?.(pageUid, campaignUid))?.map((deal) => ({
        uid: deal.uid,
        productName: deal.productName,
        views: deal.stats.views,
        adds: deal.stats.adds,
        units: deal.stats.units,
        orders: deal.stats.orders,
        revenue: revenueVisible ? deal.stats.revenue : null,
      })),
    };
  }

  async function storeOverview(pageUid: string, role: StaffRole): Promise<StoreAnalytics> {
    const list = await deps.shows.list(pageUid, { offset: 0, limit: OVERVIEW_SHOWS });
    const shows = list.shows.filter((show) => show.group !== 'draft' && show.group !== 'upcoming');
    const campaigns = shows.map((show) => show.campaignUid);
    const [totals, orders] = await Promise.all([showsTotals(db, campaigns), showsOrders(db, campaigns)]);
    const revenueVisible = canSeeRevenue(role);
    const rows = shows.map((show) => {
      const own = orders.filter((row) => row.campaignUid === show.campaignUid);
      const figures = totals.get(show.campaignUid);
      const orderCount = own.reduce((sum, row) => sum + row.orders, 0);
      const viewers = figures?.unique_viewers ?? 0;
      return {
        showUid: show.uid,
        name: show.name,
        startsAt: show.startsAt,
        uniqueViewers: viewers,
        peakViewers: figures?.peak_viewers ?? 0,
        watchSeconds: Math.round(figures?.watch_seconds ?? 0),
        orders: orderCount,
        conversionRate: conversionRate(orderCount, viewers),
        revenue: revenueVisible
          ? byCurrency(own.map((row) => ({ currency: row.currency, amount: row.revenue })))
          : null,
      };
    });
    return {
      revenueVisible,
      shows: rows,
      weeks: weeklyTrend(
        rows.map((row) => ({
          startsAt: row.startsAt,
          viewers: row.uniqueViewers,
          watchSeconds: row.watchSeconds,
          orders: row.orders,
        })),
      ),
    };
  }

  const fileDate = () => new Date(now()).toISOString().slice(0, 10);
  const csv = (records: string[][]) => stringify(records.map((record) => record.map(spreadsheetSafe)));
  const money = (amounts: CurrencyAmount[] | null) =>
    amounts === null
      ? ''
      : amounts.map((entry) => `${decimal(entry.amount, entry.currency)} ${entry.currency}`).join('; ');

  return {
    rollup,
    /** The rollup now (the studio's refresh, the tests): when it finished. */
    async refresh(): Promise<{ rolledUpAt: number }> {
      await rollup();
      return { rolledUpAt: now() };
    },
    showReport,
    storeOverview,

    /** The per-minute rollup or the per-product funnel of a show as CSV (revenue blank for a host). */
    async exportShow(
      pageUid: string,
      showUid: string,
      kind: 'minutes' | 'funnel' | 'revenue',
      role: StaffRole,
    ): Promise<CsvFile> {
      const report = await showReport(pageUid, showUid, role);
      const amount = (value: number, currency: string) => decimal(value, currency);
      const records: string[][] =
        kind === 'revenue'
          ? [
              [
                'Currency',
                'Items (excl. freight, before refunds)',
                'Freight',
                'Gross (items + freight)',
                'Refunds',
                'Net (gross - refunds)',
                'Net excl. freight (items - refunds)',
              ],
              ...(report.totals.revenueBreakdown ?? []).map((row) => [
                row.currency,
                amount(row.items, row.currency),
                amount(row.freight, row.currency),
                amount(row.gross, row.currency),
                amount(row.refunds, row.currency),
                amount(row.net, row.currency),
                amount(row.netWithoutFreight, row.currency),
              ]),
            ]
          : kind === 'minutes'
            ? [
                [
                  'Minute (UTC)',
                  'Live viewers',
                  'Replay viewers',
                  'Product views',
                  'Watch seconds',
                  'Comments',
                  'Reactions',
                  'Competition entries',
                  'Details opened',
                  'Adds to cart',
                  'Orders',
                  'Revenue (items, excl. freight, before refunds)',
                ],
                ...report.minutes.map((m) => [
                  new Date(m.minute).toISOString(),
                  String(m.viewersLive),
                  String(m.viewersReplay),
                  String(m.productViews),
                  String(m.watchSeconds),
                  String(m.comments),
                  String(m.reactions),
                  String(m.competitionEntries),
                  String(m.detailsOpened),
                  String(m.adds),
                  String(m.orders),
                  money(m.revenue),
                ]),
              ]
            : [
                [
                  'Product',
                  'Product uid',
                  'Presented to',
                  'Details opened',
                  'Added',
                  'Ordered',
                  'Paid',
                  'Quantity',
                  'Revenue (items, excl. freight, before refunds)',
                ],
                ...report.funnel.map((row) => [
                  row.name,
                  row.productUid,
                  String(row.presented),
                  String(row.detailsOpened),
                  String(row.added),
                  String(row.ordered),
                  String(row.paid),
                  String(row.quantity),
                  money(row.revenue),
                ]),
              ];
      return {
        filename: `show-${showUid}-${kind}-${fileDate()}.csv`,
        csv: csv(records),
        rows: records.length - 1,
      };
    },

    /** A show's raw events (those the retention kept) as CSV. */
    async exportShowEvents(pageUid: string, showUid: string): Promise<CsvFile> {
      const { event } = await deps.shows.preview(pageUid, showUid);
      const events = await tracking.showEvents(pageUid, event.event.campaignId, ANALYTICS_EVENTS_EXPORT_MAX);
      const records = [
        [
          'Received (UTC)',
          'Event',
          'Viewer',
          'Playback',
          'Watched seconds',
          'Product uid',
          'Video time',
          'Delay ms',
        ],
        ...events.map((row) => [
          new Date(row.receivedAt).toISOString(),
          row.name,
          row.viewerKey ?? '',
          row.playback,
          String(row.watchedSeconds),
          row.productUid ?? '',
          row.videoTime === null ? '' : String(row.videoTime),
          row.delayMs === null ? '' : String(row.delayMs),
        ]),
      ];
      return {
        filename: `show-${showUid}-events-${fileDate()}.csv`,
        csv: csv(records),
        rows: records.length - 1,
      };
    },

    /** Starts the rollup timer (every ANALYTICS_ROLLUP_INTERVAL_MS); the returned function stops it. */
    start(intervalMs = ANALYTICS_ROLLUP_INTERVAL_MS): () => Promise<void> {
      let stopped = false;
      let cancel = () => {};
      const schedule = () => {
        cancel = deps.scheduleTimer(async () => {
          try {
            await rollup();
          } catch (error) {
            deps.log?.error({ err: error }, 'analytics rollup failed');
          }
          if (!stopped) schedule();
        }, intervalMs);
      };
      schedule();
      return async () => {
        stopped = true;
        cancel();
        await running?.catch(() => {});
      };
    },
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
