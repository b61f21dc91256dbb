/**
 * Action-to-viewer latency of the live control room (issue 16): N viewers (default 1,000) follow
 * the demo live show over the realtime socket — its comments and its products, as the player
 * does — while staff act. For each action the bench takes the time from just before the HTTP
 * call until each viewer's socket delivers the change, and prints p50/p99/max over every
 * (viewer, action) delivery:
 *
 * - baseline: a viewer's plain comment reaching the other viewers (the fan-out every chat pays);
 * - present:  the cue append the admin API and the studio use to present a product;
 * - hide:     a moderator hiding a comment (viewers get it removed);
 * - ban:      a moderator banning a viewer (their comment is removed for every viewer).
 *
 *   npm run bench:control-room                     # 1,000 viewers, 30 samples of each
 *   npm run bench:control-room -- --viewers 2000 --samples 50
 *
 * The server is the real one (apps/server/src/main.ts, demo data, embedded PGlite), in its own
 * process; the viewers are `ws` clients in this one. Limits that would refuse a benchmark's
 * single writer (comments, sign-ups, moderation actions) are switched off.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { REALTIME_PATH, REALTIME_PROTOCOL_VERSION, subscriptionKey } from '@vitrine/protocol';
import { WebSocket } from 'ws';
import { clock, freePort, removeTempDir, sleep } from '../realtime-fanout/proc.ts';

const { values: args } = parseArgs({
  options: {
    viewers: { type: 'string', default: '1000' },
    samples: { type: 'string', default: '30' },
    verbose: { type: 'boolean', default: false },
  },
});
const VIEWERS = Number(args.viewers);
const SAMPLES = Number(args.samples);
const PAGE = 'demo-store';
const SHOW = 'demo-autumn-living';
const REPO = new URL('../../', import.meta.url).pathname;
const ADMIN_KEY = randomBytes(24).toString('base64url');
/** How long one action may take to reach every viewer before the sample counts as lost. */
const DELIVERY_TIMEOUT_MS = 15_000;

interface Viewer {
  socket: WebSocket;
  /** `${changeType}:${docId}` → when this viewer's socket delivered it (ms, wall clock). */
  seen: Map<string, number>;
}

let server: ChildProcess | null = null;
let dataDir: string | null = null;

async function startServer(): Promise<string> {
  const port = await freePort();
  dataDir = mkdtempSync(join(tmpdir(), 'vitrine-bench-control-room-'));
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: REPO,
    env: {
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      VITRINE_DATA_DIR: dataDir,
      VITRINE_SEED_DEMO: '1',
      VITRINE_ADMIN_KEY: ADMIN_KEY,
      VITRINE_COMMENT_RATE_LIMIT: 'off',
      VITRINE_MODERATION_RATE_LIMIT: 'off',
      VITRINE_ABUSE_LIMITS: 'off',
      VITRINE_SIGN_UP_LIMIT: '999999/1',
      RTMP_PORT: 'off',
      LOG_LEVEL: 'warn',
      LOG_PRETTY: '0',
    },
    stdio: ['ignore', args.verbose ? 'inherit' : 'ignore', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${baseUrl}/readyz`)).ok) return baseUrl;
    } catch {
      // Not listening yet.
    }
    await sleep(250);
  }
  throw new Error('the server did not become ready in 120 s');
}

async function call<T>(
  baseUrl: string,
  method: string,
  path: string,
  body: unknown,
  bearer?: string,
): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
  return (text ? JSON.parse(text) : null) as T;
}

const comments = { pageUid: PAGE, campaignUid: SHOW };
const products = { eventId: SHOW };

/** Opens a viewer following the show's comments and products; resolves after both snapshots. */
function openViewer(baseUrl: string, onProducts?: (docIds: string[]) => void): Promise<Viewer> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(
      `${baseUrl.replace(/^http/, 'ws')}${REALTIME_PATH}?v=${REALTIME_PROTOCOL_VERSION}`,
      { perMessageDeflate: false },
    );
    const viewer: Viewer = { socket, seen: new Map() };
    let snapshots = 0;
    const timer = setTimeout(() => reject(new Error('a viewer got no snapshots in 30 s')), 30_000);
    socket.on('open', () => {
      socket.send(
        JSON.stringify({
          type: 'subscribe',
          id: subscriptionKey('comments', comments),
          query: 'comments',
          params: comments,
        }),
      );
      socket.send(
        JSON.stringify({
          type: 'subscribe',
          id: subscriptionKey('liveEventProducts', products),
          query: 'liveEventProducts',
          params: products,
        }),
      );
    });
    socket.on('message', (data: Buffer) => {
      const receivedAt = clock();
      const frame = JSON.parse(data.toString()) as {
        type: string;
        id?: string;
        docs?: Array<{ docId: string }>;
        changes?: Array<{ type: string; docId: string }>;
        message?: string;
      };
      if (frame.type === 'changes') {
        for (const change of frame.changes ?? [])
          viewer.seen.set(`${change.type}:${change.docId}`, receivedAt);
      } else if (frame.type === 'snapshot') {
        if (frame.id === subscriptionKey('liveEventProducts', products))
          onProducts?.((frame.docs ?? []).map((doc) => doc.docId));
        if (++snapshots === 2) {
          clearTimeout(timer);
          resolve(viewer);
        }
      } else if (frame.type === 'error') {
        reject(new Error(`server error frame: ${frame.message}`));
      }
    });
    socket.on('error', reject);
  });
}

/** Runs `act`, then waits until every viewer has `key()`; answers each viewer's latency (ms). */
async function measure(viewers: Viewer[], act: () => Promise<string>): Promise<number[]> {
  for (const viewer of viewers) viewer.seen.clear();
  const startedAt = clock();
  const key = await act();
  const deadline = Date.now() + DELIVERY_TIMEOUT_MS;
  while (viewers.some((viewer) => !viewer.seen.has(key))) {
    if (Date.now() > deadline) {
      const missing = viewers.filter((viewer) => !viewer.seen.has(key)).length;
      throw new Error(
        `${missing} of ${viewers.length} viewers did not get ${key} in ${DELIVERY_TIMEOUT_MS} ms`,
      );
    }
    await sleep(2);
  }
  return viewers.map((viewer) => (viewer.seen.get(key) as number) - startedAt);
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

function summary(name: string, latencies: number[]) {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    action: name,
    deliveries: sorted.length,
    p50Ms: Math.round(percentile(sorted, 50) * 10) / 10,
    p99Ms: Math.round(percentile(sorted, 99) * 10) / 10,
    maxMs: Math.round((sorted.at(-1) ?? Number.NaN) * 10) / 10,
  };
}

async function main() {
  const started = Date.now();
  console.error(`control-room bench: ${VIEWERS} viewers, ${SAMPLES} samples per action`);
  const baseUrl = await startServer();
  let productUids: string[] = [];
  const viewers: Viewer[] = [];
  viewers.push(await openViewer(baseUrl, (docIds) => (productUids = docIds)));
  for (let opened = 1; opened < VIEWERS; opened += 50) {
    const batch = Math.min(50, VIEWERS - opened);
    viewers.push(...(await Promise.all(Array.from({ length: batch }, () => openViewer(baseUrl)))));
  }
  const product = productUids[0];
  if (!product) throw new Error(`the demo show "${SHOW}" has no products to present`);
  console.error(`${viewers.length} viewers connected in ${Date.now() - started} ms`);

  const writer = await call<{ idToken: string }>(baseUrl, 'POST', '/functions/auth/signInAnonymously', {});
  const post = async (idToken: string, text: string) =>
    (
      await call<{ uid: string }>(
        baseUrl,
        'POST',
        '/shopapiv2/comment/playerComment',
        { ...comments, text },
        idToken,
      )
    ).uid;

  const results: Record<string, number[]> = { baseline: [], present: [], hide: [], ban: [] };
  const posted: string[] = [];
  // Warm-up: the first calls compile code paths and fill caches on both sides.
  for (let i = 0; i < 3; i++)
    await measure(viewers, async () => `added:${await post(writer.idToken, `warm-up ${i}`)}`);

  for (let i = 0; i < SAMPLES; i++) {
    // Baseline: a plain comment's fan-out.
    results.baseline?.push(
      ...(await measure(viewers, async () => {
        const uid = await post(writer.idToken, `baseline ${i}`);
        posted.push(uid);
        return `added:${uid}`;
      })),
    );
    // Present: a cue appended to a product of the show, stamped now.
    results.present?.push(
      ...(await measure(viewers, async () => {
        await call(
          baseUrl,
          'POST',
          `/admin/events/${SHOW}/products/${product}/cues`,
          { source: 'control-center', presentationStartTimestamp: Date.now() },
          ADMIN_KEY,
        );
        return `modified:${product}`;
      })),
    );
    // Hide: the baseline's comment, hidden by a moderator.
    const hidden = posted[i] as string;
    results.hide?.push(
      ...(await measure(viewers, async () => {
        await call(
          baseUrl,
          'POST',
          `/staff/stores/${PAGE}/shows/${SHOW}/moderation/comments/${hidden}`,
          { action: 'hide', version: 0 },
          ADMIN_KEY,
        );
        return `removed:${hidden}`;
      })),
    );
    // Ban: a new viewer's comment, then the ban that takes it out of every chat.
    const troll = await call<{ idToken: string; user: { uid: string } }>(
      baseUrl,
      'POST',
      '/functions/auth/signInAnonymously',
      {},
    );
    const trollComment = await post(troll.idToken, `troll ${i}`);
    await sleep(50);
    results.ban?.push(
      ...(await measure(viewers, async () => {
        await call(
          baseUrl,
          'POST',
          `/staff/stores/${PAGE}/chat-bans`,
          { userUid: troll.user.uid },
          ADMIN_KEY,
        );
        return `removed:${trollComment}`;
      })),
    );
    await sleep(100);
  }

  const rows = Object.entries(results).map(([name, latencies]) => summary(name, latencies));
  for (const row of rows) console.log(JSON.stringify({ viewers: VIEWERS, samples: SAMPLES, ...row }));
  console.log('');
  console.log(`Action-to-viewer latency, ${VIEWERS} connected viewers, ${SAMPLES} actions each (same run):`);
  console.log('| action | deliveries | p50 ms | p99 ms | max ms |');
  console.log('| --- | ---: | ---: | ---: | ---: |');
  for (const row of rows)
    console.log(`| ${row.action} | ${row.deliveries} | ${row.p50Ms} | ${row.p99Ms} | ${row.maxMs} |`);
  const baseline = rows[0];
  if (baseline)
    for (const row of rows.slice(1))
      console.log(
        `${row.action} / baseline: p50 ×${(row.p50Ms / baseline.p50Ms).toFixed(2)}, p99 ×${(row.p99Ms / baseline.p99Ms).toFixed(2)}`,
      );
  for (const viewer of viewers) viewer.socket.terminate();
}

async function stop() {
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((resolve) => server?.once('exit', resolve));
  }
  if (dataDir) removeTempDir(dataDir);
}

main()
  .then(stop)
  .catch(async (error) => {
    console.error(error);
    await stop();
    process.exit(1);
  });
