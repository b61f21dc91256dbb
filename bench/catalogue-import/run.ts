/**
 * Catalogue import benchmark: a Shopify product CSV of 1,000 products (4 variants each, so 4,000
 * rows, with images and HTML descriptions) sent to the real server on PGlite: the dry run, the
 * import that creates them, the dry run and import of the same file again (1,000 updates), and
 * the export. Times are wall-clock per HTTP call, on a server started fresh. See README.md.
 *
 *   node --import tsx bench/catalogue-import/run.ts [--products 1000] [--db pglite]
 *     [--database-url postgres://postgres@127.0.0.1:5432/vitrine_bench_catalogue]
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort, freshDatabase, installCleanup, stopChild, trackTempDir } from '../realtime-fanout/proc.ts';
import { benchServerEnv, onDatabase } from '../support/server-env.ts';
import { answersOk, REPO, spawnWithTail, waitUntilReady } from '../support/server-process.ts';

const PAGE = 'bench-catalogue-shop';

installCleanup();

const { values: args } = parseArgs({
  options: {
    products: { type: 'string', default: '1000' },
    db: { type: 'string', default: 'pglite' },
    'database-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/vitrine_bench_catalogue' },
  },
});
const productCount = Number(args.products);
const adminKey = randomBytes(24).toString('base64url');

const HEADER = [
  'Handle',
  'Title',
  'Body (HTML)',
  'Vendor',
  'Type',
  'Tags',
  'Published',
  'Option1 Name',
  'Option1 Value',
  'Option2 Name',
  'Option2 Value',
  'Variant SKU',
  'Variant Inventory Tracker',
  'Variant Inventory Qty',
  'Variant Price',
  'Image Src',
  'Image Position',
  'Status',
];

/** The file: every product with Size S/M × Colour Sand/Sage, two images and a short HTML body. */
function catalogueCsv(products: number): string {
  const lines = [HEADER.join(',')];
  for (let p = 1; p <= products; p++) {
    const handle = `bench-product-${p}`;
    let row = 0;
    for (const size of ['S', 'M'])
      for (const colour of ['Sand', 'Sage']) {
        row++;
        const first = row === 1;
        lines.push(
          [
            handle,
            first ? `Bench product ${p}` : '',
            first
              ? '"<p>Washed <strong>linen</strong>, made to last.</p><ul><li>Soft</li><li>Warm</li></ul>"'
              : '',
            first ? 'Bench Co' : '',
            first ? 'Shirts' : '',
            first ? '"linen, summer"' : '',
            first ? 'TRUE' : '',
            first ? 'Size' : '',
            size,
            first ? 'Colour' : '',
            colour,
            `B${p}-${size}-${colour}`,
            'shopify',
            String((p * 7 + row) % 40),
            `${199 + (p % 100)}.${row}0`,
            row <= 2 ? `https://cdn.example/bench/${p}-${row}.jpg` : '',
            row <= 2 ? String(row) : '',
            first ? 'active' : '',
          ].join(','),
        );
      }
  }
  return `${lines.join('\n')}\n`;
}

async function startServer(database: string) {
  const port = await freePort();
  const dataDir = trackTempDir(mkdtempSync(join(tmpdir(), 'vitrine-bench-catalogue-')));
  if (database === 'postgres') await freshDatabase(args['database-url']);
  const env = onDatabase(
    benchServerEnv(port, dataDir, {
      VITRINE_SEED_DEMO: '0',
      VITRINE_ADMIN_KEY: adminKey,
      // The file's image URLs are made up (cdn.example): the bench measures reading and writing
      // the catalogue, not downloads, so they stay links.
      VITRINE_IMPORT_IMAGES: 'link',
      LOG_PRETTY: '0',
      NODE_ENV: 'production',
    }),
    database === 'postgres' ? args['database-url'] : null,
  );
  const { child, tail } = spawnWithTail(
    `server ${database}`,
    process.execPath,
    ['--import', 'tsx', 'apps/server/src/main.ts'],
    { cwd: REPO, env },
    (line) => /error/i.test(line),
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitUntilReady(`the server on ${database}`, child, tail, () => answersOk(`${baseUrl}/readyz`), {
    timeoutMs: 120_000,
  });
  return { baseUrl, stop: () => stopChild(child) };
}

async function timed<T>(
  label: string,
  run: () => Promise<Response>,
  check: (body: T) => string,
): Promise<number> {
  const started = performance.now();
  const response = await run();
  const body = (await response.json()) as T;
  const ms = performance.now() - started;
  if (!response.ok) throw new Error(`${label}: ${response.status} ${JSON.stringify(body).slice(0, 400)}`);
  console.log(`  ${label.padEnd(34)} ${ms.toFixed(0).padStart(6)} ms   ${check(body)}`);
  return ms;
}

type Report = {
  rowCount: number;
  counts: { create: number; update: number; invalid: number };
  errors: unknown[];
};

for (const database of args.db.split(',')) {
  const server = await startServer(database);
  const headers = { authorization: `Bearer ${adminKey}` };
  const put = await fetch(`${server.baseUrl}/admin/pages/${PAGE}`, {
    method: 'PUT',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bench catalogue', language: 'da', currency: 'DKK' }),
  });
  if (!put.ok) throw new Error(`creating the store: ${put.status} ${await put.text()}`);
  const csv = catalogueCsv(productCount);
  const studio = `${server.baseUrl}/staff/stores/${PAGE}`;
  const upload = (path: string) => () =>
    fetch(`${studio}/${path}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'text/csv' },
      body: csv,
    });
  const summary = (report: Report) =>
    `${report.rowCount} rows: ${report.counts.create} to create, ${report.counts.update} to update, ${report.errors.length} errors`;
  console.log(
    `\nCatalogue import on ${database}: ${productCount} products, ${productCount * 4} variant rows, ${(csv.length / 1024).toFixed(0)} KB`,
  );
  await timed<Report>('dry run (all new)', upload('product-import/preview'), summary);
  await timed<{ created: number; updated: number }>(
    'import (creates)',
    upload('product-import'),
    (body) => `${body.created} created`,
  );
  await timed<Report>('dry run (all existing)', upload('product-import/preview'), summary);
  await timed<{ created: number; updated: number }>(
    'import (updates)',
    upload('product-import'),
    (body) => `${body.updated} updated`,
  );
  await timed<{ total: number }>(
    'list, search "product 99"',
    () => fetch(`${studio}/products?q=product%2099&limit=50`, { headers }),
    (body) => `${body.total} found`,
  );
  await timed<{ csv: string }>(
    'export',
    () => fetch(`${studio}/product-export`, { headers }),
    (body) => `${(body.csv.length / 1024).toFixed(0)} KB, ${body.csv.trimEnd().split('\n').length - 1} rows`,
  );
  await server.stop();
}
process.exit(0);
