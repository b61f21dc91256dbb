import { z } from 'zod';
import { CurrencyCode, Timestamp, Uid } from '../../common.ts';
import { call } from '../define-call.ts';
import { CsvFile } from './order-calls.ts';

const StorePath = z.object({ pageUid: Uid });
const ShowPath = z.object({ pageUid: Uid, showUid: Uid });

const Count = z.number().int().nonnegative();

/** An amount per currency (minor units): a store may sell in several. */
export const CurrencyAmount = z.object({ currency: CurrencyCode, amount: z.number().int() });
export type CurrencyAmount = z.infer<typeof CurrencyAmount>;

/** One minute of a show (wall clock, UTC). `revenue` is null for those who may not see it. */
export const AnalyticsMinute = z.object({
  minute: Timestamp,
  viewersLive: Count,
  viewersReplay: Count,
  /** Viewers with a product on screen. */
  productViews: Count,
  watchSeconds: z.number().nonnegative(),
  comments: Count,
  reactions: Count,
  /** Entries in the show's competitions (raffles, quizzes, polls). */
  competitionEntries: Count,
  detailsOpened: Count,
  adds: Count,
  orders: Count,
  revenue: z.array(CurrencyAmount).nullable(),
});
export type AnalyticsMinute = z.infer<typeof AnalyticsMinute>;

/** A product's time on screen: a band on the viewers chart. */
export const AnalyticsChapter = z.object({
  productUid: z.string(),
  name: z.string(),
  start: Timestamp,
  end: Timestamp,
});
export type AnalyticsChapter = z.infer<typeof AnalyticsChapter>;

/** Presented → details opened → added (viewers) → ordered → paid (orders). */
export const AnalyticsFunnelRow = z.object({
  productUid: z.string(),
  name: z.string(),
  presented: Count,
  detailsOpened: Count,
  added: Count,
  ordered: Count,
  paid: Count,
  quantity: Count,
  revenue: z.array(CurrencyAmount).nullable(),
});
export type AnalyticsFunnelRow = z.infer<typeof AnalyticsFunnelRow>;

/**
 * A show's revenue in one currency, labelled (issue 33 item 12): the items (lines) and the freight
 * charged, before refunds (gross), what was refunded, and net = gross − refunds; net without
 * freight counts refunds against the items.
 */
export const RevenueBreakdown = z.object({
  currency: CurrencyCode,
  /** The items' total, without freight, before refunds. */
  items: z.number().int(),
  freight: z.number().int(),
  /** items + freight. */
  gross: z.number().int(),
  refunds: z.number().int(),
  /** gross − refunds. */
  net: z.number().int(),
  /** items − refunds. */
  netWithoutFreight: z.number().int(),
});
export type RevenueBreakdown = z.infer<typeof RevenueBreakdown>;

export const AnalyticsTotals = z.object({
  uniqueViewers: Count,
  liveViewers: Count,
  replayViewers: Count,
  peakViewers: Count,
  peakAt: Timestamp.nullable(),
  averageWatchSeconds: z.number().nonnegative(),
  comments: Count,
  reactions: Count,
  competitionEntries: Count,
  adds: Count,
  orders: Count,
  paidOrders: Count,
  /** Orders per unique viewer (0…1). */
  conversionRate: z.number().nonnegative(),
  /** The items' total per currency, without freight and before refunds (see revenueBreakdown). */
  revenue: z.array(CurrencyAmount).nullable(),
  /** Gross, refunds and net, with and without freight, per currency; null for who may not see revenue. */
  revenueBreakdown: z.array(RevenueBreakdown).nullable(),
  averageOrderValue: z.array(CurrencyAmount).nullable(),
});
export type AnalyticsTotals = z.infer<typeof AnalyticsTotals>;

/** A flash deal's figures in the show (issue 30 §3); revenue null for those who may not see it. */
export const AnalyticsFlashDeal = z.object({
  uid: Uid,
  productName: z.string(),
  views: Count,
  adds: Count,
  units: Count,
  orders: Count,
  revenue: z.array(CurrencyAmount).nullable(),
});
export type AnalyticsFlashDeal = z.infer<typeof AnalyticsFlashDeal>;

export const ShowAnalytics = z.object({
  show: z.object({
    uid: Uid,
    name: z.string(),
    campaignUid: Uid,
    startsAt: Timestamp,
    status: z.string(),
  }),
  /** When the rollup last read new events; null before its first run. */
  rolledUpAt: Timestamp.nullable(),
  /** Whether the caller may see revenue (the owner). */
  revenueVisible: z.boolean(),
  minutes: z.array(AnalyticsMinute),
  chapters: z.array(AnalyticsChapter),
  totals: AnalyticsTotals,
  /** Share of viewers (0…1) still watching after k minutes, k = 0, 1, … */
  retention: z.array(z.number().min(0).max(1)),
  funnel: z.array(AnalyticsFunnelRow),
  /** The show's flash deals: views, adds, orders and revenue of each. */
  flashDeals: z.array(AnalyticsFlashDeal).optional(),
});
export type ShowAnalytics = z.infer<typeof ShowAnalytics>;

export const StoreAnalyticsShow = z.object({
  showUid: Uid,
  name: z.string(),
  startsAt: Timestamp,
  uniqueViewers: Count,
  peakViewers: Count,
  watchSeconds: z.number().nonnegative(),
  orders: Count,
  conversionRate: z.number().nonnegative(),
  revenue: z.array(CurrencyAmount).nullable(),
});
export type StoreAnalyticsShow = z.infer<typeof StoreAnalyticsShow>;

export const StoreAnalyticsWeek = z.object({
  weekStart: Timestamp,
  shows: Count,
  viewers: Count,
  watchSeconds: z.number().nonnegative(),
  orders: Count,
});
export type StoreAnalyticsWeek = z.infer<typeof StoreAnalyticsWeek>;

export const StoreAnalytics = z.object({
  revenueVisible: z.boolean(),
  /** Newest first. */
  shows: z.array(StoreAnalyticsShow),
  /** Oldest first, weeks without shows included. */
  weeks: z.array(StoreAnalyticsWeek),
});
export type StoreAnalytics = z.infer<typeof StoreAnalytics>;

/** minutes: per minute; funnel: per product; revenue: gross, refunds and net per currency (owner). */
export const ANALYTICS_EXPORT_KINDS = ['minutes', 'funnel', 'revenue'] as const;

/** Most raw events one CSV export holds. */
export const ANALYTICS_EVENTS_EXPORT_MAX = 200_000;

const ANALYTICS = '/staff/stores/:pageUid/analytics';
const SHOW = `${ANALYTICS}/shows/:showUid`;

/**
 * The studio's analytics. Hosts run shows, so they read how a show went; revenue and order values
 * are the owner's (as the orders are): a host's report has them null. The raw events export is the
 * owner's too. Moderators see none of it.
 */
export const analyticsCalls = {
  // By path, then method in the order of CALL_METHODS (call-types.ts); api-docs.test.ts checks it.
  getStoreAnalytics: call({
    method: 'GET',
    path: ANALYTICS,
    auth: { staff: 'host' },
    summary:
      'The store’s shows side by side (viewers, watch time, orders, revenue, conversion) and weekly trends.',
    params: StorePath,
    response: StoreAnalytics,
  }),
  refreshAnalytics: call({
    method: 'POST',
    path: `${ANALYTICS}/refresh`,
    auth: { staff: 'host' },
    summary: 'Runs the analytics rollup now instead of at its next tick, and says when it ran.',
    params: StorePath,
    response: z.object({ rolledUpAt: Timestamp }),
  }),
  getShowAnalytics: call({
    method: 'GET',
    path: SHOW,
    auth: { staff: 'host' },
    summary:
      'A show’s report from its per-minute rollups: viewers over time with product chapters, retention, engagement, the funnel per product and the orders attributed to it. Revenue is null for a host.',
    params: ShowPath,
    response: ShowAnalytics,
  }),
  exportShowEvents: call({
    method: 'GET',
    path: `${SHOW}/events`,
    auth: { staff: 'owner' },
    summary: `A show’s raw tracking events as a CSV file (at most ${ANALYTICS_EVENTS_EXPORT_MAX}; none older than the retention).`,
    params: ShowPath,
    response: CsvFile,
  }),
  exportShowAnalytics: call({
    method: 'GET',
    path: `${SHOW}/export`,
    auth: { staff: 'host' },
    summary: 'A show’s per-minute rollup (kind=minutes) or per-product funnel (kind=funnel) as a CSV file.',
    params: ShowPath,
    query: z.object({ kind: z.enum(ANALYTICS_EXPORT_KINDS) }),
    response: CsvFile,
  }),
};
