/**
 * Checkout benchmark: add-to-cart throughput and latency of the real server, on PGlite and on
 * PostgreSQL. Anonymous shoppers send `/shopapiv2/cart/addSingle` at a fixed number of requests in
 * flight for a fixed time, once for a product with plenty of stock (throughput) and once for a
 * product with little stock that sells out (contention); then every cart is read back to check
 * that the units reserved are exactly the adds answered "added" and never more than the stock.
 * See README.md.
 *
 *   node --import tsx bench/checkout/run.ts [--seconds 8] [--contention-seconds 4]
 *     [--concurrency 20,100] [--users 400] [--contention-stock 100] [--db pglite,postgres]
 *     [--database-url postgres://postgres@127.0.0.1:5432/vitrine_bench_checkout] [--baseline DIR]
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  type CartUpdateResponse,
  type CheckoutView,
  type EventProduct,
  MAX_LINE_QUANTITY,
} from '@vitrine/protocol';
import pg from 'pg';
import { Histogram } from '../realtime-fanout/histogram.ts';
import {
  freePort,
  freshDatabase,
  installCleanup,
  readCpuSeconds,
  readMachineBusySeconds,
  removeTempDir,
  stopChild,
  trackTempDir,
} from '../realtime-fanout/proc.ts';
import { benchServerEnv, onDatabase } from '../support/server-env.ts';
import { REPO, spawnWithTail, waitUntilReady } from '../support/server-process.ts';

const PAGE = 'bench-checkout-shop';
const CAMPAIGN = 'bench-checkout-live';
const EVENT = 'bench-checkout-event';
/** Units of the throughput products: far more than any run can reserve, so they never sell out. */
const LARGE_STOCK = 10_000_000;
const REQUEST_TIMEOUT_MS = 30_000;

installCleanup();

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '8' },
    'contention-seconds': { type: 'string', default: '4' },
    concurrency: { type: 'string', default: '20,100' },
    users: { type: 'string', default: '400' },
    'contention-stock': { type: 'string', default: '100' },
    db: { type: 'string', default: 'pglite,postgres' },
    'database-url': {
      type: 'string',
      default: 'postgres://postgres@127.0.0.1:5432/vitrine_bench_checkout',
    },
    cold: { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
    'cpu-prof': { type: 'string' },
    baseline: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});

if (args.help) {
  process.stdout.write(
    [
      'node --import tsx bench/checkout/run.ts [options]',
      '  --seconds N             duration of each throughput run (default 8)',
      '  --contention-seconds N  duration of each contention run (default 4)',
      '  --concurrency A,B       requests in flight (default 20,100)',
      '  --users N               anonymous shoppers signed in per database (default 400)',
      '  --contention-stock N    units of the contended product (default 100)',
      '  --db LIST               pglite, postgres or both (default pglite,postgres)',
      '  --database-url URL      PostgreSQL database to create and drop',
      '                          (default postgres://postgres@127.0.0.1:5432/vitrine_bench_checkout)',
      '  --cold                  do not open the connections before the timed phase',
      '  --verbose               echo every server log line',
      "  --cpu-prof DIR          write the server's V8 CPU profile (.cpuprofile) into DIR when it stops",
      '  --baseline DIR          first run the same on the server of the checkout in DIR (with its',
      '                          node_modules), then on this one, back to back per database',
      '',
    ].join('\n'),
  );
  process.exit(0);
}

function positiveInt(name: string, text: string | undefined): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive whole number`);
  return value;
}

const seconds = positiveInt('seconds', args.seconds);
// The server's own CPU profile, written when it exits (it exits on the SIGTERM that stops it).
const cpuProfile = args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${resolve(args['cpu-prof'])}`] : [];
const contentionSeconds = positiveInt('contention-seconds', args['contention-seconds']);
const concurrencies = (args.concurrency ?? '').split(',').map((part) => positiveInt('concurrency', part));
const userCount = positiveInt('users', args.users);
const contentionStock = positiveInt('contention-stock', args['contention-stock']);
const databases = (args.db ?? '').split(',').map((name) => {
  if (name !== 'pglite' && name !== 'postgres') throw new Error('--db takes pglite and/or postgres');
  return name;
});
if (Math.max(...concurrencies) > userCount) {
  throw new Error(
    '--users must be at least the largest --concurrency (each shopper has one request in flight)',
  );
}
const adminKey = process.env.VITRINE_ADMIN_KEY ?? randomBytes(24).toString('base64url');

const log = (line: string) => process.stderr.write(`${line}\n`);

// ── HTTP ──────────────────────────────────────────────────────────────────────

interface Answer {
  status: number;
  body: string;
}

/** One JSON request over a keep-alive agent; rejects on network errors and after REQUEST_TIMEOUT_MS. */
function send(
  agent: Agent,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  body: unknown,
  token?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = httpRequest(
      url,
      {
        method,
        agent,
        timeout: REQUEST_TIMEOUT_MS,
        headers: {
          ...(payload === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end(payload);
  });
}

async function json<T>(answer: Promise<Answer>, what: string): Promise<T> {
  const { status, body } = await answer;
  if (status >= 300) throw new Error(`${what} answered ${status}: ${body.slice(0, 500)}`);
  return JSON.parse(body) as T;
}

// ── the server ────────────────────────────────────────────────────────────────

interface Server {
  baseUrl: string;
  pid: number;
  stop(): Promise<void>;
}

async function startServer(
  database: 'pglite' | 'postgres',
  databaseUrl: string,
  serverDir: string,
): Promise<Server> {
  const port = await freePort();
  const dataDir = trackTempDir(mkdtempSync(join(tmpdir(), 'vitrine-bench-checkout-')));
  const env = onDatabase(
    benchServerEnv(port, dataDir, {
      VITRINE_SEED_DEMO: '0',
      VITRINE_ADMIN_KEY: adminKey,
      LOG_PRETTY: '0',
      // Every shopper of the benchmark signs up and adds from 127.0.0.1: the per-address limits on
      // sign-ups (20 per 10 min) and cart changes (3,000 a minute) would cap the run, not the cart.
      VITRINE_SIGN_UP_LIMIT: '100000/600',
      VITRINE_ABUSE_LIMITS: 'off',
    }),
    database === 'postgres' ? databaseUrl : null,
  );
  const { child, tail } = spawnWithTail(
    `server ${database}`,
    process.execPath,
    [...cpuProfile, '--import', 'tsx', 'apps/server/src/main.ts'],
    { cwd: serverDir, env },
    (line) => args.verbose || /error|warn/i.test(line),
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  const probe = new Agent({ keepAlive: false });
  await waitUntilReady(
    `the server on ${database}`,
    child,
    tail,
    () =>
      send(probe, 'GET', `${baseUrl}/readyz`, undefined).then(
        (answer) => answer.status === 200,
        () => false,
      ),
    { timeoutMs: 120_000 },
  );
  return {
    baseUrl,
    pid: child.pid ?? 0,
    async stop() {
      await stopChild(child, 15_000);
      removeTempDir(dataDir);
    },
  };
}

/** What the PostgreSQL side of a run is measured by (postgresMeter). */
interface DatabaseReading {
  /** CPU seconds used so far by the backends connected to the benchmark's database. */
  cpuS: number;
  /** Transactions the database has ended so far (committed or rolled back; a lone statement is one). */
  transactions: number;
}

/**
 * Reads the PostgreSQL side: the CPU of the backends connected to the benchmark's database (the
 * server's pool), from /proc, since PostgreSQL runs on this machine at 127.0.0.1; and the
 * database's transaction count (pg_stat_database; each reading is a new connection, so its counts
 * are not a cached snapshot).
 */
function postgresMeter(url: string): () => Promise<DatabaseReading> {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  const maintenance = new URL(url);
  maintenance.pathname = '/postgres';
  return async () => {
    const client = new pg.Client({ connectionString: maintenance.href });
    await client.connect();
    try {
      const { rows } = await client.query<{ pid: number }>(
        'SELECT pid FROM pg_stat_activity WHERE datname = $1',
        [name],
      );
      const [counts] = (
        await client.query<{ transactions: string }>(
          'SELECT xact_commit + xact_rollback AS transactions FROM pg_stat_database WHERE datname = $1',
          [name],
        )
      ).rows;
      return {
        cpuS: rows.reduce((sum, row) => sum + (readCpuSeconds(row.pid) ?? 0), 0),
        transactions: Number(counts?.transactions ?? 0),
      };
    } finally {
      await client.end();
    }
  };
}

// ── the store and the shoppers ────────────────────────────────────────────────

interface Scenario {
  kind: 'throughput' | 'contention';
  concurrency: number;
  productUid: string;
  stock: number;
  durationS: number;
}

async function seedStore(agent: Agent, baseUrl: string, scenarios: Scenario[]) {
  const admin = (path: string, body: object) =>
    json(send(agent, 'PUT', `${baseUrl}${path}`, body, adminKey), `PUT ${path}`);
  await admin(`/admin/pages/${PAGE}`, {
    name: 'Checkout bench',
    language: 'en',
    currency: 'DKK',
    address: { name: 'Bench ApS', postCode: '8000', city: 'Aarhus C' },
    // As many units per shopper as fit in one cart line: the default cap (10) refused adds with
    // 409 once a fast run had given each of the 400 shoppers 10 units of one product.
    integritySettings: { maxUnitsPerShopper: MAX_LINE_QUANTITY },
  });
  await admin(`/admin/pages/${PAGE}/campaigns/${CAMPAIGN}`, {
    name: 'Checkout bench',
    deadline: Date.now() + 24 * 60 * 60_000,
  });
  await admin(`/admin/events/${EVENT}`, {
    pageUid: PAGE,
    campaignId: CAMPAIGN,
    status: 'public',
    currentStatus: 'live',
    eventName: 'Checkout bench show',
    eventStartTimestamp: Date.now() - 60_000,
  });
  for (const [index, scenario] of scenarios.entries()) {
    await admin(`/staff/stores/${PAGE}/products/${scenario.productUid}`, {
      name: `${scenario.kind} at ${scenario.concurrency}`,
      prices: { DKK: 9_900 },
      stock: scenario.stock,
    });
    await admin(`/admin/events/${EVENT}/products/${scenario.productUid}`, {
      productUid: scenario.productUid,
      sorting: index,
    });
  }
}

interface Shopper {
  token: string;
  checkoutUid: string | null;
  /** Units this shopper was answered "added" for, per product. */
  units: Map<string, number>;
}

async function signIn(agent: Agent, baseUrl: string, count: number): Promise<Shopper[]> {
  const shoppers: Shopper[] = [];
  const batch = 20;
  for (let start = 0; start < count; start += batch) {
    const sessions = await Promise.all(
      Array.from({ length: Math.min(batch, count - start) }, () =>
        json<{ idToken: string }>(
          send(agent, 'POST', `${baseUrl}/functions/auth/signInAnonymously`, {}),
          'signInAnonymously',
        ),
      ),
    );
    for (const session of sessions)
      shoppers.push({ token: session.idToken, checkoutUid: null, units: new Map() });
  }
  return shoppers;
}

// ── the load ──────────────────────────────────────────────────────────────────

interface RunResult {
  scenario: Scenario;
  requests: number;
  elapsedS: number;
  added: number;
  soldOut: number;
  /** Non-200 answers, network failures and statuses other than added / soldOut, by kind. */
  errors: Map<string, number>;
  latency: Histogram;
  serverCpuS: number | null;
  /** CPU seconds of the PostgreSQL backends serving the server's pool (null on PGlite: in the server). */
  databaseCpuS: number | null;
  /**
   * Transactions the benchmark's database ended during the run (PostgreSQL; null on PGlite). Its
   * backends report them at most once a second, so a run's count is off by up to a second's worth.
   */
  databaseTransactions: number | null;
  /** CPU seconds of this process, the load generator, which shares the machine with the server. */
  benchCpuS: number;
  machineCpuS: number | null;
}

/**
 * Closed loop: `concurrency` workers, each with its own shoppers (so no two requests of one
 * shopper are in flight together), each sending its next add as soon as the previous one answers.
 */
async function runScenario(
  server: Server,
  shoppers: Shopper[],
  scenario: Scenario,
  databaseMeter: (() => Promise<DatabaseReading>) | null,
): Promise<RunResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: scenario.concurrency });
  const url = `${server.baseUrl}/shopapiv2/cart/addSingle`;
  const result: RunResult = {
    scenario,
    requests: 0,
    elapsedS: 0,
    added: 0,
    soldOut: 0,
    errors: new Map(),
    latency: new Histogram(),
    serverCpuS: null,
    databaseCpuS: null,
    databaseTransactions: null,
    benchCpuS: 0,
    machineCpuS: null,
  };
  const fail = (kind: string) => result.errors.set(kind, (result.errors.get(kind) ?? 0) + 1);
  const body = { pageUid: PAGE, campaignUid: CAMPAIGN, productUid: scenario.productUid, quantity: 1 };

  const worker = async (index: number) => {
    const mine = shoppers.filter((_, i) => i % scenario.concurrency === index);
    let turn = 0;
    while (performance.now() < stopAt) {
      // Round-robin over this worker's shoppers, skipping full cart lines (at most 99 of a product).
      let shopper: Shopper | undefined;
      for (let tries = 0; tries < mine.length && !shopper; tries++) {
        const candidate = mine[turn++ % mine.length]!;
        if ((candidate.units.get(scenario.productUid) ?? 0) < MAX_LINE_QUANTITY) shopper = candidate;
      }
      if (!shopper) {
        fail('every shopper of a worker has a full cart line (raise --users)');
        return;
      }
      const sentAt = performance.now();
      let answer: Answer;
      try {
        answer = await send(agent, 'POST', url, body, shopper.token);
      } catch (error) {
        result.latency.record(performance.now() - sentAt);
        result.requests++;
        fail(`network: ${(error as Error).message}`);
        continue;
      }
      result.latency.record(performance.now() - sentAt);
      result.requests++;
      if (answer.status !== 200) {
        fail(`HTTP ${answer.status}`);
        continue;
      }
      const update = JSON.parse(answer.body) as CartUpdateResponse;
      if (update.status === 'added') {
        result.added++;
        shopper.checkoutUid = update.checkoutUid;
        shopper.units.set(scenario.productUid, (shopper.units.get(scenario.productUid) ?? 0) + 1);
      } else if (update.status === 'soldOut') {
        result.soldOut++;
      } else {
        fail(`status ${update.status}`);
      }
    }
  };

  if (!args.cold) {
    // Open every connection before the clock starts: requests on fresh connections to a busy
    // PGlite server can wait seconds (README, "Cold connections"), which would measure connecting.
    await Promise.all(
      Array.from({ length: scenario.concurrency }, () =>
        send(agent, 'GET', `${server.baseUrl}/healthz`, undefined),
      ),
    );
  }
  const databaseBefore = databaseMeter ? await databaseMeter() : null;
  const cpuBefore = readCpuSeconds(server.pid);
  const machineBefore = readMachineBusySeconds();
  const benchBefore = process.cpuUsage();
  const startedAt = performance.now();
  const stopAt = startedAt + scenario.durationS * 1000;
  await Promise.all(Array.from({ length: scenario.concurrency }, (_, index) => worker(index)));
  result.elapsedS = (performance.now() - startedAt) / 1000;
  const cpuAfter = readCpuSeconds(server.pid);
  const machineAfter = readMachineBusySeconds();
  const benchCpu = process.cpuUsage(benchBefore);
  if (databaseMeter && databaseBefore !== null) {
    const databaseAfter = await databaseMeter();
    result.databaseCpuS = databaseAfter.cpuS - databaseBefore.cpuS;
    result.databaseTransactions = databaseAfter.transactions - databaseBefore.transactions;
  }
  result.benchCpuS = (benchCpu.user + benchCpu.system) / 1e6;
  if (cpuBefore !== null && cpuAfter !== null) result.serverCpuS = cpuAfter - cpuBefore;
  if (machineBefore !== null && machineAfter !== null) result.machineCpuS = machineAfter - machineBefore;
  agent.destroy();
  return result;
}

// ── checks ────────────────────────────────────────────────────────────────────

interface Check {
  productUid: string;
  ok: boolean;
  text: string;
}

/**
 * Reads every cart back (loadCheckout) and the products' stock (liveEventProducts): the units in
 * carts must equal the adds answered "added", which must equal the stock taken, and a contended
 * product must never have more reserved than it had in stock.
 */
async function verify(
  agent: Agent,
  baseUrl: string,
  shoppers: Shopper[],
  results: RunResult[],
): Promise<Check[]> {
  const inCarts = new Map<string, number>();
  for (const shopper of shoppers) {
    if (!shopper.checkoutUid) continue;
    const view = await json<CheckoutView>(
      send(
        agent,
        'POST',
        `${baseUrl}/functions/customerpage/loadCheckout`,
        { pageUid: PAGE, campaignUid: CAMPAIGN, checkoutUid: shopper.checkoutUid },
        shopper.token,
      ),
      'loadCheckout',
    );
    for (const item of view.items)
      inCarts.set(item.productUid, (inCarts.get(item.productUid) ?? 0) + item.quantity);
  }
  const products = await json<EventProduct[]>(
    send(agent, 'POST', `${baseUrl}/reads/liveEventProducts`, { eventId: EVENT }),
    'liveEventProducts',
  );
  const stockLeft = new Map(products.map((entry) => [entry.productUid, entry.product.stock]));
  return results.map(({ scenario, added, soldOut }) => {
    const carts = inCarts.get(scenario.productUid) ?? 0;
    const taken = scenario.stock - (stockLeft.get(scenario.productUid) ?? Number.NaN);
    const clientUnits = shoppers.reduce(
      (sum, shopper) => sum + (shopper.units.get(scenario.productUid) ?? 0),
      0,
    );
    let ok = carts === added && taken === added && clientUnits === added && added <= scenario.stock;
    // A contended product that answered "sold out" must have sold every unit, not fewer.
    if (scenario.kind === 'contention' && soldOut > 0) ok &&= added === scenario.stock;
    return {
      productUid: scenario.productUid,
      ok,
      text: `${scenario.productUid}: added ${added}, in carts ${carts}, stock taken ${taken} of ${scenario.stock}${
        scenario.kind === 'contention' ? `, sold out answers ${soldOut}` : ''
      } → ${ok ? 'OK' : 'MISMATCH'}`,
    };
  });
}

// ── report ────────────────────────────────────────────────────────────────────

function table(database: string, results: RunResult[]): string {
  const header = [
    'case',
    'in flight',
    'requests',
    'req/s',
    'added',
    'sold out',
    'errors',
    'p50 ms',
    'p95 ms',
    'p99 ms',
    'max ms',
    'server CPU',
    'server ms/req',
    'db CPU',
    'db ms/req',
    'db xacts/req',
    'bench CPU',
    'machine CPU',
  ];
  const rows = results.map((result) => {
    const s = result.latency.summary();
    const errors = [...result.errors.values()].reduce((sum, n) => sum + n, 0);
    const cores = (cpu: number | null) => (cpu === null ? '—' : (cpu / result.elapsedS).toFixed(2));
    const perRequest = (cpu: number | null) =>
      cpu === null || result.requests === 0 ? '—' : ((cpu * 1000) / result.requests).toFixed(1);
    return [
      result.scenario.kind,
      String(result.scenario.concurrency),
      String(result.requests),
      (result.requests / result.elapsedS).toFixed(0),
      String(result.added),
      String(result.soldOut),
      String(errors),
      String(s.p50Ms ?? '—'),
      String(s.p95Ms ?? '—'),
      String(s.p99Ms ?? '—'),
      String(s.maxMs ?? '—'),
      cores(result.serverCpuS),
      perRequest(result.serverCpuS),
      cores(result.databaseCpuS),
      perRequest(result.databaseCpuS),
      result.databaseTransactions === null || result.requests === 0
        ? '—'
        : (result.databaseTransactions / result.requests).toFixed(2),
      cores(result.benchCpuS),
      cores(result.machineCpuS),
    ];
  });
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
  return [
    `\n${database} (load average ${loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')})`,
    line(header),
    `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`,
    ...rows.map(line),
  ].join('\n');
}

// ── main ──────────────────────────────────────────────────────────────────────

async function benchmark(
  database: 'pglite' | 'postgres',
  code: { label: string; dir: string },
): Promise<boolean> {
  const databaseUrl = args['database-url']!;
  if (database === 'postgres') {
    log(`postgres: creating ${databaseUrl}…`);
    await freshDatabase(databaseUrl);
  }
  log(`${database}: server of ${code.label} (${code.dir})`);
  const server = await startServer(database, databaseUrl, code.dir);
  try {
    const setup = new Agent({ keepAlive: true, maxSockets: 20 });
    const scenarios: Scenario[] = concurrencies.flatMap((concurrency) => [
      {
        kind: 'throughput',
        concurrency,
        productUid: `large-${concurrency}`,
        stock: LARGE_STOCK,
        durationS: seconds,
      },
      {
        kind: 'contention',
        concurrency,
        productUid: `flash-${concurrency}`,
        stock: contentionStock,
        durationS: contentionSeconds,
      },
    ]);
    await seedStore(setup, server.baseUrl, scenarios);
    log(`${database}: signing in ${userCount} shoppers…`);
    const shoppers = await signIn(setup, server.baseUrl, userCount);
    const results: RunResult[] = [];
    for (const scenario of scenarios) {
      log(`${database}: ${scenario.kind}, ${scenario.concurrency} in flight, ${scenario.durationS} s…`);
      results.push(
        await runScenario(
          server,
          shoppers,
          scenario,
          database === 'postgres' ? postgresMeter(databaseUrl) : null,
        ),
      );
    }
    const checks = await verify(setup, server.baseUrl, shoppers, results);
    setup.destroy();
    process.stdout.write(`${table(`${database}, ${code.label}`, results)}\n`);
    for (const result of results) {
      for (const [kind, count] of result.errors)
        process.stdout.write(`  errors, ${result.scenario.productUid}: ${count} × ${kind}\n`);
    }
    for (const check of checks) process.stdout.write(`  check ${check.text}\n`);
    return checks.every((check) => check.ok) && results.every((result) => result.errors.size === 0);
  } finally {
    await server.stop();
    if (database === 'postgres') await freshDatabase(databaseUrl, false);
  }
}

const startedAt = performance.now();
let allOk = true;
// With --baseline, each database runs the baseline's server and then this tree's, back to back,
// so the pair shares the machine's load as closely as two runs can.
const codes = [
  ...(args.baseline ? [{ label: 'baseline', dir: resolve(args.baseline) }] : []),
  { label: 'this tree', dir: REPO },
];
for (const database of databases) {
  for (const code of codes) allOk = (await benchmark(database, code)) && allOk;
}
process.stdout.write(
  `\nusers ${userCount}, ${args.cold ? 'cold' : 'warm'} connections, throughput ${seconds} s, contention ${contentionSeconds} s with ${contentionStock} units; ` +
    `whole run ${((performance.now() - startedAt) / 1000).toFixed(0)} s; ${allOk ? 'all checks passed' : 'CHECKS FAILED'}\n`,
);
process.exit(allOk ? 0 : 1);
