import type { EventRollup } from '@vitrine/domain';
import type { Queryable } from '../../db/database.ts';

// All SQL on the analytics feature's tables (migration 0019). Bulk writes pass one array per
// column through unnest, so a slice of any size is one statement with a handful of parameters.

/** The rollup's place in tracking_events: the last event id read, and when. */
export async function readCursor(
  q: Queryable,
  lock = false,
): Promise<{ lastEventId: number; rolledUpAt: number } | null> {
  const [row] = await q.query<{ last_event_id: string; rolled_up_at: string }>(
    `SELECT last_event_id, rolled_up_at FROM analytics_cursor WHERE name = 'rollup'${lock ? ' FOR UPDATE' : ''}`,
  );
  return row ? { lastEventId: Number(row.last_event_id), rolledUpAt: Number(row.rolled_up_at) } : null;
}

/** Makes the cursor row exist, so nodes that roll up at once wait on its row lock. */
export async function ensureCursor(q: Queryable): Promise<void> {
  await q.query(
    `INSERT INTO analytics_cursor (name, last_event_id, rolled_up_at) VALUES ('rollup', 0, 0)
     ON CONFLICT (name) DO NOTHING`,
  );
}

export async function writeCursor(q: Queryable, lastEventId: number, rolledUpAt: number): Promise<void> {
  await q.query(
    `INSERT INTO analytics_cursor (name, last_event_id, rolled_up_at) VALUES ('rollup', $1, $2)
     ON CONFLICT (name) DO UPDATE SET last_event_id = excluded.last_event_id, rolled_up_at = excluded.rolled_up_at`,
    [lastEventId, rolledUpAt],
  );
}

/** The store of each known show among `campaignUids`. */
export async function knownShows(
  q: Queryable,
  campaignUids: readonly string[],
): Promise<Map<string, string>> {
  if (campaignUids.length === 0) return new Map();
  const rows = await q.query<{ campaign_uid: string; page_uid: string }>(
    'SELECT campaign_uid, page_uid FROM analytics_shows WHERE campaign_uid = ANY($1::text[])',
    [[...campaignUids]],
  );
  return new Map(rows.map((row) => [row.campaign_uid, row.page_uid]));
}

/** Marks shows as seen now (new ones with their store). */
export async function touchShows(
  q: Queryable,
  shows: readonly { campaignUid: string; pageUid: string }[],
  at: number,
): Promise<void> {
  if (shows.length === 0) return;
  await q.query(
    `INSERT INTO analytics_shows (campaign_uid, page_uid, rolled_up_at)
     SELECT * FROM unnest($1::text[], $2::text[]) AS s(campaign_uid, page_uid), (SELECT $3::bigint) AS t
     ON CONFLICT (campaign_uid) DO UPDATE SET rolled_up_at = excluded.rolled_up_at`,
    [shows.map((show) => show.campaignUid), shows.map((show) => show.pageUid), at],
  );
}

/** Shows with events since `since`: their orders are refreshed each tick. */
export async function recentShows(
  q: Queryable,
  since: number,
): Promise<{ campaignUid: string; pageUid: string }[]> {
  const rows = await q.query<{ campaign_uid: string; page_uid: string }>(
    'SELECT campaign_uid, page_uid FROM analytics_shows WHERE rolled_up_at >= $1',
    [since],
  );
  return rows.map((row) => ({ campaignUid: row.campaign_uid, pageUid: row.page_uid }));
}

/** Adds a rolled-up slice to the rollup tables, then recounts the minutes and viewers it touched. */
export async function applyRollup(q: Queryable, rollup: EventRollup): Promise<void> {
  const { minutes, viewerMinutes, viewerProducts } = rollup;
  if (minutes.length > 0) {
    await q.query(
      `INSERT INTO analytics_minutes (campaign_uid, minute, watch_seconds_live, watch_seconds_replay,
         comments, reactions, details_opened, adds)
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::float8[], $4::float8[], $5::int[], $6::int[], $7::int[], $8::int[])
       ON CONFLICT (campaign_uid, minute) DO UPDATE SET
         watch_seconds_live = analytics_minutes.watch_seconds_live + excluded.watch_seconds_live,
         watch_seconds_replay = analytics_minutes.watch_seconds_replay + excluded.watch_seconds_replay,
         comments = analytics_minutes.comments + excluded.comments,
         reactions = analytics_minutes.reactions + excluded.reactions,
         details_opened = analytics_minutes.details_opened + excluded.details_opened,
         adds = analytics_minutes.adds + excluded.adds`,
      [
        minutes.map((m) => m.campaignUid),
        minutes.map((m) => m.minute),
        minutes.map((m) => m.watchSecondsLive),
        minutes.map((m) => m.watchSecondsReplay),
        minutes.map((m) => m.comments),
        minutes.map((m) => m.reactions),
        minutes.map((m) => m.detailsOpened),
        minutes.map((m) => m.adds),
      ],
    );
  }
  if (viewerMinutes.length > 0) {
    await q.query(
      `INSERT INTO analytics_viewer_minutes (campaign_uid, minute, viewer_key, replay, product_shown, watch_seconds)
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::boolean[], $5::boolean[], $6::float8[])
       ON CONFLICT (campaign_uid, minute, viewer_key) DO UPDATE SET
         replay = analytics_viewer_minutes.replay OR excluded.replay,
         product_shown = analytics_viewer_minutes.product_shown OR excluded.product_shown,
         watch_seconds = analytics_viewer_minutes.watch_seconds + excluded.watch_seconds`,
      [
        viewerMinutes.map((v) => v.campaignUid),
        viewerMinutes.map((v) => v.minute),
        viewerMinutes.map((v) => v.viewerKey),
        viewerMinutes.map((v) => v.replay),
        viewerMinutes.map((v) => v.productShown),
        viewerMinutes.map((v) => v.watchSeconds),
      ],
    );
    // Viewers per minute are counted again for the touched minutes (never added up).
    await q.query(
      `WITH touched AS (SELECT DISTINCT * FROM unnest($1::text[], $2::bigint[]) AS t(campaign_uid, minute)),
       counted AS (
         SELECT v.campaign_uid, v.minute,
           count(*) FILTER (WHERE NOT v.replay)::int AS live,
           count(*) FILTER (WHERE v.replay)::int AS replay,
           count(*) FILTER (WHERE v.product_shown)::int AS shown
         FROM analytics_viewer_minutes v JOIN touched t USING (campaign_uid, minute)
         GROUP BY v.campaign_uid, v.minute)
       UPDATE analytics_minutes m SET viewers_live = c.live, viewers_replay = c.replay, product_views = c.shown
       FROM counted c WHERE m.campaign_uid = c.campaign_uid AND m.minute = c.minute`,
      [viewerMinutes.map((v) => v.campaignUid), viewerMinutes.map((v) => v.minute)],
    );
    await q.query(
      `WITH touched AS (SELECT DISTINCT * FROM unnest($1::text[], $2::text[]) AS t(campaign_uid, viewer_key))
       INSERT INTO analytics_viewers (campaign_uid, viewer_key, first_minute, last_minute, minutes, watch_seconds, live, replay)
       SELECT v.campaign_uid, v.viewer_key, min(v.minute), max(v.minute), count(*)::int, sum(v.watch_seconds),
         bool_or(NOT v.replay), bool_or(v.replay)
       FROM analytics_viewer_minutes v JOIN touched t USING (campaign_uid, viewer_key)
       GROUP BY v.campaign_uid, v.viewer_key
       ON CONFLICT (campaign_uid, viewer_key) DO UPDATE SET first_minute = excluded.first_minute,
         last_minute = excluded.last_minute, minutes = excluded.minutes, watch_seconds = excluded.watch_seconds,
         live = excluded.live, replay = excluded.replay`,
      [viewerMinutes.map((v) => v.campaignUid), viewerMinutes.map((v) => v.viewerKey)],
    );
  }
  if (viewerProducts.length > 0) {
    await q.query(
      `INSERT INTO analytics_viewer_products (campaign_uid, product_uid, viewer_key, details_opened, added)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::boolean[], $5::boolean[])
       ON CONFLICT (campaign_uid, product_uid, viewer_key) DO UPDATE SET
         details_opened = analytics_viewer_products.details_opened OR excluded.details_opened,
         added = analytics_viewer_products.added OR excluded.added`,
      [
        viewerProducts.map((v) => v.campaignUid),
        viewerProducts.map((v) => v.productUid),
        viewerProducts.map((v) => v.viewerKey),
        viewerProducts.map((v) => v.detailsOpened),
        viewerProducts.map((v) => v.added),
      ],
    );
  }
}

export interface OrderMinuteRow {
  minute: number;
  currency: string;
  orders: number;
  paidOrders: number;
  /** The items' total (lines), before refunds, without freight. */
  revenue: number;
  /** Freight charged. */
  freight: number;
  /** What was refunded of these orders. */
  refunded: number;
}

export interface ProductOrderRow {
  productUid: string;
  currency: string;
  orders: number;
  paidOrders: number;
  quantity: number;
  revenue: number;
}

/** Locks a show's row for the transaction: nodes refreshing the same show take turns. */
export async function lockShow(q: Queryable, campaignUid: string): Promise<void> {
  await q.query('SELECT 1 FROM analytics_shows WHERE campaign_uid = $1 FOR UPDATE', [campaignUid]);
}

/** Replaces a show's order rollups with `minutes` and `products`. */
export async function replaceShowOrders(
  q: Queryable,
  campaignUid: string,
  minutes: readonly OrderMinuteRow[],
  products: readonly ProductOrderRow[],
): Promise<void> {
  await q.query('DELETE FROM analytics_order_minutes WHERE campaign_uid = $1', [campaignUid]);
  await q.query('DELETE FROM analytics_product_orders WHERE campaign_uid = $1', [campaignUid]);
  if (minutes.length > 0) {
    await q.query(
      `INSERT INTO analytics_order_minutes (campaign_uid, minute, currency, orders, paid_orders, revenue, freight, refunded)
       SELECT $1, * FROM unnest($2::bigint[], $3::text[], $4::int[], $5::int[], $6::bigint[], $7::bigint[], $8::bigint[])`,
      [
        campaignUid,
        minutes.map((m) => m.minute),
        minutes.map((m) => m.currency),
        minutes.map((m) => m.orders),
        minutes.map((m) => m.paidOrders),
        minutes.map((m) => m.revenue),
        minutes.map((m) => m.freight),
        minutes.map((m) => m.refunded),
      ],
    );
  }
  if (products.length > 0) {
    await q.query(
      `INSERT INTO analytics_product_orders (campaign_uid, product_uid, currency, orders, paid_orders, quantity, revenue)
       SELECT $1, * FROM unnest($2::text[], $3::text[], $4::int[], $5::int[], $6::int[], $7::bigint[])`,
      [
        campaignUid,
        products.map((p) => p.productUid),
        products.map((p) => p.currency),
        products.map((p) => p.orders),
        products.map((p) => p.paidOrders),
        products.map((p) => p.quantity),
        products.map((p) => p.revenue),
      ],
    );
  }
}

/** Replaces a show's competition entries per minute. */
export async function replaceCompetitionMinutes(
  q: Queryable,
  campaignUid: string,
  minutes: readonly { minute: number; entries: number }[],
): Promise<void> {
  await q.query('DELETE FROM analytics_competition_minutes WHERE campaign_uid = $1', [campaignUid]);
  if (minutes.length === 0) return;
  await q.query(
    `INSERT INTO analytics_competition_minutes (campaign_uid, minute, entries)
     SELECT $1, * FROM unnest($2::bigint[], $3::int[])`,
    [campaignUid, minutes.map((m) => m.minute), minutes.map((m) => m.entries)],
  );
}

export async function showCompetitionMinutes(
  q: Queryable,
  campaignUid: string,
): Promise<Map<number, number>> {
  const rows = await q.query<{ minute: number; entries: number }>(
    'SELECT minute::float8 AS minute, entries FROM analytics_competition_minutes WHERE campaign_uid = $1',
    [campaignUid],
  );
  return new Map(rows.map((row) => [Number(row.minute), row.entries]));
}

export interface MinuteRow {
  minute: number;
  viewers_live: number;
  viewers_replay: number;
  product_views: number;
  watch_seconds: number;
  comments: number;
  reactions: number;
  details_opened: number;
  adds: number;
}

/** A show's minutes, oldest first. */
export async function showMinutes(q: Queryable, campaignUid: string): Promise<MinuteRow[]> {
  const rows = await q.query<MinuteRow>(
    `SELECT minute::float8 AS minute, viewers_live, viewers_replay, product_views,
       (watch_seconds_live + watch_seconds_replay)::float8 AS watch_seconds, comments, reactions, details_opened, adds
     FROM analytics_minutes WHERE campaign_uid = $1 ORDER BY minute`,
    [campaignUid],
  );
  return rows.map((row) => ({
    ...row,
    minute: Number(row.minute),
    watch_seconds: Number(row.watch_seconds),
  }));
}

export async function showOrderMinutes(q: Queryable, campaignUid: string): Promise<OrderMinuteRow[]> {
  const rows = await q.query<{
    minute: number;
    currency: string;
    orders: number;
    paid_orders: number;
    revenue: number;
    freight: number;
    refunded: number;
  }>(
    `SELECT minute::float8 AS minute, currency, orders, paid_orders, revenue::float8 AS revenue,
       freight::float8 AS freight, refunded::float8 AS refunded
     FROM analytics_order_minutes WHERE campaign_uid = $1 ORDER BY minute, currency`,
    [campaignUid],
  );
  return rows.map((row) => ({
    minute: Number(row.minute),
    currency: row.currency,
    orders: row.orders,
    paidOrders: row.paid_orders,
    revenue: Number(row.revenue),
    freight: Number(row.freight),
    refunded: Number(row.refunded),
  }));
}

export async function showProductOrders(q: Queryable, campaignUid: string): Promise<ProductOrderRow[]> {
  const rows = await q.query<{
    product_uid: string;
    currency: string;
    orders: number;
    paid_orders: number;
    quantity: number;
    revenue: number;
  }>(
    `SELECT product_uid, currency, orders, paid_orders, quantity, revenue::float8 AS revenue
     FROM analytics_product_orders WHERE campaign_uid = $1 ORDER BY product_uid, currency`,
    [campaignUid],
  );
  return rows.map((row) => ({
    productUid: row.product_uid,
    currency: row.currency,
    orders: row.orders,
    paidOrders: row.paid_orders,
    quantity: row.quantity,
    revenue: Number(row.revenue),
  }));
}

export interface ViewerTotalsRow {
  unique_viewers: number;
  live_viewers: number;
  replay_viewers: number;
  watch_seconds: number;
}

export async function showViewerTotals(q: Queryable, campaignUid: string): Promise<ViewerTotalsRow> {
  const [row] = await q.query<ViewerTotalsRow>(
    `SELECT count(*)::int AS unique_viewers, count(*) FILTER (WHERE live)::int AS live_viewers,
       count(*) FILTER (WHERE replay)::int AS replay_viewers, COALESCE(sum(watch_seconds), 0)::float8 AS watch_seconds
     FROM analytics_viewers WHERE campaign_uid = $1`,
    [campaignUid],
  );
  return {
    unique_viewers: row?.unique_viewers ?? 0,
    live_viewers: row?.live_viewers ?? 0,
    replay_viewers: row?.replay_viewers ?? 0,
    watch_seconds: Number(row?.watch_seconds ?? 0),
  };
}

/** How many viewers watched each number of minutes (the retention curve's input). */
export async function showWatchHistogram(q: Queryable, campaignUid: string): Promise<Map<number, number>> {
  const rows = await q.query<{ minutes: number; viewers: number }>(
    'SELECT minutes, count(*)::int AS viewers FROM analytics_viewers WHERE campaign_uid = $1 GROUP BY minutes',
    [campaignUid],
  );
  return new Map(rows.map((row) => [row.minutes, row.viewers]));
}

/** Viewers grouped by their first and last minute (who was there during a chapter). */
export async function showViewerSpans(
  q: Queryable,
  campaignUid: string,
): Promise<{ firstMinute: number; lastMinute: number; count: number }[]> {
  const rows = await q.query<{ first_minute: number; last_minute: number; count: number }>(
    `SELECT first_minute::float8 AS first_minute, last_minute::float8 AS last_minute, count(*)::int AS count
     FROM analytics_viewers WHERE campaign_uid = $1 GROUP BY first_minute, last_minute`,
    [campaignUid],
  );
  return rows.map((row) => ({
    firstMinute: Number(row.first_minute),
    lastMinute: Number(row.last_minute),
    count: row.count,
  }));
}

/** Viewers who opened each product's details and who added it. */
export async function showProductViewers(
  q: Queryable,
  campaignUid: string,
): Promise<Map<string, { detailsOpened: number; added: number }>> {
  const rows = await q.query<{ product_uid: string; details_opened: number; added: number }>(
    `SELECT product_uid, count(*) FILTER (WHERE details_opened)::int AS details_opened,
       count(*) FILTER (WHERE added)::int AS added
     FROM analytics_viewer_products WHERE campaign_uid = $1 GROUP BY product_uid`,
    [campaignUid],
  );
  return new Map(
    rows.map((row) => [row.product_uid, { detailsOpened: row.details_opened, added: row.added }]),
  );
}

export interface ShowTotalsRow {
  campaign_uid: string;
  unique_viewers: number;
  peak_viewers: number;
  watch_seconds: number;
}

/** Viewer totals of many shows at once (the store overview). */
export async function showsTotals(
  q: Queryable,
  campaignUids: readonly string[],
): Promise<Map<string, ShowTotalsRow>> {
  if (campaignUids.length === 0) return new Map();
  const rows = await q.query<ShowTotalsRow>(
    `SELECT s.campaign_uid,
       (SELECT count(*)::int FROM analytics_viewers v WHERE v.campaign_uid = s.campaign_uid) AS unique_viewers,
       (SELECT COALESCE(max(m.viewers_live + m.viewers_replay), 0)::int FROM analytics_minutes m
        WHERE m.campaign_uid = s.campaign_uid) AS peak_viewers,
       (SELECT COALESCE(sum(v.watch_seconds), 0)::float8 FROM analytics_viewers v
        WHERE v.campaign_uid = s.campaign_uid) AS watch_seconds
     FROM unnest($1::text[]) AS s(campaign_uid)`,
    [[...campaignUids]],
  );
  return new Map(rows.map((row) => [row.campaign_uid, { ...row, watch_seconds: Number(row.watch_seconds) }]));
}

/** Orders and revenue per currency of many shows at once. */
export async function showsOrders(
  q: Queryable,
  campaignUids: readonly string[],
): Promise<{ campaignUid: string; currency: string; orders: number; revenue: number }[]> {
  if (campaignUids.length === 0) return [];
  const rows = await q.query<{ campaign_uid: string; currency: string; orders: number; revenue: number }>(
    `SELECT campaign_uid, currency, sum(orders)::int AS orders, sum(revenue)::float8 AS revenue
     FROM analytics_order_minutes WHERE campaign_uid = ANY($1::text[]) GROUP BY campaign_uid, currency`,
    [[...campaignUids]],
  );
  return rows.map((row) => ({
    campaignUid: row.campaign_uid,
    currency: row.currency,
    orders: row.orders,
    revenue: Number(row.revenue),
  }));
}
