// Lighthouse on the public pages (issue 32): starts the compiled server (`npm run build` first)
// with the demo store on a fresh data folder, waits on /readyz, and runs Lighthouse's mobile and
// desktop presets on the shop page, the live show, a replay and a clip page (the first clip the
// sitemap lists; skipped when it lists none). Prints SEO, Accessibility, Best Practices and
// Performance with CLS, LCP and TBT per page and preset, the audits that cost points outside
// Performance, the machine's load and Lighthouse's benchmark index (how fast this machine ran its
// reference loop: Performance is a benchmark figure only on a quiet machine).
//
//   npm run bench:lighthouse [-- --runs 3] [--demo-live 0] [--json results.json] [--reports dir]
//     [--pages live,replay] [--presets mobile]
//   VITRINE_URL=http://127.0.0.1:3000 npm run bench:lighthouse   (a server already running the demo)
//
// Chromium: CHROME_PATH (default /usr/bin/chromium), headless. --runs N keeps each page's median
// run by Performance. --demo-live 0 keeps the live show on its MP4 instead of the live encoder
// (ffmpeg's CPU then does not weigh on the figures). --reports writes each run's whole Lighthouse
// report (JSON: every audit's details, the main thread's long tasks) into that folder.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { freePort, loadAverage } from '../start/start-support.ts';
import { benchServerEnv } from '../support/server-env.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const CATEGORIES = ['seo', 'accessibility', 'best-practices', 'performance'] as const;
/** The demo store's pages (apps/server/demo): its live show and a recorded one. */
const PAGES: Record<string, string> = {
  shop: '/',
  live: '/widget/demo-store/demo-autumn-living',
  replay: '/widget/demo-store/demo-kitchen-favourites',
};
const PRESETS = ['mobile', 'desktop'] as const;
type Preset = (typeof PRESETS)[number];
/** A server start (creating the database, seeding the demo) on a busy machine: generous. */
const START_BOUND_MS = 10 * 60_000;

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '1' },
    'demo-live': { type: 'string', default: '1' },
    json: { type: 'string' },
    reports: { type: 'string' },
    pages: { type: 'string' },
    presets: { type: 'string' },
  },
});
const runs = Math.max(1, Number(values.runs));

interface PageResult {
  page: string;
  preset: Preset;
  scores: Record<(typeof CATEGORIES)[number], number>;
  clsValue: number;
  lcpMs: number;
  tbtMs: number;
  benchmarkIndex: number;
  /** Audits that cost points in SEO, Accessibility or Best Practices: id, title and what they found. */
  failing: string[];
}

/** Starts the compiled server on a fresh data folder and waits until /readyz answers 200. */
async function startServer(dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  const entry = join(ROOT, 'dist/server/main.mjs');
  if (!existsSync(entry)) throw new Error('dist/server/main.mjs is missing: run `npm run build` first.');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [entry], {
    cwd: ROOT,
    env: benchServerEnv(port, dataDir, { VITRINE_DEMO_LIVE: values['demo-live'] === '0' ? '0' : '1' }),
    stdio: 'ignore',
  });
  const startedAt = performance.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    if (performance.now() - startedAt > START_BOUND_MS) {
      child.kill('SIGKILL');
      throw new Error(`the server was not ready within ${START_BOUND_MS / 1000} s`);
    }
    const ready = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(10_000) }).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return { url, child };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Chromium with its DevTools port open for Lighthouse, on a profile of its own. */
async function startChromium(profileDir: string): Promise<{ port: number; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    process.env.CHROME_PATH ?? '/usr/bin/chromium',
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      `--remote-debugging-port=${port}`,
      `--user-data-dir=${profileDir}`,
      'about:blank',
    ],
    { stdio: 'ignore' },
  );
  const startedAt = performance.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Chromium exited with ${child.exitCode}`);
    const up = await fetch(`http://127.0.0.1:${port}/json/version`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) return { port, child };
    if (performance.now() - startedAt > 60_000) throw new Error('Chromium did not open its DevTools port');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The first clip page the sitemap lists (issue 32 item 4), as a path; null when there is none. */
async function clipPath(url: string): Promise<string | null> {
  const sitemap = await fetch(`${url}/sitemap.xml`).then(
    (response) => (response.ok ? response.text() : ''),
    () => '',
  );
  for (const [, loc] of sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)) {
    const path = new URL(loc as string).pathname;
    if (/\/clips?\//.test(path)) return path;
  }
  return null;
}

/** The first items an audit found, in short (an inspector issue's type, an element, a URL). */
function foundBy(details: unknown): string {
  const items = (details as { items?: unknown[] } | undefined)?.items ?? [];
  return items
    .slice(0, 3)
    .map((item) => JSON.stringify(item).slice(0, 300))
    .join(' ');
}

async function audit(chromePort: number, url: string, page: string, preset: Preset): Promise<PageResult> {
  const result = await lighthouse(
    url,
    { port: chromePort, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] },
    preset === 'desktop' ? desktopConfig : undefined,
  );
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const lhr = result.lhr;
  if (lhr.runtimeError) throw new Error(`${page}/${preset}: ${lhr.runtimeError.message}`);
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const failing = CATEGORIES.filter((id) => id !== 'performance').flatMap((id) =>
    (lhr.categories[id]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0)
      .map((ref) => lhr.audits[ref.id])
      .filter((entry) => entry && entry.score !== null && entry.score < 1)
      .map((entry) => `${id}: ${entry?.id} (${entry?.title}) ${foundBy(entry?.details)}`),
  );
  if (values.reports) {
    mkdirSync(values.reports, { recursive: true });
    writeFileSync(join(values.reports, `${page}-${preset}-${Date.now()}.json`), JSON.stringify(lhr));
  }
  return {
    page,
    preset,
    scores: {
      seo: score('seo'),
      accessibility: score('accessibility'),
      'best-practices': score('best-practices'),
      performance: score('performance'),
    },
    clsValue: numeric('cumulative-layout-shift'),
    lcpMs: numeric('largest-contentful-paint'),
    tbtMs: numeric('total-blocking-time'),
    benchmarkIndex: lhr.environment.benchmarkIndex,
    failing,
  };
}

const dataDir = mkdtempSync(join(tmpdir(), 'vitrine-bench-lighthouse-'));
const profileDir = mkdtempSync(join(tmpdir(), 'vitrine-bench-lighthouse-chromium-'));
const given = process.env.VITRINE_URL?.replace(/\/+$/, '');
let server: ChildProcess | null = null;
let chromium: ChildProcess | null = null;
const results: PageResult[] = [];
try {
  let url = given;
  if (!url) {
    const started = await startServer(dataDir);
    server = started.child;
    url = started.url;
  }
  const pages: Record<string, string> = { ...PAGES };
  const clip = await clipPath(url);
  if (clip) pages.clip = clip;
  else process.stdout.write('no clip page in the sitemap: the clip page is skipped\n');
  const onlyPages = values.pages?.split(',');
  for (const page of Object.keys(pages)) if (onlyPages && !onlyPages.includes(page)) delete pages[page];
  const presets = PRESETS.filter((preset) => !values.presets || values.presets.split(',').includes(preset));
  const browser = await startChromium(profileDir);
  chromium = browser.child;
  process.stdout.write(`Lighthouse on ${url}, ${runs} run(s) each; ${loadAverage()}\n`);
  for (const preset of presets) {
    for (const [page, path] of Object.entries(pages)) {
      const attempts: PageResult[] = [];
      for (let run = 0; run < runs; run++) attempts.push(await audit(browser.port, url + path, page, preset));
      attempts.sort((a, b) => a.scores.performance - b.scores.performance);
      const median = attempts[Math.floor(attempts.length / 2)] as PageResult;
      results.push(median);
      const s = median.scores;
      process.stdout.write(
        `${`${page}/${preset}`.padEnd(15)} SEO ${s.seo} · A11y ${s.accessibility} · BP ${s['best-practices']} · ` +
          `Perf ${s.performance} · CLS ${median.clsValue.toFixed(3)} · LCP ${(median.lcpMs / 1000).toFixed(2)} s · ` +
          `TBT ${Math.round(median.tbtMs)} ms · benchmark index ${Math.round(median.benchmarkIndex)}; ${loadAverage()}\n`,
      );
      for (const line of median.failing) process.stdout.write(`    ${line}\n`);
    }
  }
} finally {
  if (chromium && chromium.exitCode === null) {
    chromium.kill('SIGTERM');
    await once(chromium, 'exit');
  }
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await once(server, 'exit');
  }
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(profileDir, { recursive: true, force: true });
}
if (values.json) writeFileSync(values.json, `${JSON.stringify({ load: loadAverage(), results }, null, 2)}\n`);
process.stdout.write(`${JSON.stringify({ bench: 'lighthouse', load: loadAverage(), results })}\n`);
