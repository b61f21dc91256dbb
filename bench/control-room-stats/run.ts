/**
 * The control room's live numbers (issue 16 §5): what one `getControlRoomStats` costs on a live
 * show one hour in, with `--viewers` viewers' tracking events (heartbeats with their delay every
 * 30 s, reactions, comments, adds) and orders, on PGlite and on PostgreSQL, beside same-run
 * baselines:
 *
 * - cold: the figures computed (the first asker of a second: presence, tracking, orders,
 *   competitions, presentations, the stream);
 * - shared: another asker within the same second (the host and each moderator ask every second);
 * - baseline `getShow`: an ordinary studio read of the same show (its line-up and links);
 * - baseline `getShowAnalytics`: the show's analytics report, the other page with its figures;
 * - baseline adds read whole: the adds to cart alone, read from all the show's events (what each
 *   second cost before the room kept a settled count of them).
 *
 *   node --import tsx bench/control-room-stats/run.ts [--db pglite,postgres] [--viewers 1000] [--runs 30]
 *     [--database-url postgres://…]
 */
import { parseArgs } from 'node:util';
import type { ControlRoomStats } from '@vitrine/protocol';
import { ROOM_STATS_SHARED_MS } from '../../apps/server/src/features/control-room/control-room-service.ts';
import { signInStaff } from '../../apps/server/src/test-support/studio-staff.ts';
import { openTestApp } from '../../apps/server/src/test-support/test-app.ts';
import {
  type App,
  DATABASE_OPTIONS,
  onEachDatabase,
  percentile,
  seedStoreWithShow,
} from '../support/in-process-app.ts';

const PAGE = 'bench-room-shop';
const SHOW = 'bench-room-show';
const PRODUCTS = Array.from({ length: 10 }, (_, index) => `bench-room-product-${index}`);
const MINUTES = 60;

const { values: args } = parseArgs({
  options: {
    ...DATABASE_OPTIONS,
    viewers: { type: 'string', default: '1000' },
    runs: { type: 'string', default: '30' },
  },
});
const VIEWERS = Number(args.viewers);
const RUNS = Number(args.runs);

const summary = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return {
    p50: Number(percentile(sorted, 0.5).toFixed(1)),
    p99: Number(percentile(sorted, 0.99).toFixed(1)),
  };
};

async function seed(app: App, start: number): Promise<number> {
  await seedStoreWithShow(app, {
    page: PAGE,
    show: SHOW,
    products: PRODUCTS,
    start,
    showFields: { currentStatus: 'live' },
  });
  // Every viewer for the hour but its last minute (written just before the runs): two heartbeats a
  // minute (with the delay), a reaction, and now and then a comment or an add to cart.
  for (let first = 1; first <= VIEWERS; first += 500) {
    const last = Math.min(VIEWERS, first + 499);
    await app.db.query(
      `INSERT INTO tracking_events (received_at, tracking_event, page_uid, campaign_uid, event_uid, payload,
         viewer_uid, replay, watched_seconds, product_uid, product_shown)
       SELECT to_timestamp(($1::bigint + m * 60000 + k * 15000 + v % 15000) / 1000.0),
         CASE WHEN k <= 2 THEN 'player.heartbeat' WHEN k = 3 THEN 'user.reacted'
              WHEN (v + m) % 5 = 0 THEN 'user.commented'
              WHEN (v * m) % 37 = 0 THEN 'cart.added-to-cart'
              ELSE 'catalog.scrolled-to-playing-product' END,
         $2, $3, $3,
         CASE WHEN k <= 2 THEN jsonb_build_object('delayMs', 1500 + v % 3000) ELSE '{}'::jsonb END,
         'bench-viewer-' || v, false, CASE WHEN k <= 2 THEN 30 ELSE 0 END,
         'bench-room-product-' || (m / 6), true
       FROM generate_series($4::int, $5::int) AS v, generate_series(0, ${MINUTES - 2}) AS m, generate_series(1, 4) AS k`,
      [start, PAGE, SHOW, first, last],
    );
  }
  const orders = Math.max(1, Math.floor(VIEWERS / 50));
  await app.db.query(
    `INSERT INTO users (uid, name, is_anonymous) SELECT 'bench-room-buyer-' || n, 'Buyer', true FROM generate_series(1, $1) AS n`,
    [orders],
  );
  await app.db.query(
    `INSERT INTO checkouts (uid, page_uid, campaign_uid, user_uid, status, currency, language, order_number,
       ordered_at, payed, created_at, updated_at)
     SELECT 'bench-room-order-' || n, $1, $2, 'bench-room-buyer-' || n, 'ordered', 'DKK', 'da', nextval('order_numbers'),
       $3::bigint + (n % ${MINUTES}) * 60000, true, $3::bigint, $3::bigint
     FROM generate_series(1, $4) AS n`,
    [PAGE, SHOW, start, orders],
  );
  await app.db.query(
    `INSERT INTO checkout_lines (checkout_uid, product_uid, qty, unit_price, product_name, added_at)
     SELECT 'bench-room-order-' || n, 'bench-room-product-' || (n % 10), 1, 10000, 'Product', $1::bigint
     FROM generate_series(1, $2) AS n`,
    [start, orders],
  );
  const [row] = await app.db.query<{ count: number }>('SELECT count(*)::int AS count FROM tracking_events');
  return row?.count ?? 0;
}

async function runOn(app: App, db: 'pglite' | 'postgres'): Promise<void> {
  const start = Date.now() - MINUTES * 60_000;
  const events = await seed(app, start);
  // Present a product, as the room shows a presented product's figures.
  await app.services.controlRoom.present(PAGE, SHOW, PRODUCTS[0] as string);
  const owner = await signInStaff(app, PAGE, 'owner');
  const get = async (url: string) => {
    const began = performance.now();
    const response = await app.server.inject({ method: 'GET', url, headers: owner.headers });
    const took = performance.now() - began;
    if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
    return { took, body: response.json() };
  };
  // Seeding takes a while: the last minute's events are written now, just before the runs.
  await app.db.query(
    `INSERT INTO tracking_events (received_at, tracking_event, page_uid, campaign_uid, event_uid, payload,
       viewer_uid, replay, watched_seconds, product_uid, product_shown)
     SELECT now() - make_interval(secs => k * 5),
       CASE WHEN k <= 2 THEN 'player.heartbeat' WHEN k = 3 THEN 'user.reacted' ELSE 'user.commented' END,
       $1, $2, $2,
       CASE WHEN k <= 2 THEN jsonb_build_object('delayMs', 1500 + v % 3000) ELSE '{}'::jsonb END,
       'bench-viewer-' || v, false, CASE WHEN k <= 2 THEN 30 ELSE 0 END, NULL, true
     FROM generate_series(1, $3::int) AS v, generate_series(1, 4) AS k
     WHERE k < 4 OR v % 5 = 0`,
    [PAGE, SHOW, VIEWERS],
  );
  const room = `/staff/stores/${PAGE}/shows/${SHOW}/control-room/stats`;
  const cold: number[] = [];
  const shared: number[] = [];
  const show: number[] = [];
  const analytics: number[] = [];
  const fullScan: number[] = [];
  let last: ControlRoomStats | null = null;
  for (let run = -2; run < RUNS; run++) {
    // Past the shared second: the first call computes the figures, the second shares them.
    await new Promise((resolve) => setTimeout(resolve, ROOM_STATS_SHARED_MS + 50));
    const first = await get(room);
    const second = await get(room);
    const plain = await get(`/staff/stores/${PAGE}/shows/${SHOW}`);
    const report = await get(`/staff/stores/${PAGE}/analytics/shows/${SHOW}`);
    // What the adds alone cost when the whole show's events are read every second (no settled count).
    const scanBegan = performance.now();
    await app.services.tracking.showAddsToCart(PAGE, SHOW, 0, null);
    const scanTook = performance.now() - scanBegan;
    // The figures of the first run, while the last minute's events are all within the minute.
    if (run === 0) last = first.body as ControlRoomStats;
    if (run < 0) continue; // warm-up
    cold.push(first.took);
    shared.push(second.took);
    show.push(plain.took);
    analytics.push(report.took);
    fullScan.push(scanTook);
  }
  console.log(
    JSON.stringify({
      bench: 'control-room-stats',
      db,
      viewers: VIEWERS,
      trackingEvents: events,
      runs: RUNS,
      ours: { coldMs: summary(cold), sharedMs: summary(shared) },
      baseline: {
        getShowMs: summary(show),
        getShowAnalyticsMs: summary(analytics),
        addsReadWholeShowMs: summary(fullScan),
      },
      figures: last && {
        commentsPerMinute: last.commentsPerMinute,
        reactionsPerMinute: last.reactionsPerMinute,
        addsToCart: last.addsToCart,
        orders: last.orders,
        medianDelayMs: last.medianDelayMs,
        delayReports: last.delayReports,
      },
    }),
  );
}

await onEachDatabase(args, () => openTestApp(), runOn);
