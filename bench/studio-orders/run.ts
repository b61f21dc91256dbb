/**
 * Studio orders benchmark (issue 14): how long the studio takes to list, filter and search a
 * store's 10,000 orders, on PGlite and on PostgreSQL. Each database gets a store with three shows
 * and `--orders` placed orders (a quarter paid, a fifth sent to packing, one to three lines each)
 * written in bulk; then each call of the order list runs `--runs` times through the real server
 * (staff gate, schemas, answer check) as the store's owner, and its p50/p95 are printed.
 *
 *   node --import tsx bench/studio-orders/run.ts [--orders 10000] [--runs 40] [--db pglite,postgres]
 *     [--database-url postgres://postgres@127.0.0.1:5432/test]
 */
import { parseArgs } from 'node:util';
import type { StudioOrderSummary } from '@vitrine/protocol';
import { signInStaff } from '../../apps/server/src/test-support/studio-staff.ts';
import { openTestApp } from '../../apps/server/src/test-support/test-app.ts';
import { type App, admin, DATABASE_OPTIONS, onEachDatabase, percentile } from '../support/in-process-app.ts';

const PAGE = 'bench-orders-shop';
const CAMPAIGNS = ['bench-show-spring', 'bench-show-summer', 'bench-show-autumn'];

const { values: args } = parseArgs({
  options: {
    orders: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '40' },
    ...DATABASE_OPTIONS,
  },
});
const ORDERS = Number(args.orders);
const RUNS = Number(args.runs);

/** The store, its shows and ORDERS orders of ORDERS shoppers, written with set-based SQL. */
async function seed(app: App, start: number): Promise<void> {
  await admin(app, 'PUT', `/admin/pages/${PAGE}`, { name: 'Bench shop', language: 'da', currency: 'DKK' });
  for (const [index, campaign] of CAMPAIGNS.entries()) {
    await admin(app, 'PUT', `/admin/pages/${PAGE}/campaigns/${campaign}`, {
      name: `Show ${index + 1}`,
      deadline: null,
    });
  }
  await app.db.query(
    `INSERT INTO users (uid, name, is_anonymous, email)
     SELECT 'bench-user-' || n, 'Shopper ' || n, false, 'shopper' || n || '@example.com'
     FROM generate_series(1, $1) AS n`,
    [ORDERS],
  );
  await app.db.query(
    `INSERT INTO checkouts (uid, page_uid, campaign_uid, user_uid, status, currency, language, details,
       order_number, ordered_at, locked_at, payed, created_at, updated_at)
     SELECT 'bench-order-' || n, $1, ($2::text[])[1 + n % 3], 'bench-user-' || n,
       CASE WHEN n % 5 = 0 THEN 'locked' ELSE 'ordered' END, 'DKK', 'da',
       jsonb_build_object(
         'deliveryCountry', 'DK', 'shippingMethod', 'home_delivery', 'paymentMethod', 'test_card',
         'pickupLocationUid', null, 'parcelShopId', null, 'termsAccepted', true,
         'address', jsonb_build_object('name', 'Shopper ' || n, 'emailAddress', 'shopper' || n || '@example.com',
           'address', 'Street ' || n, 'postCode', '8000', 'city', 'Aarhus C', 'phone', '', 'note', '',
           'firstName', 'Shopper', 'lastName', n::text, 'postcodeAndCity', '8000 Aarhus C', 'commentField', '')),
       nextval('order_numbers'), $3::bigint + n * 60000, CASE WHEN n % 5 = 0 THEN $3::bigint + n * 60000 + 1000 END,
       n % 4 = 0, $3::bigint + n * 60000 - 5000, $3::bigint + n * 60000
     FROM generate_series(1, $4) AS n`,
    [PAGE, CAMPAIGNS, start, ORDERS],
  );
  await app.db.query(
    `INSERT INTO checkout_lines (checkout_uid, product_uid, variant_uid, qty, unit_price, product_name, sku, added_at)
     SELECT 'bench-order-' || n, 'product-' || line, '', 1 + n % 2, 9900 + line * 1000, 'Product ' || line,
       'SKU-' || line, $1::bigint + n * 60000 - 4000
     FROM generate_series(1, $2) AS n, generate_series(1, 3) AS line
     WHERE line <= 1 + n % 3`,
    [start, ORDERS],
  );
}

async function benchmark(app: App, kind: 'pglite' | 'postgres'): Promise<void> {
  const start = Date.UTC(2026, 0, 1);
  const seeding = performance.now();
  await seed(app, start);
  // Fresh statistics, as autovacuum would have them on a live server.
  await app.db.query('ANALYZE checkouts');
  await app.db.query('ANALYZE checkout_lines');
  const seeded = performance.now() - seeding;
  const owner = await signInStaff(app, PAGE, 'owner');
  const list = async (query: string) => {
    const response = await app.server.inject({
      method: 'GET',
      url: `/staff/stores/${PAGE}/orders?${query}`,
      headers: owner.headers,
    });
    if (response.statusCode !== 200) throw new Error(`${query}: ${response.statusCode} ${response.body}`);
    return response.json() as { orders: StudioOrderSummary[]; nextAfter: string | null };
  };
  // The cursor of page 100 (orders 4,951–5,000 of the newest first).
  let deep: string | null = null;
  for (let page = 0; page < Math.min(99, Math.floor(ORDERS / 50) - 1); page++) {
    deep = (await list(`limit=50${deep ? `&after=${encodeURIComponent(deep)}` : ''}`)).nextAfter;
  }
  const middle = start + Math.floor(ORDERS / 2) * 60_000;
  const someNumber = (await list('limit=1&q=Shopper%204242')).orders[0]?.orderNumber ?? 100_001;
  const scenarios: [string, string][] = [
    ['first page (50 newest)', 'limit=50'],
    ['page 100 (keyset cursor)', `limit=50&after=${encodeURIComponent(deep ?? '')}`],
    ['filter: one show', `limit=50&campaignUid=${CAMPAIGNS[1]}`],
    ['filter: paid', 'limit=50&paid=true'],
    ['filter: unpaid + sent to packing', 'limit=50&paid=false&status=locked'],
    ['filter: one day', `limit=50&from=${middle}&to=${middle + 86_400_000}`],
    [
      'filter: show + paid + week',
      `limit=50&campaignUid=${CAMPAIGNS[2]}&paid=true&from=${middle}&to=${middle + 7 * 86_400_000}`,
    ],
    ['search: order number', `limit=50&q=${someNumber}`],
    ['search: name (part)', 'limit=50&q=Shopper%20777'],
    ['search: e-mail (part)', 'limit=50&q=shopper9876%40'],
    ['search: no match', 'limit=50&q=nobody-at-all'],
  ];
  console.log(`\n${kind}: ${ORDERS} orders seeded in ${(seeded / 1000).toFixed(1)} s; ${RUNS} runs per call`);
  console.log(`${'call'.padEnd(36)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'rows'.padStart(6)}`);
  for (const [name, query] of scenarios) {
    for (let warm = 0; warm < 3; warm++) await list(query);
    const times: number[] = [];
    let rows = 0;
    for (let run = 0; run < RUNS; run++) {
      const before = performance.now();
      rows = (await list(query)).orders.length;
      times.push(performance.now() - before);
    }
    times.sort((a, b) => a - b);
    console.log(
      `${name.padEnd(36)} ${percentile(times, 0.5).toFixed(1).padStart(8)} ${percentile(times, 0.95).toFixed(1).padStart(8)} ${String(rows).padStart(6)}`,
    );
  }
  const exporting = performance.now();
  const exported = await app.server.inject({
    method: 'GET',
    url: `/staff/stores/${PAGE}/orders/export?campaignUid=${CAMPAIGNS[0]}`,
    headers: owner.headers,
  });
  const rows = (exported.json() as { rows: number }).rows;
  console.log(`CSV export of one show: ${rows} rows in ${(performance.now() - exporting).toFixed(0)} ms`);
}

await onEachDatabase(args, () => openTestApp(), benchmark);
