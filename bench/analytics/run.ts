/**
 * Show analytics benchmark (issue 17), on PGlite and on PostgreSQL, each in one run beside its
 * baseline:
 *
 * 1. Ingest: tracking events through the real route (`POST /shopapiv2/tracking`: body parsing,
 *    schema, rate limiter, one multi-row INSERT) in batches of 50 (what the player's queue sends),
 *    `--concurrency` requests in flight; events/s and p50/p99 per batch. Baseline: the same events
 *    one per request (the player before batching).
 * 2. Report: a 2-hour show with `--viewers` viewers (10,000: about 5 million synthetic raw events,
 *    written by SQL) is rolled up by the analytics job (timed), then its report is asked through
 *    the real studio call (`GET …/analytics/shows/:showUid`) `--runs` times: p50/p95. Baseline: the
 *    report's main figures computed from the raw events instead of the rollups.
 *
 *   node --import tsx bench/analytics/run.ts [--db pglite,postgres] [--viewers 10000]
 *     [--ingest 100000] [--concurrency 8] [--runs 20] [--parts ingest,report] [--database-url postgres://…]
 */
import { parseArgs } from 'node:util';
import type { ShowAnalytics, TrackingEventInput } from '@vitrine/protocol';
import { signInStaff } from '../../apps/server/src/test-support/studio-staff.ts';
import { openTestApp } from '../../apps/server/src/test-support/test-app.ts';
import {
  type App,
  admin,
  DATABASE_OPTIONS,
  onEachDatabase,
  percentile,
  seedStoreWithShow,
} from '../support/in-process-app.ts';

const PAGE = 'bench-analytics-shop';
const SHOW = 'bench-analytics-show';
const PRODUCTS = Array.from({ length: 10 }, (_, index) => `bench-product-${index}`);
const MINUTES = 120;
const BATCH = 50;

const { values: args } = parseArgs({
  options: {
    ...DATABASE_OPTIONS,
    viewers: { type: 'string', default: '10000' },
    ingest: { type: 'string', default: '100000' },
    concurrency: { type: 'string', default: '8' },
    runs: { type: 'string', default: '20' },
    parts: { type: 'string', default: 'ingest,report' },
  },
});
const VIEWERS = Number(args.viewers);
const INGEST = Number(args.ingest);
const CONCURRENCY = Number(args.concurrency);
const RUNS = Number(args.runs);
const PARTS = new Set(args.parts.split(','));

const ms = (value: number) => Number(value.toFixed(1));

/** The store, its 2-hour show starting at `start` and ten products, each presented 12 minutes. */
async function seedShow(app: App, start: number): Promise<void> {
  await seedStoreWithShow(app, {
    page: PAGE,
    show: SHOW,
    products: PRODUCTS,
    start,
    showFields: { currentStatus: 'vod', liveEndTime: start + MINUTES * 60_000 },
  });
  for (const [index, productUid] of PRODUCTS.entries()) {
    await admin(app, 'POST', `/admin/events/${SHOW}/products/${productUid}/cues`, {
      source: 'bench',
      presentationStartTimestamp: start + index * 12 * 60_000,
      presentationEndTimestamp: start + (index + 1) * 12 * 60_000,
    });
  }
}

/**
 * 5 events per viewer-minute for VIEWERS viewers: viewer v watches from minute v % 20 to
 * minute 120 - v % 10 (≈105 minutes; the last ten minutes a third of them on the replay), two
 * heartbeats a minute, a reaction, a product event (details opened of the product on screen, now
 * and then an add to cart, else a scroll) and a comment or an image switch.
 */
async function seedRawEvents(app: App, start: number): Promise<number> {
  for (let first = 1; first <= VIEWERS; first += 1_000) {
    const last = Math.min(VIEWERS, first + 999);
    await app.db.query(
      `INSERT INTO tracking_events (received_at, tracking_event, page_uid, campaign_uid, event_uid, payload,
         viewer_uid, replay, watched_seconds, product_uid, product_shown)
       SELECT to_timestamp(($1::bigint + m * 60000 + k * 11000 + v % 10000) / 1000.0),
         CASE WHEN k <= 2 THEN 'player.heartbeat' WHEN k = 3 THEN 'user.reacted'
              WHEN (v + m) % 7 = 0 THEN 'catalog.viewed-product-details'
              WHEN k = 5 AND (v + m) % 5 = 0 THEN 'user.commented'
              WHEN k = 5 THEN 'catalog.switched-product-image'
              WHEN (v * m) % 97 = 0 THEN 'cart.added-to-cart'
              ELSE 'catalog.scrolled-to-playing-product' END,
         $2, $3, $3, '{}'::jsonb, 'bench-viewer-' || v, m >= 110 AND v % 3 = 0,
         CASE WHEN k <= 2 THEN 30 ELSE 0 END,
         CASE WHEN k = 4 THEN 'bench-product-' || (m / 12) END, true
       FROM generate_series($4::int, $5::int) AS v, generate_series(0, ${MINUTES - 1}) AS m, generate_series(1, 5) AS k
       WHERE m >= v % 20 AND m < ${MINUTES} - v % 10`,
      [start, PAGE, SHOW, first, last],
    );
  }
  const [row] = await app.db.query<{ count: number }>('SELECT count(*)::int AS count FROM tracking_events');
  return row?.count ?? 0;
}

/** Orders of the show: one per 50 viewers, a line of the product on screen, most paid. */
async function seedOrders(app: App, start: number): Promise<void> {
  const orders = Math.max(1, Math.floor(VIEWERS / 50));
  await app.db.query(
    `INSERT INTO users (uid, name, is_anonymous) SELECT 'bench-buyer-' || n, 'Buyer', true FROM generate_series(1, $1) AS n`,
    [orders],
  );
  await app.db.query(
    `INSERT INTO checkouts (uid, page_uid, campaign_uid, user_uid, status, currency, language, order_number,
       ordered_at, payed, created_at, updated_at)
     SELECT 'bench-order-' || n, $1, $2, 'bench-buyer-' || n, 'ordered', 'DKK', 'da', nextval('order_numbers'),
       $3::bigint + (n % ${MINUTES}) * 60000 + 30000, n % 5 <> 0, $3::bigint, $3::bigint
     FROM generate_series(1, $4) AS n`,
    [PAGE, SHOW, start, orders],
  );
  await app.db.query(
    `INSERT INTO checkout_lines (checkout_uid, product_uid, qty, unit_price, product_name, added_at)
     SELECT 'bench-order-' || n, 'bench-product-' || ((n % ${MINUTES}) / 12), 1, 10000, 'Product', $1::bigint
     FROM generate_series(1, $2) AS n`,
    [start, orders],
  );
}

/** The report's main figures straight from the raw events, as a report without rollups would. */
async function reportFromRawEvents(app: App): Promise<void> {
  await app.db.query(
    `SELECT date_trunc('minute', received_at) AS minute,
       count(DISTINCT viewer_uid) FILTER (WHERE NOT replay) AS live,
       count(DISTINCT viewer_uid) FILTER (WHERE replay) AS replay,
       sum(watched_seconds) AS watch, count(*) FILTER (WHERE tracking_event = 'user.reacted') AS reactions,
       count(*) FILTER (WHERE tracking_event = 'cart.added-to-cart') AS adds
     FROM tracking_events WHERE campaign_uid = $1 GROUP BY 1 ORDER BY 1`,
    [SHOW],
  );
  await app.db.query(
    `SELECT count(*) AS viewers, avg(minutes) FROM (
       SELECT viewer_uid, count(DISTINCT date_trunc('minute', received_at)) AS minutes
       FROM tracking_events WHERE campaign_uid = $1 GROUP BY viewer_uid) AS per_viewer`,
    [SHOW],
  );
  await app.db.query(
    `SELECT product_uid, count(DISTINCT viewer_uid) FILTER (WHERE tracking_event = 'catalog.viewed-product-details'),
       count(DISTINCT viewer_uid) FILTER (WHERE tracking_event = 'cart.added-to-cart')
     FROM tracking_events WHERE campaign_uid = $1 AND product_uid IS NOT NULL GROUP BY product_uid`,
    [SHOW],
  );
}

/** Sends `total` events as requests of `perRequest`, `CONCURRENCY` at a time; per-request times. */
async function ingest(app: App, total: number, perRequest: number, viewerBase: number) {
  const times: number[] = [];
  let sent = 0;
  const event = (index: number): TrackingEventInput => ({
    trackingEvent: index % 3 === 0 ? 'player.heartbeat' : 'catalog.scrolled-to-playing-product',
    timestamp: Date.now(),
    pageUid: PAGE,
    campaignUid: 'bench-ingest-show',
    eventUid: 'bench-ingest-show',
    eventStatus: 'live',
    viewerUid: `ingest-viewer-${viewerBase + (index % 5_000)}`,
    playback: 'live',
    watchedSeconds: index % 3 === 0 ? 30 : null,
    playingProducts: ['bench-product-1'],
    trackingInfo: { productUid: 'bench-product-1' },
    viewerUrl: 'https://shop.example/live/bench',
  });
  const began = performance.now();
  const worker = async () => {
    while (sent < total) {
      const from = sent;
      sent += perRequest;
      const events = Array.from({ length: Math.min(perRequest, total - from) }, (_, i) => event(from + i));
      const body = events.length === 1 ? events[0] : { events };
      const before = performance.now();
      const response = await app.server.inject({
        method: 'POST',
        url: '/shopapiv2/tracking',
        headers: { 'content-type': 'text/plain;charset=UTF-8' },
        payload: JSON.stringify(body),
      });
      times.push(performance.now() - before);
      if (response.statusCode !== 204) throw new Error(`tracking: ${response.statusCode} ${response.body}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - began) / 1000;
  times.sort((a, b) => a - b);
  return {
    events: total,
    eventsPerSecond: Math.round(total / seconds),
    p50Ms: ms(percentile(times, 0.5)),
    p99Ms: ms(percentile(times, 0.99)),
  };
}

async function benchmark(app: App, kind: 'pglite' | 'postgres'): Promise<void> {
  const start = Date.now() - 3 * 60 * 60_000;
  await seedShow(app, start);

  // 1. Ingest, batched and (baseline) one event per request.
  if (PARTS.has('ingest')) {
    await ingest(app, 2_000, BATCH, 0); // warm-up
    const batched = await ingest(app, INGEST, BATCH, 10_000);
    const single = await ingest(app, Math.max(1_000, Math.floor(INGEST / 10)), 1, 20_000);
    console.log(
      JSON.stringify({
        bench: 'analytics-ingest',
        db: kind,
        batchSize: BATCH,
        concurrency: CONCURRENCY,
        batched,
        baselineOnePerRequest: single,
      }),
    );
    await app.db.query('TRUNCATE tracking_events');
  }
  if (!PARTS.has('report')) return;

  // 2. The 2-hour show: raw events, rollup, report.
  let seeding = performance.now();
  const rawEvents = await seedRawEvents(app, start);
  await seedOrders(app, start);
  await app.db.query('ANALYZE tracking_events');
  const seededMs = performance.now() - seeding;
  seeding = performance.now();
  let rolled = 0;
  for (;;) {
    const read = await app.services.analytics.rollup();
    rolled += read;
    if (read === 0) break;
  }
  const rollupMs = performance.now() - seeding;
  await app.db.query('ANALYZE analytics_viewers');
  await app.db.query('ANALYZE analytics_minutes');
  const owner = await signInStaff(app, PAGE, 'owner');
  const report = async () => {
    const response = await app.server.inject({
      method: 'GET',
      url: `/staff/stores/${PAGE}/analytics/shows/${SHOW}`,
      headers: owner.headers,
    });
    if (response.statusCode !== 200) throw new Error(`report: ${response.statusCode} ${response.body}`);
    return response.json() as ShowAnalytics;
  };
  const time = async (run: () => Promise<unknown>, runs: number) => {
    const times: number[] = [];
    for (let warm = 0; warm < 2; warm++) await run();
    for (let index = 0; index < runs; index++) {
      const before = performance.now();
      await run();
      times.push(performance.now() - before);
    }
    times.sort((a, b) => a - b);
    return { p50Ms: ms(percentile(times, 0.5)), p95Ms: ms(percentile(times, 0.95)) };
  };
  const answer = await report();
  const fromRollups = await time(report, RUNS);
  const fromRawEvents = await time(() => reportFromRawEvents(app), Math.max(3, Math.floor(RUNS / 5)));
  console.log(
    JSON.stringify({
      bench: 'analytics-report',
      db: kind,
      viewers: VIEWERS,
      minutes: MINUTES,
      rawEvents,
      seededMs: Math.round(seededMs),
      rollup: {
        events: rolled,
        ms: Math.round(rollupMs),
        eventsPerSecond: Math.round(rolled / (rollupMs / 1000)),
      },
      report: fromRollups,
      baselineFromRawEvents: fromRawEvents,
      check: {
        uniqueViewers: answer.totals.uniqueViewers,
        peakViewers: answer.totals.peakViewers,
        orders: answer.totals.orders,
        minutes: answer.minutes.length,
        chapters: answer.chapters.length,
      },
    }),
  );
}

// A timer that never fires: the benchmark runs the rollup itself.
const openApp = () =>
  openTestApp({ env: { VITRINE_TRACKING_LIMIT: '1000000' }, analyticsTimer: () => () => {} });
await onEachDatabase(args, openApp, benchmark);
