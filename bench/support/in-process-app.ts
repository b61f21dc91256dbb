import { adminHeaders, type openTestApp } from '../../apps/server/src/test-support/test-app.ts';

/** The whole server opened in this process (routes reached through `inject`, no sockets). */
export type App = Awaited<ReturnType<typeof openTestApp>>;

/** An admin call that seeds the benchmark's data; any answer but success stops the run. */
export async function admin(app: App, method: 'PUT' | 'POST', url: string, payload: object): Promise<void> {
  const response = await app.server.inject({ method, url, headers: adminHeaders, payload });
  if (response.statusCode >= 300)
    throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
}

/** The value at fraction `p` (0 to 1) of ascending `sorted` times; NaN when there are none. */
export const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? Number.NaN;

/**
 * A store (`page`), one public show starting at `start` (`showFields` say whether it is live or a
 * replay, and when it ended) and `products` (Product 1…n, priced apart, in stock for any run), put
 * on the show in their order.
 */
export async function seedStoreWithShow(
  app: App,
  {
    page,
    show,
    products,
    start,
    showFields,
  }: { page: string; show: string; products: string[]; start: number; showFields: object },
): Promise<void> {
  await admin(app, 'PUT', `/admin/pages/${page}`, { name: 'Bench shop', language: 'da', currency: 'DKK' });
  await admin(app, 'PUT', `/admin/pages/${page}/campaigns/${show}`, { name: 'Bench show', deadline: null });
  await admin(app, 'PUT', `/admin/events/${show}`, {
    pageUid: page,
    campaignId: show,
    status: 'public',
    eventName: 'Bench show',
    eventStartTimestamp: start,
    liveStartTime: start,
    ...showFields,
  });
  for (const [index, productUid] of products.entries()) {
    await admin(app, 'PUT', `/staff/stores/${page}/products/${productUid}`, {
      name: `Product ${index + 1}`,
      prices: { DKK: 10_000 + index * 1_000 },
      stock: 1_000_000,
    });
    await admin(app, 'PUT', `/admin/events/${show}/products/${productUid}`, { productUid, sorting: index });
  }
}

/** The options of a run on both databases (parseArgs): which ones (`--db`), and PostgreSQL's address. */
export const DATABASE_OPTIONS = {
  db: { type: 'string', default: 'pglite,postgres' },
  'database-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/test' },
} as const;

/**
 * Runs `run` on each database `--db` names, in order: the server opened in this process (`open`)
 * on PGlite, or on the PostgreSQL server at `--database-url`, and closed after.
 */
export async function onEachDatabase(
  args: { db: string; 'database-url': string },
  open: () => Promise<App>,
  run: (app: App, kind: 'pglite' | 'postgres') => Promise<void>,
): Promise<void> {
  for (const kind of args.db.split(',')) {
    if (kind !== 'pglite' && kind !== 'postgres') throw new Error(`--db: pglite or postgres, not ${kind}`);
    if (kind === 'postgres') process.env.DATABASE_URL = args['database-url'];
    else delete process.env.DATABASE_URL;
    const app = await open();
    try {
      await run(app, kind);
    } finally {
      await app.close();
    }
  }
}
