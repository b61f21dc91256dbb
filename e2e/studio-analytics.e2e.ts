/**
 * Show analytics (issue 17) from end to end: three viewers (Chromium contexts, each with its own
 * storage and so its own viewer id) play a show of this test's own while a product is presented;
 * two put it in the cart and one buys it. The owner forces the rollup from the report, which then
 * shows the same viewers, adds, orders and revenue, per minute and per product; the store
 * overview lists the show, and the CSV exports hold the same numbers. The pages have no serious
 * or moderate axe-core findings; screenshots at 1280×800 and 390×844 go to VITRINE_SHOTS_DIR (the
 * README's docs/images/studio-analytics.png is analytics-report-desktop.png).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CsvFile, ShowAnalytics, StoreAnalytics } from '@vitrine/protocol';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putCampaignShow, undelayedLiveDemo } from './support/admin-shows.ts';
import { axeFindings } from './support/axe.ts';
import { launchChromium } from './support/browser.ts';
import { saveScreenshot } from './support/screenshots.ts';
import { checkoutOfViewer, fillCheckoutDetails, payWithTestCard } from './support/shopper-api.ts';
import { openStudioAs } from './support/studio.ts';
import { adminCall, testServer } from './support/test-server.ts';
import { playMuted } from './support/video-playback.ts';

const { baseUrl, adminKey } = testServer();
const STORE = 'demo-store';
// A show and product of this test's own, so no other browser test's viewers or orders count.
const SHOW = 'analytics-e2e-show';
const VASE = 'analytics-e2e-vase';
const PRICE = 24_900;
const WAIT = { timeout: 20_000 };

/** A studio call with the admin key (it counts as the store's owner). */
async function studio<T>(method: 'GET' | 'POST', path: string): Promise<T> {
  const response = await fetch(`${baseUrl}/staff/stores/${STORE}/${path}`, {
    method,
    headers: { authorization: `Bearer ${adminKey}` },
  });
  expect(response.status, `${path}: ${await response.clone().text()}`).toBe(200);
  return (await response.json()) as T;
}

let browser: Browser;
const contexts: BrowserContext[] = [];
const pageErrors: string[] = [];

beforeAll(async () => {
  browser = await launchChromium(['--autoplay-policy=no-user-gesture-required']);
  const now = Date.now();
  const liveStart = now - 2 * 60_000;
  await adminCall('PUT', `/staff/stores/${STORE}/products/${VASE}`, {
    name: 'Analytics vase',
    sku: 'AN-VASE',
    prices: { DKK: PRICE, EUR: 3_395 },
    stock: 100,
  });
  await putCampaignShow(
    STORE,
    { uid: SHOW, name: 'Analytics test show', deadline: now + 86_400_000 },
    undelayedLiveDemo(liveStart),
  );
  await adminCall('PUT', `/admin/events/${SHOW}/products/${VASE}`, { productUid: VASE });
  // The host presents the vase: its chapter is a band on the report's chart.
  await adminCall('POST', `/admin/events/${SHOW}/products/${VASE}/cues`, {
    source: 'e2e',
    presentationStartTimestamp: liveStart,
  });
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  expect(pageErrors).toEqual([]);
});

/** A viewer of its own (own storage, own viewer id) playing the show. */
async function viewer(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
  contexts.push(context);
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
  const heartbeat = page.waitForRequest(
    (request) =>
      request.url().endsWith('/shopapiv2/tracking') &&
      (request.postData() ?? '').includes('player.heartbeat'),
    WAIT,
  );
  await page.goto(`${baseUrl}/widget/${STORE}/${SHOW}`);
  await page.locator('.player').waitFor(WAIT);
  await playMuted(page);
  // Playing sends the first heartbeat at once: the viewer counts from this minute.
  await heartbeat;
  return page;
}

/** Opens the vase's details and puts it in the built-in cart. */
async function addVase(page: Page): Promise<void> {
  const added = page.waitForResponse(
    (response) => response.url().endsWith('/shopapiv2/cart/addSingle'),
    WAIT,
  );
  await page.locator(`.player__panel li[data-product-uid="${VASE}"] .product-card`).click();
  await page.locator('.product-details').waitFor(WAIT);
  await page.getByRole('button', { name: 'Add to cart' }).click();
  expect((await added).status()).toBe(200);
}

/** The viewer's cart (made by the add) ordered and paid through the API with its own session. */
async function buy(page: Page): Promise<void> {
  const { token, ref } = await checkoutOfViewer(page, STORE, SHOW);
  await fillCheckoutDetails(token, ref, {
    name: 'Analytics Buyer',
    emailAddress: 'analytics-buyer@example.com',
  });
  await payWithTestCard(token, ref, WAIT.timeout);
}

const sumOf = (values: number[]) => values.reduce((total, value) => total + value, 0);

describe('show analytics', () => {
  it('reports the viewers, adds, orders and revenue the viewers made, per minute and per product', async () => {
    const viewers = [await viewer(), await viewer(), await viewer()];
    const [first, second] = viewers as [Page, Page, Page];
    await addVase(first);
    await addVase(second);
    await buy(first);

    // The rollup runs every 15 s; "Update now" (refreshAnalytics) runs it at once. Events of the
    // last 2 s wait for the next run, so ask until everything the viewers did has arrived.
    let report: ShowAnalytics | undefined;
    await expect
      .poll(
        async () => {
          await studio('POST', 'analytics/refresh');
          report = await studio<ShowAnalytics>('GET', `analytics/shows/${SHOW}`);
          return [
            report.totals.uniqueViewers,
            report.totals.adds,
            report.totals.orders,
            report.totals.paidOrders,
          ];
        },
        { timeout: 45_000, interval: 1_000 },
      )
      .toEqual([3, 2, 1, 1]);
    if (!report) throw new Error('no report');
    expect(report.totals.revenue).toEqual([{ currency: 'DKK', amount: PRICE }]);
    expect(report.totals.liveViewers).toBe(3);
    expect(Math.max(...report.minutes.map((minute) => minute.viewersLive))).toBe(3);
    expect(sumOf(report.minutes.map((minute) => minute.adds))).toBe(2);
    expect(sumOf(report.minutes.map((minute) => minute.orders))).toBe(1);
    expect(report.minutes.flatMap((minute) => minute.revenue ?? [])).toEqual([
      { currency: 'DKK', amount: PRICE },
    ]);
    expect(report.chapters).toEqual([expect.objectContaining({ productUid: VASE, name: 'Analytics vase' })]);
    expect(report.funnel).toEqual([
      expect.objectContaining({
        productUid: VASE,
        presented: 3,
        detailsOpened: 2,
        added: 2,
        ordered: 1,
        paid: 1,
        revenue: [{ currency: 'DKK', amount: PRICE }],
      }),
    ]);

    // The owner's report shows the same numbers.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
    await openStudioAs(page, { baseUrl, adminKey, pageUid: STORE, role: 'owner', path: 'analytics' });
    const row = page.locator(`tr[data-show-uid="${SHOW}"]`);
    await row.waitFor(WAIT);
    const cells = await row.locator('td').allTextContents();
    // Date, viewers, peak, watch time, orders, conversion, revenue.
    expect(cells[1]).toBe('3');
    expect(cells[4]).toBe('1');
    expect(cells[6]).toContain('249');
    expect(await axeFindings(page)).toEqual([]);
    await saveScreenshot(page, 'analytics-overview-desktop', { fullPage: true });

    await row.getByRole('link', { name: 'Analytics test show' }).click();
    await page.waitForURL(`${baseUrl}/studio/${STORE}/analytics/shows/${SHOW}`);
    await page.getByRole('button', { name: 'Update now' }).click();
    const funnelRow = page.locator(`[data-testid="analytics-funnel"] tr[data-product-uid="${VASE}"]`);
    await funnelRow.waitFor(WAIT);
    expect(await funnelRow.locator('td').allTextContents()).toEqual([
      '3',
      '2',
      '2',
      '1',
      '1',
      expect.stringContaining('249'),
    ]);
    const totals = await page.locator('[data-testid="analytics-totals"]').textContent();
    expect(totals).toContain('Unique viewers3');
    expect(totals).toContain('Adds to cart2');
    expect(totals).toContain('Orders1');
    const minuteRows = page.locator('[data-testid="analytics-minutes"] tbody tr');
    const perMinute = await minuteRows.evaluateAll((rows) =>
      rows.map((tr) => [...tr.querySelectorAll('td')].map((cell) => cell.textContent ?? '')),
    );
    // Columns: live, replay, product views, watch time, comments, reactions, competition entries,
    // details, adds, orders, revenue.
    expect(sumOf(perMinute.map((cells) => Number(cells[8])))).toBe(2);
    expect(sumOf(perMinute.map((cells) => Number(cells[9])))).toBe(1);
    await page.locator('.analytics-chart canvas').first().waitFor(WAIT);
    expect(await axeFindings(page)).toEqual([]);
    await saveScreenshot(page, 'analytics-report-desktop', { fullPage: true });

    // The per-minute CSV, downloaded as the owner does.
    const download = page.waitForEvent('download', WAIT);
    await page.getByRole('button', { name: 'Export per minute (CSV)' }).click();
    // A copy saved where the test reads it: over a connection to the run's shared Chromium
    // (e2e/support/browser.ts) Playwright gives a download no local path.
    const file = join(mkdtempSync(join(tmpdir(), 'vitrine-analytics-csv-')), 'per-minute.csv');
    await (await download).saveAs(file);
    const csv = readFileSync(file, 'utf8').replace(/^\ufeff/, '');
    const [header, ...lines] = csv.trim().split('\n');
    expect(header).toBe(
      'Minute (UTC),Live viewers,Replay viewers,Product views,Watch seconds,Comments,Reactions,Competition entries,Details opened,Adds to cart,Orders,"Revenue (items, excl. freight, before refunds)"',
    );
    expect(sumOf(lines.map((line) => Number(line.split(',')[9])))).toBe(2);
    expect(lines.some((line) => line.endsWith(',1,249.00 DKK'))).toBe(true);

    await page.setViewportSize({ width: 390, height: 844 });
    expect(await axeFindings(page)).toEqual([]);
    await saveScreenshot(page, 'analytics-report-phone', { fullPage: true });
  });

  it('exports the funnel and the raw events of the show', async () => {
    const funnel = await studio<CsvFile>('GET', `analytics/shows/${SHOW}/export?kind=funnel`);
    expect(funnel.csv).toContain(`Analytics vase,${VASE},3,2,2,1,1,1,249.00 DKK`);
    const events = await studio<CsvFile>('GET', `analytics/shows/${SHOW}/events`);
    const names = events.csv
      .split('\n')
      .slice(1)
      .map((line) => line.split(',')[1]);
    expect(names).toEqual(
      expect.arrayContaining(['player.heartbeat', 'catalog.viewed-product-details', 'cart.added-to-cart']),
    );
    const overview = await studio<StoreAnalytics>('GET', 'analytics');
    expect(overview.shows.find((show) => show.showUid === SHOW)).toMatchObject({
      uniqueViewers: 3,
      orders: 1,
    });
  });
});
