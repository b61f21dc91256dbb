/**
 * Layout defects of issue 13 (§3, §7, §12) as the shopper sees them: the shop page's cards at
 * 1280 px and on a 390 px phone, the phone's sheets and side rail over the video. The shows are
 * this file's own (pages `e2e-layout` and `e2e-layout-hidden`), so the demo store stays as seeded.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SHOW_VIDEO, liveSince, putCampaignShow } from './support/admin-shows.ts';
import { englishPage, launchChromium } from './support/browser.ts';
import { saveScreenshot } from './support/screenshots.ts';
import { adminCall, testServer } from './support/test-server.ts';
import { playNearEnd } from './support/video-playback.ts';

const { baseUrl } = testServer();
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const PAGE = 'e2e-layout';
const HIDDEN_PRICES_PAGE = 'e2e-layout-hidden';
/** A live show with one product, and one with three products and a running poll. */
const ONE_PRODUCT = 'e2e-layout-one';
const WITH_POLL = 'e2e-layout-poll';

const PRODUCTS = [
  { uid: 'layout-shirt', name: 'Linen shirt', image: '/demo-media/product-linen-shirt.jpg', dkk: 54900 },
  { uid: 'layout-mug', name: 'Ceramic mug', image: '/demo-media/product-ceramic-mug.jpg', dkk: 17900 },
  { uid: 'layout-scarf', name: 'Wool scarf', image: '/demo-media/product-wool-scarf.jpg', dkk: 39900 },
];

/** A store with the demo's logo, a long description, the three products and the given settings. */
async function seedPage(pageUid: string, playerSettings: Record<string, unknown>) {
  await adminCall('PUT', `/admin/pages/${pageUid}`, {
    name: 'Layout Living',
    description:
      'A small homeware studio. We make and curate linen, wool, stoneware and oak for calm Nordic homes, and we present new collections live every month.',
    logo: '/demo-media/logo.svg',
    playerSettings,
  });
  for (const product of PRODUCTS) {
    await adminCall('PUT', `/staff/stores/${pageUid}/products/${pageUid}-${product.uid}`, {
      name: product.name,
      images: [product.image],
      prices: { DKK: product.dkk, EUR: Math.round(product.dkk / 7.45) },
      stock: 50,
    });
  }
}

async function seedLiveShow(pageUid: string, campaignUid: string, productUids: string[]) {
  await putCampaignShow(
    pageUid,
    { uid: campaignUid, name: campaignUid, deadline: null },
    {
      eventName: `Live: ${campaignUid}`,
      ...liveSince(),
      cdnMp4VideoUrl: DEMO_SHOW_VIDEO,
      coverPhotoPath: '/demo-media/cover-live.jpg',
    },
  );
  for (const productUid of productUids)
    await adminCall('PUT', `/admin/events/${campaignUid}/products/${productUid}`, {
      productUid: `${pageUid}-${productUid}`,
    });
}

let browser: Browser;
const pageErrors: string[] = [];

beforeAll(async () => {
  await seedPage(PAGE, {});
  await seedLiveShow(PAGE, ONE_PRODUCT, ['layout-mug']);
  await seedLiveShow(
    PAGE,
    WITH_POLL,
    PRODUCTS.map((product) => product.uid),
  );
  await adminCall('POST', `/staff/stores/${PAGE}/shows/${WITH_POLL}/competitions`, {
    type: 'poll',
    name: 'Which colour should the next scarf be?',
    options: [
      { id: 'rust', text: 'Rust' },
      { id: 'sage', text: 'Sage' },
    ],
    openForParticipation: true,
    playing: true,
  });
  await seedPage(HIDDEN_PRICES_PAGE, { hidePrices: true });
  await seedLiveShow(HIDDEN_PRICES_PAGE, 'e2e-layout-hidden-live', ['layout-mug', 'layout-scarf']);
  browser = await launchChromium(['--autoplay-policy=no-user-gesture-required']);
});
afterAll(async () => {
  await browser?.close();
});

async function open(path: string, viewport: { width: number; height: number }): Promise<Page> {
  const { page } = await englishPage(browser, pageErrors, viewport, { phoneWhenNarrow: true });
  await page.goto(`${baseUrl}${path}`);
  return page;
}

/** Waits until the images in the page have loaded, so sizes are final. */
const imagesLoaded = (page: Page) =>
  page.waitForFunction(() => [...document.images].every((image) => image.complete && image.naturalWidth > 0));

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('shop page layout', () => {
  it('shows whole prices, a one-product live card as tall as the others, the whole 9:16 live cover and the logo at its proportions (1280 px)', async () => {
    const page = await open(`/widget/${PAGE}`, DESKTOP);
    await page.locator(`[data-event-id="${ONE_PRODUCT}"]`).waitFor();
    await page.locator(`[data-event-id="${WITH_POLL}"]`).waitFor();
    await imagesLoaded(page);

    // No price is cut off with an ellipsis, on this page or the demo store's narrower cards.
    const clippedPrices = (p: Page) =>
      p.$$eval('.event-card__price', (prices) =>
        prices.filter((price) => price.scrollWidth > price.clientWidth + 1).map((price) => price.textContent),
      );
    expect(await clippedPrices(page)).toEqual([]);
    const demo = await open('/', DESKTOP);
    await demo.locator('[data-row="vod"] .event-card__price').first().waitFor();
    expect(await clippedPrices(demo)).toEqual([]);
    for (const price of await demo.$$eval('.event-card__price', (prices) => prices.map((p) => p.textContent)))
      expect(price).toMatch(/^DKK \d+\.\d\d$/);
    await saveScreenshot(demo, 'layout-demo-shop-desktop', { fullPage: true });

    // One product does not make its live card taller than a card with three.
    const height = async (eventId: string) =>
      (await page.locator(`[data-event-id="${eventId}"]`).boundingBox())?.height ?? 0;
    const oneProductHeight = await height(ONE_PRODUCT);
    expect(oneProductHeight).toBeGreaterThan(0);
    expect(oneProductHeight).toBeLessThanOrEqual((await height(WITH_POLL)) + 1);

    // The 9:16 cover is shown whole: its box has the picture's own proportions.
    const cover = await page
      .locator(`[data-event-id="${ONE_PRODUCT}"] .event-card__cover img`)
      .evaluate((image: HTMLImageElement) => ({
        box: image.clientWidth / image.clientHeight,
        picture: image.naturalWidth / image.naturalHeight,
      }));
    expect(Math.abs(cover.box - cover.picture)).toBeLessThan(0.02);

    // The 240×64 logo keeps its proportions instead of shrinking into a 56 px square.
    const logo = await page.locator('.shop-header__logo').evaluate((image: HTMLImageElement) => ({
      width: image.getBoundingClientRect().width,
      height: image.getBoundingClientRect().height,
    }));
    expect(logo.height).toBe(56);
    expect(logo.width / logo.height).toBeGreaterThan(3);
    await saveScreenshot(page, 'layout-shop-desktop', { fullPage: true });
    expect(pageErrors).toEqual([]);
  });

  it('gives the store description the phone’s width instead of a narrow column beside the language menu', async () => {
    const page = await open(`/widget/${PAGE}`, PHONE);
    const description = page.locator('.shop-header__description');
    await description.waitFor();
    const lines = await description.evaluate(
      (element) =>
        element.getBoundingClientRect().height / Number.parseFloat(getComputedStyle(element).lineHeight),
    );
    // 146 characters at 390 px: about four lines (it was 14 beside the menu).
    expect(Math.round(lines)).toBeLessThanOrEqual(5);
    const box = await description.boundingBox();
    expect(box?.width ?? 0).toBeGreaterThan(PHONE.width * 0.8);
    await saveScreenshot(page, 'layout-shop-phone', { fullPage: true });
    expect(pageErrors).toEqual([]);
  });

  it('hides the event cards’ prices when the page’s hidePrices setting is on (spec §3)', async () => {
    const page = await open(`/widget/${HIDDEN_PRICES_PAGE}`, DESKTOP);
    const card = page.locator('[data-event-id="e2e-layout-hidden-live"]');
    await card.waitFor();
    // The previews are there, their prices are not.
    expect(await card.locator('.event-card__products img').count()).toBe(2);
    expect(await page.locator('.event-card__price').count()).toBe(0);
    expect(await card.textContent()).not.toMatch(/DKK|kr/);
    expect(pageErrors).toEqual([]);
  });

  it('gives each show card one tab stop, its name, which opens the show', async () => {
    const page = await open(`/widget/${PAGE}`, DESKTOP);
    const card = page.locator(`[data-event-id="${ONE_PRODUCT}"]`);
    await card.waitFor();
    const focusable = await card.evaluate(
      (element) =>
        [...element.querySelectorAll<HTMLElement>('a[href], button, [tabindex]')].filter(
          (candidate) => candidate.tabIndex >= 0,
        ).length,
    );
    expect(focusable).toBe(1);
    await card.locator('.event-card__link').focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`${baseUrl}/widget/${PAGE}/${ONE_PRODUCT}`);
    expect(pageErrors).toEqual([]);
  });
});

describe('phone player layout', () => {
  it('puts the products sheet above a running poll’s card, and the sheet takes the taps', async () => {
    const page = await open(`/widget/${PAGE}/${WITH_POLL}`, PHONE);
    await page.locator('.competition-overlay').waitFor();
    await page.locator('.mobile-menu button', { hasText: 'Products' }).tap();
    const sheet = page.locator('.mobile-sheet');
    await sheet.locator('.product-card').first().waitFor();
    const card = sheet.locator('.product-card', { hasText: 'Wool scarf' });
    const box = await card.boundingBox();
    if (!box) throw new Error('the product card has no box');
    const overlay = await page.locator('.competition-overlay').boundingBox();
    // The poll's card and the product card share this spot; the sheet's card must be on top.
    expect(overlay && overlaps(box, overlay)).toBe(true);
    const center = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    const onTop = await page.evaluate(
      ({ x, y }) =>
        document.elementFromPoint(x, y)?.closest('.mobile-sheet, .competition-overlay')?.className,
      center,
    );
    expect(onTop).toBe('mobile-sheet');
    await page.touchscreen.tap(center.x, center.y);
    await sheet.locator('.product-details', { hasText: 'Wool scarf' }).waitFor();
    await saveScreenshot(page, 'layout-phone-sheet-over-poll');
    expect(pageErrors).toEqual([]);
  });

  it('keeps the show-ended and upcoming cards clear of the side rail, whose labels sit on a dark ground', async () => {
    const ended = await open('/widget/demo-store/demo-kitchen-favourites', PHONE);
    await ended.locator('.player').waitFor();
    await playNearEnd(ended, 0.3);
    const endedCard = ended.locator('.video-stage__overlay[role="dialog"]');
    await endedCard.waitFor({ timeout: 15_000 });
    const rail = await ended.locator('.mobile-menu').boundingBox();
    const endedBox = await endedCard.boundingBox();
    if (!rail || !endedBox) throw new Error('no rail or card');
    expect(overlaps(rail, endedBox)).toBe(false);
    // Labels: at least 12 px, on a nearly opaque dark pill (not bare white text over the video).
    const label = await ended
      .locator('.mobile-menu__label')
      .first()
      .evaluate((element) => {
        const style = getComputedStyle(element);
        return { fontSize: Number.parseFloat(style.fontSize), background: style.backgroundColor };
      });
    expect(label.fontSize).toBeGreaterThanOrEqual(12);
    const alpha = Number(/rgba\(0, 0, 0, ([\d.]+)\)/.exec(label.background)?.[1] ?? 0);
    expect(alpha).toBeGreaterThanOrEqual(0.6);
    await saveScreenshot(ended, 'layout-phone-ended');

    const planned = await open('/widget/demo-store/demo-winter-textiles', PHONE);
    const plannedCard = planned.locator('.video-stage__overlay--planned');
    await plannedCard.waitFor();
    const plannedRail = await planned.locator('.mobile-menu').boundingBox();
    const plannedBox = await plannedCard.boundingBox();
    if (!plannedRail || !plannedBox) throw new Error('no rail or card');
    expect(overlaps(plannedRail, plannedBox)).toBe(false);
    await saveScreenshot(planned, 'layout-phone-upcoming');
    expect(pageErrors).toEqual([]);
  });
});

describe('desktop player', () => {
  it('gives the Video tab a purpose: the show’s chapters, each playing from its product’s moment', async () => {
    const page = await open('/widget/demo-store/demo-kitchen-favourites', DESKTOP);
    await page.locator('.player__tabs [role="tab"]', { hasText: /^Video$/ }).click();
    const chapters = page.locator('.player__panel .video-chapters__chapter');
    await chapters.first().waitFor();
    // The recorded demo show cues three of its products.
    expect(await chapters.count()).toBe(3);
    const times = await page.$$eval('.player__panel .video-chapters__time', (elements) =>
      elements.map((element) => element.textContent ?? ''),
    );
    const seconds = times.map((time) => {
      const [minutes, secs] = time.split(':').map(Number);
      return (minutes ?? 0) * 60 + (secs ?? 0);
    });
    expect(seconds).toEqual([...seconds].sort((a, b) => a - b));
    const body = await page.locator('.player__panel-body').boundingBox();
    expect(body?.height ?? 0).toBeGreaterThan(200);

    await chapters.nth(1).click();
    await page.waitForFunction(
      (start) => Math.abs((document.querySelector('video') as HTMLVideoElement).currentTime - start) < 1.5,
      seconds[1] ?? 0,
    );
    await saveScreenshot(page, 'layout-video-tab');
    expect(pageErrors).toEqual([]);
  });
});
