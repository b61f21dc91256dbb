/**
 * Search across shows (issue 32 item 5): on a store's front page a shopper types a product's
 * name, sees it grouped by its live, upcoming and recorded shows, opens the recording and the
 * player starts at the moment the product was presented; a reload keeps both the search (`?q=`)
 * and the moment (`?t=`). axe-core finds nothing on the results, on a desktop and a phone.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putShow } from './support/admin-shows.ts';
import { axeFindings } from './support/axe.ts';
import { englishPage, launchChromium } from './support/browser.ts';
import { webLocale } from './support/locale-texts.ts';
import { saveScreenshot } from './support/screenshots.ts';
import { adminCall, testServer } from './support/test-server.ts';

const { baseUrl, retailerUrl } = testServer();
const PAGE = 'search-e2e';
const DAY = 24 * 60 * 60_000;
/** The teapot is presented 30 s into the recording (a relative cue): where its result opens. */
const TEAPOT_AT_SECONDS = 30;
const searchEn = webLocale('search/en') as Record<string, string>;

const admin = (path: string, body: unknown) => adminCall('PUT', path, body);

let browser: Browser;
const pageErrors: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  const now = Date.now();
  await admin(`/admin/pages/${PAGE}`, {
    name: 'Tea & Table',
    language: 'en',
    currency: 'DKK',
    // The demo retailer embeds the store's search through the SDK (the last test).
    allowedOrigins: [new URL(retailerUrl).origin],
  });
  await admin(`/staff/stores/${PAGE}/products/teapot`, {
    name: 'Celadon teapot',
    description: 'Thrown stoneware, one litre.',
    images: ['/demo-media/cover-vod.jpg'],
    prices: { DKK: 49_900 },
  });
  await admin(`/staff/stores/${PAGE}/products/cups`, { name: 'Celadon cups', prices: { DKK: 9_900 } });
  for (const campaign of ['tea-live', 'tea-next', 'tea-replay', 'tea-draft'])
    await admin(`/admin/pages/${PAGE}/campaigns/${campaign}`, { name: campaign, deadline: now + 30 * DAY });
  await putShow(PAGE, 'tea-live', {
    currentStatus: 'live',
    eventName: 'Tea time, live',
    eventStartTimestamp: now - 10 * 60_000,
    liveStartTime: now - 10 * 60_000,
    coverPhotoPath: '/demo-media/cover-live.jpg',
  });
  await putShow(PAGE, 'tea-next', {
    currentStatus: 'planned',
    eventName: 'Autumn teas',
    eventStartTimestamp: now + 2 * DAY,
    coverPhotoPath: '/demo-media/cover-planned.jpg',
  });
  await putShow(PAGE, 'tea-replay', {
    currentStatus: 'vod',
    eventName: 'The teapot show',
    eventStartTimestamp: now - 3 * DAY,
    liveStartTime: now - 3 * DAY,
    liveEndTime: now - 3 * DAY + 60_000,
    cdnMp4VideoUrl: '/demo-media/demo-show.mp4',
    coverPhotoPath: '/demo-media/cover-vod.jpg',
  });
  await putShow(PAGE, 'tea-draft', {
    status: 'draft',
    currentStatus: 'planned',
    eventName: 'Unannounced teapot launch',
    eventStartTimestamp: now + DAY,
  });
  for (const id of ['tea-live', 'tea-next', 'tea-draft'])
    await admin(`/admin/events/${id}/products/teapot`, { productUid: 'teapot' });
  await admin('/admin/events/tea-replay/products/cups', {
    productUid: 'cups',
    relativeCues: [{ presentationTime: 5_000, presentationEndTime: 20_000 }],
  });
  await admin('/admin/events/tea-replay/products/teapot', {
    productUid: 'teapot',
    relativeCues: [{ presentationTime: TEAPOT_AT_SECONDS * 1000, presentationEndTime: 45_000 }],
  });
});

afterAll(async () => {
  await browser?.close();
});

async function openPage(viewport: { width: number; height: number }): Promise<Page> {
  const { page } = await englishPage(browser, pageErrors, viewport, { phoneWhenNarrow: true });
  return page;
}

const status = (page: Page) => page.locator('.show-search__status');

async function videoTime(page: Page): Promise<number> {
  await page.waitForFunction(() => {
    const video = document.querySelector('video');
    return video !== null && video.readyState >= 1 && video.currentTime > 0;
  });
  return page.evaluate(() => document.querySelector('video')?.currentTime ?? -1);
}

describe('search across shows', () => {
  it('finds a product by its name, grouped by show, and opens the replay at its moment; reloads keep both', async () => {
    const page = await openPage({ width: 1280, height: 900 });
    await page.goto(`${baseUrl}/widget/${PAGE}`);
    const input = page.getByLabel(searchEn.label ?? '');
    await input.fill('celadon tea');
    await expect.poll(() => page.url()).toContain('q=celadon+tea');
    await page.locator('[data-search-results]').waitFor();
    expect(await status(page).textContent()).toBe('Products found: 1');
    expect(await status(page).getAttribute('aria-live')).toBe('polite');
    const groups = page.locator('[data-search-group]');
    expect(
      await groups.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-search-group'))),
    ).toEqual(['live', 'planned', 'vod']);
    // The draft's name never reaches the page.
    expect(await page.content()).not.toContain('Unannounced');
    const replay = page.locator('[data-search-group="vod"] a.search-hit');
    expect(await replay.textContent()).toContain('Presented at 0:30');
    expect(await axeFindings(page)).toEqual([]);

    // The keyboard: from the box, the arrow goes to the first result.
    await input.focus();
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-event'))).toBe('tea-live');

    await saveScreenshot(page, 'show-search-desktop', { fullPage: true });

    // The search is in the address: a reload shows the same results.
    await page.reload();
    await page.locator('[data-search-results]').waitFor();
    expect(await page.getByLabel(searchEn.label ?? '').inputValue()).toBe('celadon tea');

    await page.locator('[data-search-group="vod"] a.search-hit').click();
    await page.waitForURL(/\/widget\/search-e2e\/campaign\/tea-replay\/event\/tea-replay\?t=30/);
    expect(Math.round(await videoTime(page))).toBe(TEAPOT_AT_SECONDS);
    // The moment is in the address too: a reload starts there again.
    await page.reload();
    expect(Math.round(await videoTime(page))).toBe(TEAPOT_AT_SECONDS);
    await saveScreenshot(page, 'show-search-replay-at-moment');
    await page.context().close();
  });

  it('works on a phone: no axe finding, a screenshot to look at', async () => {
    const page = await openPage({ width: 390, height: 844 });
    await page.goto(`${baseUrl}/widget/${PAGE}?q=teapot`);
    await page.locator('[data-search-results]').waitFor();
    expect(await status(page).textContent()).toBe('Products found: 1');
    expect(await axeFindings(page)).toEqual([]);
    await saveScreenshot(page, 'show-search-phone');
    // A word no product has: said so, in the live region.
    await page.getByLabel(searchEn.label ?? '').fill('samovar');
    await expect.poll(() => status(page).textContent()).toBe('No product in the shows matches “samovar”.');
    await page.context().close();
  });

  it("opens through the SDK's search option on a retailer's page, and a result plays at its moment there", async () => {
    const page = await openPage({ width: 1280, height: 900 });
    await page.goto(`${retailerUrl}/`);
    await page.waitForFunction(() => 'Vitrine' in window);
    await page.evaluate(
      (pageUid) =>
        (window as unknown as { Vitrine: { init(options: object): unknown } }).Vitrine.init({
          pageUid,
          mode: 'modal',
          search: 'celadon tea',
        }),
      PAGE,
    );
    const frame = page.frameLocator('iframe[src*="q=celadon+tea"]');
    await frame.locator('[data-search-results]').waitFor();
    await frame.locator('[data-search-group="vod"] a.search-hit').click();
    await frame.locator('video').waitFor();
    const player = page.frames().find((candidate) => candidate.url().includes('/event/tea-replay?t=30'));
    expect(
      player,
      page
        .frames()
        .map((candidate) => candidate.url())
        .join('\n'),
    ).toBeDefined();
    await player?.waitForFunction(() => {
      const video = document.querySelector('video');
      return video !== null && video.readyState >= 1 && Math.round(video.currentTime) === 30;
    });
    await page.context().close();
    expect(pageErrors).toEqual([]);
  });
});
