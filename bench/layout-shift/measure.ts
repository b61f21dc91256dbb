// Layout shift of the public pages, as Chromium reports it: starts the real server (demo store,
// built web app), opens the shop page, the live show and the replay on a phone and a desktop
// viewport, and prints each page's cumulative layout shift (the largest session window, as Core
// Web Vitals count it) with the elements that moved. Run: npx tsx bench/layout-shift/measure.ts
// (after `npm run build:web`), or with VITRINE_URL=http://… against a server already running the
// demo store. Prints one JSON line.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { startServer } from '../../e2e/support/server-process.ts';

const PAGES = {
  shop: '/',
  live: '/widget/demo-store/demo-autumn-living',
  replay: '/widget/demo-store/demo-kitchen-favourites',
};
const VIEWPORTS = {
  phone: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true },
  desktop: { viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, isMobile: false, hasTouch: false },
};
/** The page counts as settled when no shift came for this long after its content showed. */
const QUIET_MS = 3000;
const SETTLE_LIMIT_MS = 20_000;

/**
 * The page's layout shifts so far, from the buffered performance timeline (shifts right after an
 * input do not count), with the elements that moved.
 */
function readShifts(page: Page): Promise<{ value: number; time: number; sources: string[] }[]> {
  return page.evaluate(READ_SHIFTS);
}

// Browser code as text: tsx would wrap named functions in a helper the page does not have.
// The buffered entries are in the observer's queue as soon as it observes.
const READ_SHIFTS = `(() => {
  const observer = new PerformanceObserver(() => {});
  observer.observe({ type: 'layout-shift', buffered: true });
  const entries = observer.takeRecords();
  observer.disconnect();
  return entries
    .filter((entry) => !entry.hadRecentInput)
    .map((entry) => ({
      value: entry.value,
      time: entry.startTime,
      sources: entry.sources.map((source) =>
        source.node instanceof Element
          ? source.node.tagName.toLowerCase() + [...source.node.classList].map((name) => '.' + name).join('')
          : String(source.node && source.node.nodeName),
      ),
    }));
})()`;

/** Session windows of CLS: shifts less than 1 s apart, at most 5 s long; the largest sum counts. */
function cumulativeLayoutShift(shifts: readonly { value: number; time: number }[]): number {
  let largest = 0;
  let current = 0;
  let first = 0;
  let previous = 0;
  for (const shift of shifts) {
    if (current > 0 && (shift.time - previous > 1000 || shift.time - first > 5000)) current = 0;
    if (current === 0) first = shift.time;
    current += shift.value;
    previous = shift.time;
    largest = Math.max(largest, current);
  }
  return largest;
}

const dataDir = mkdtempSync(join(tmpdir(), 'vitrine-layout-shift-'));
const given = process.env.VITRINE_URL;
const server = given
  ? { url: given, stop: async () => {} }
  : await startServer({ VITRINE_DATA_DIR: dataDir });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
const results: Record<string, { cls: number; shifts: { value: number; time: number; sources: string[] }[] }> =
  {};
try {
  for (const [viewportName, viewport] of Object.entries(VIEWPORTS)) {
    for (const [pageName, path] of Object.entries(PAGES)) {
      const context = await browser.newContext({ ...viewport, locale: 'en-GB' });
      const page = await context.newPage();
      await page.goto(`${server.url}${path}`, { waitUntil: 'load' });
      await page.locator('.shop-row, .player, video').first().waitFor({ timeout: SETTLE_LIMIT_MS });
      // Settled: no new shift for QUIET_MS (or the limit).
      const started = Date.now();
      let count = -1;
      let quietSince = Date.now();
      while (Date.now() - started < SETTLE_LIMIT_MS && Date.now() - quietSince < QUIET_MS) {
        const now = (await readShifts(page)).length;
        if (now !== count) {
          count = now;
          quietSince = Date.now();
        }
        await page.waitForTimeout(200);
      }
      const shifts = await readShifts(page);
      results[`${pageName}/${viewportName}`] = {
        cls: Number(cumulativeLayoutShift(shifts).toFixed(4)),
        shifts: shifts.map((shift) => ({ ...shift, value: Number(shift.value.toFixed(4)) })),
      };
      await context.close();
    }
  }
} finally {
  await browser.close();
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
console.log(JSON.stringify({ bench: 'layout-shift', load1: loadavg()[0], results }));
