/**
 * The shopper's path through the player (issue 27 §3–§6, §8), in Chromium: Escape closes the
 * phone's sheets and the SDK's modal (with the focus inside its iframe too) and the modal gives the
 * page back; a landscape show is seen whole on a phone and a desktop; a phone viewer is told the
 * live show ended; the desktop offers no empty Video tab; tabbing through a live player never
 * drops the focus to the page. Its shows are on a page of its own (`e2e-player-ui`); the SDK and
 * sheet tests use the demo store's live show, which the demo retailer embeds, without changing it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeFindings } from './support/axe.ts';
import { launchChromium } from './support/browser.ts';
import { webLocale } from './support/locale-texts.ts';
import { saveScreenshot } from './support/screenshots.ts';
import { type SyntheticHls, serveHls, startSyntheticHls, waitForSegments } from './support/synthetic-hls.ts';
import { adminCall, testServer } from './support/test-server.ts';

const { baseUrl, retailerUrl } = testServer();
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const PAGE = 'e2e-player-ui';
/** A live HLS show (portrait, like a phone stream) and a live show of a 1280×720 landscape file. */
const LIVE = 'e2e-player-ui-live';
const LANDSCAPE = 'e2e-player-ui-landscape';
const DEMO_LIVE = '/widget/demo-store/demo-autumn-living';
const LIVE_PREFIX = `${baseUrl}/e2e-hls/player-ui/`;
const MEDIA_PREFIX = `${baseUrl}/e2e-media/player-ui/`;
/** Generous: two cores are shared with the server and other tests. */
const WAIT = { timeout: 30_000 };

const en = webLocale('en') as {
  player: {
    close: string;
    addToCart: string;
    tabs: Record<string, string>;
    mobileMenu: Record<string, string>;
    recordedCover: Record<string, string>;
    live: Record<string, string>;
  };
};

let browser: Browser;
let live: SyntheticHls;
let mediaDir: string;
const contexts: BrowserContext[] = [];
const pageErrors: string[] = [];

function liveEvent(campaignId: string, videoUrl: string, currentStatus: 'live' | 'vod' = 'live') {
  const start = Date.now() - 60_000;
  return {
    pageUid: PAGE,
    campaignId,
    currentStatus,
    eventName: `Live: ${campaignId}`,
    eventStartTimestamp: start,
    liveStartTime: start,
    ...(currentStatus === 'vod' ? { liveEndTime: Date.now(), cdnVideoStartTime: start } : {}),
    cdnMp4VideoUrl: videoUrl,
    coverPhotoPath: '/demo-media/cover-live.jpg',
  };
}

beforeAll(async () => {
  live = startSyntheticHls();
  // A 1280×720 show, as OBS or the Go live page's "720p landscape" sends: a few seconds are enough.
  mediaDir = mkdtempSync(join(tmpdir(), 'vitrine-player-ui-'));
  execFileSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-y'],
    ...['-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=10', '-t', '4'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-movflags', '+faststart'],
    join(mediaDir, 'landscape.mp4'),
  ]);
  browser = await launchChromium();
  await adminCall('PUT', `/admin/pages/${PAGE}`, {
    name: 'Player UI Living',
    language: 'en',
    currency: 'DKK',
  });
  await adminCall('PUT', `/staff/stores/${PAGE}/products/${PAGE}-mug`, {
    name: 'Ceramic mug',
    images: ['/demo-media/product-ceramic-mug.jpg'],
    prices: { DKK: 17900 },
    stock: 50,
  });
  for (const campaign of [LIVE, LANDSCAPE]) {
    await adminCall('PUT', `/admin/pages/${PAGE}/campaigns/${campaign}`, { name: campaign, deadline: null });
  }
  await waitForSegments(live, 3);
  await adminCall('PUT', `/admin/events/${LIVE}`, liveEvent(LIVE, `/e2e-hls/player-ui/${live.playlist}`));
  await adminCall(
    'PUT',
    `/admin/events/${LANDSCAPE}`,
    liveEvent(LANDSCAPE, '/e2e-media/player-ui/landscape.mp4'),
  );
  for (const campaign of [LIVE, LANDSCAPE]) {
    await adminCall('PUT', `/admin/events/${campaign}/products/${PAGE}-mug`, { productUid: `${PAGE}-mug` });
  }
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await live?.remove();
  if (mediaDir) rmSync(mediaDir, { recursive: true, force: true });
  expect(pageErrors).toEqual([]);
});

async function newPage(viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ viewport, locale: 'en-GB' });
  contexts.push(context);
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
  // The streams and the landscape file come from the app's own origin, as its CSP wants.
  await serveHls(page, LIVE_PREFIX, live.dir);
  await serveHls(page, MEDIA_PREFIX, mediaDir);
  return page;
}

/** axe-core finds nothing serious (or critical) on the screen as it is now. */
async function expectAccessible(page: Page, screen: string) {
  const findings = (await axeFindings(page)).filter(
    (finding) => finding.impact === 'serious' || finding.impact === 'critical',
  );
  expect(findings, `${screen}: ${JSON.stringify(findings, null, 1)}`).toEqual([]);
}

/** The focused element, described: tag, class and text. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return 'body';
    return `${element.tagName.toLowerCase()}.${element.className} ${(element.textContent ?? '').trim().slice(0, 40)}`;
  });

/** Resolves once the page's video is playing and has played past `seconds`. */
async function playing(page: Page, seconds = 1) {
  await page.waitForFunction(
    (seconds) => {
      const video = document.querySelector('video') as HTMLVideoElement;
      return !video.paused && video.currentTime > seconds;
    },
    seconds,
    WAIT,
  );
}

/**
 * How the video's picture is drawn in its element: the share of the picture that is visible (1 =
 * the whole frame), the drawn picture's size and aspect ratio, from the element's box, its
 * object-fit and the video's intrinsic size.
 */
function drawnPicture(page: Page) {
  return page.evaluate(() => {
    const video = document.querySelector('video') as HTMLVideoElement;
    const { videoWidth, videoHeight, clientWidth, clientHeight } = video;
    const fit = getComputedStyle(video).objectFit;
    const widthScale = clientWidth / videoWidth;
    const heightScale = clientHeight / videoHeight;
    const scale = fit === 'cover' ? Math.max(widthScale, heightScale) : Math.min(widthScale, heightScale);
    const width = fit === 'fill' ? clientWidth : videoWidth * scale;
    const height = fit === 'fill' ? clientHeight : videoHeight * scale;
    return {
      fit,
      intrinsicAspect: videoWidth / videoHeight,
      drawnAspect: width / height,
      visibleShare: Math.min(1, clientWidth / width) * Math.min(1, clientHeight / height),
      width,
      height,
    };
  });
}

describe('Escape (issue 27 §3)', () => {
  it('closes the phone’s product and cart sheets and gives the focus back to their menu button', async () => {
    const page = await newPage(PHONE);
    await page.goto(`${baseUrl}${DEMO_LIVE}`);
    await page.locator('.player[data-layout="phone"]').waitFor(WAIT);
    const menuButton = (name: string) => page.locator('.mobile-menu button', { hasText: name });
    const sheet = page.locator('.mobile-sheet');

    await menuButton(en.player.mobileMenu.products ?? '').click();
    await sheet.locator('.product-card', { hasText: 'Ceramic mug' }).click();
    const details = sheet.locator('.product-details');
    await details.getByRole('button', { name: en.player.addToCart }).click();
    await details.locator('[data-feedback="added"]').waitFor(WAIT);
    await saveScreenshot(page, 'phone-product-sheet');
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'detached', ...WAIT });
    expect(await focused(page)).toContain(en.player.mobileMenu.products);

    await menuButton(en.player.mobileMenu.cart ?? '').click();
    await sheet.locator('.player-cart__line').first().waitFor(WAIT);
    // With the focus inside the sheet, too.
    await sheet.locator('.mobile-sheet__header button').focus();
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'detached', ...WAIT });
    expect(await focused(page)).toContain(en.player.mobileMenu.cart);
    expect(await page.getAttribute('.player', 'data-mobile-panel')).toBe('none');
  }, 120_000);

  it('closes the SDK’s modal with the focus inside its iframe, and the page is usable again', async () => {
    const page = await newPage({ width: 1280, height: 900 });
    await page.goto(`${retailerUrl}/`);
    await page.waitForFunction(() => 'Vitrine' in window, undefined, WAIT);
    await page.evaluate(() => {
      // A control of the retailer's page, under the middle of the modal: it counts its clicks.
      const button = document.createElement('button');
      button.id = 'page-control';
      button.textContent = 'Retailer control';
      button.style.cssText = 'position:fixed;left:600px;top:420px;width:120px;height:40px;z-index:1';
      button.dataset.clicks = '0';
      button.addEventListener('click', () => {
        button.dataset.clicks = String(Number(button.dataset.clicks) + 1);
      });
      document.body.append(button);
    });
    const playerId = await page.evaluate(() => {
      const vitrine = (window as unknown as { Vitrine: { init(o: unknown): { playerId: string } } }).Vitrine;
      return vitrine.init({ pageUid: 'demo-store', campaignUid: 'demo-autumn-living', mode: 'modal' })
        .playerId;
    });
    const iframe = page.locator(`iframe[src*="playerId=${playerId}"]`);
    const frame = page.frameLocator(`iframe[src*="playerId=${playerId}"]`);
    await frame.locator('.player[data-host="on"]').waitFor(WAIT);
    expect(await page.evaluate(() => document.documentElement.style.overflow)).toBe('hidden');

    // The shopper works in the player: the focus is in the iframe, where the page hears no keys.
    await frame.locator('.player__tabs [role="tab"]', { hasText: /^Comments\d*$/ }).click();
    await frame.locator('.player__tabs [role="tab"]', { hasText: /^Products\d*$/ }).click();
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('IFRAME');
    await saveScreenshot(page, 'sdk-modal-focused');
    await page.keyboard.press('Escape');
    await iframe.waitFor({ state: 'detached', ...WAIT });

    // The page is given back: it scrolls again and its controls take clicks.
    expect(await page.evaluate(() => document.documentElement.style.overflow)).toBe('');
    await page.mouse.click(660, 440);
    expect(await page.getAttribute('#page-control', 'data-clicks')).toBe('1');
    await saveScreenshot(page, 'sdk-modal-closed');
  }, 120_000);
});

describe('a landscape show (issue 27 §4)', () => {
  it('shows the whole 1280×720 frame on a phone, letterboxed, and a vertical show still edge to edge', async () => {
    const page = await newPage(PHONE);
    await page.goto(`${baseUrl}/widget/${PAGE}/${LANDSCAPE}`);
    await page.locator('.player[data-layout="phone"]').waitFor(WAIT);
    await page.waitForFunction(() => (document.querySelector('video')?.videoWidth ?? 0) > 0, undefined, WAIT);
    // The whole frame is drawn (once the player has its size from the metadata), undistorted, as
    // wide as the phone.
    await expect.poll(async () => (await drawnPicture(page)).visibleShare, WAIT).toBeGreaterThan(0.99);
    const picture = await drawnPicture(page);
    expect(picture.intrinsicAspect).toBeCloseTo(16 / 9, 2);
    expect(picture.drawnAspect).toBeCloseTo(16 / 9, 2);
    expect(Math.abs(picture.width - PHONE.width)).toBeLessThan(2);
    await saveScreenshot(page, 'landscape-phone');
    await expectAccessible(page, 'landscape-phone');

    // A vertical show keeps filling the phone (it loses less than MAX_COVER_CROP at its sides).
    await page.goto(`${baseUrl}/widget/${PAGE}/${LIVE}`);
    await page.locator('.player[data-layout="phone"]').waitFor(WAIT);
    await page.waitForFunction(() => (document.querySelector('video')?.videoWidth ?? 0) > 0, undefined, WAIT);
    const vertical = await drawnPicture(page);
    expect(vertical.fit).toBe('cover');
    expect(vertical.visibleShare).toBeGreaterThan(0.75);
    expect(Math.abs(vertical.height - PHONE.height)).toBeLessThan(2);
  }, 120_000);

  it('gives a landscape show a landscape stage on a desktop, beside the panel', async () => {
    const page = await newPage(DESKTOP);
    await page.goto(`${baseUrl}/widget/${PAGE}/${LANDSCAPE}`);
    await page.locator('.player[data-layout="desktop"]').waitFor(WAIT);
    await page.waitForFunction(() => (document.querySelector('video')?.videoWidth ?? 0) > 0, undefined, WAIT);
    // Not letterboxed into a 9:16 strip (450 px wide at this height): as wide as the room left of the panel.
    const panel = await page.locator('.player__panel').boundingBox();
    const room = DESKTOP.width - (panel?.width ?? 0);
    await expect.poll(async () => Math.round((await drawnPicture(page)).width), WAIT).toBe(room);
    const picture = await drawnPicture(page);
    expect(picture.visibleShare).toBeGreaterThan(0.99);
    expect(picture.drawnAspect).toBeCloseTo(16 / 9, 2);
    await saveScreenshot(page, 'landscape-desktop');
    await expectAccessible(page, 'landscape-desktop');
  }, 120_000);
});

describe('the desktop panel’s tabs (issue 27 §6)', () => {
  it('offers no Video tab for a show without chapters, and keeps it where chapters exist', async () => {
    const page = await newPage(DESKTOP);
    await page.goto(`${baseUrl}/widget/${PAGE}/${LANDSCAPE}`);
    const tabs = page.locator('.player__tabs [role="tab"]');
    await tabs.first().waitFor(WAIT);
    const names = await tabs.evaluateAll((elements) =>
      elements.map((element) => element.firstChild?.textContent),
    );
    expect(names).toEqual([en.player.tabs.products, en.player.tabs.comments, en.player.tabs.privateComments]);
    await saveScreenshot(page, 'tabs-without-video');
    await expectAccessible(page, 'tabs-without-video');

    // The recorded demo show marks its products: its Video tab lists them as chapters.
    await page.goto(`${baseUrl}/widget/demo-store/demo-kitchen-favourites`);
    await page.locator('.player__tabs [role="tab"]', { hasText: /^Video$/ }).click();
    await page.locator('.player__panel .video-chapters__chapter').first().waitFor(WAIT);
  }, 120_000);
});

describe('the live player', () => {
  it('keeps the focus on a control while tabbing and using them (issue 27 §8)', async () => {
    const page = await newPage(DESKTOP);
    await page.goto(`${baseUrl}/widget/${PAGE}/${LIVE}`);
    await page.locator('.player[data-show-state="live"]').waitFor(WAIT);
    await playing(page);
    const steps: string[] = [];
    // A key, then where the focus is once the control has answered (a button's label follows the
    // video's own play/pause events, which a busy machine delivers late): never on the page itself.
    const step = async (key: 'Tab' | 'Enter', expected: string | undefined) => {
      await page.keyboard.press(key);
      let now = '';
      await expect
        .poll(async () => {
          now = await focused(page);
          return now;
        }, WAIT)
        .toContain(expected ?? '(no text)');
      steps.push(`${key} → ${now}`);
      expect(now, steps.join('\n')).not.toBe('body');
    };
    await step('Tab', en.player.live.tapForSound);
    await step('Enter', en.player.live.mute);
    await step('Tab', en.player.live.pause);
    await step('Enter', en.player.live.play);
    await page.locator('.live-controls__back').waitFor(WAIT);
    await step('Tab', en.player.live.backToLive);
    // Back at the live edge the button goes; the focus goes to play/pause, not to the page.
    await step('Enter', en.player.live.pause);
    await page.locator('.live-controls__back').waitFor({ state: 'detached', ...WAIT });
    expect(await focused(page)).toContain(en.player.live.pause);
    await saveScreenshot(page, 'live-controls-focus');
    // On through the rest of the player, to its last control (the product list), never the page.
    for (let count = 0; count < 25; count += 1) {
      await page.keyboard.press('Tab');
      const now = await focused(page);
      steps.push(`Tab → ${now}`);
      expect(now, steps.join('\n')).not.toBe('body');
      if (now.startsWith('button.product-card')) break;
    }
    expect(await focused(page)).toContain('Ceramic mug');
  }, 120_000);

  it('tells a phone viewer, who was watching, that the live show ended (issue 27 §5)', async () => {
    const phone = await newPage(PHONE);
    const desktop = await newPage(DESKTOP);
    for (const page of [phone, desktop]) {
      await page.goto(`${baseUrl}/widget/${PAGE}/${LIVE}`);
      await page.locator('.player[data-show-state="live"]').waitFor(WAIT);
      await playing(page);
    }
    // The host ends the show: the stream stops and the event becomes its recording.
    await live.stop();
    await adminCall('PUT', `/admin/events/${LIVE}`, liveEvent(LIVE, '/demo-media/demo-show.mp4', 'vod'));
    for (const [page, name] of [
      [phone, 'show-ended-live-phone'],
      [desktop, 'show-ended-live-desktop'],
    ] as const) {
      await page.locator('.player[data-show-state="recorded"]').waitFor(WAIT);
      const title = page
        .locator('.video-stage__overlay--cover')
        .getByText(en.player.recordedCover.endedTitle ?? '');
      await title.waitFor(WAIT);
      // Seen, not covered by the rail or a card: the title is what is on top at its middle.
      const box = await title.boundingBox();
      if (!box) throw new Error('no title box');
      const onTop = await page.evaluate(
        ({ x, y }) => document.elementFromPoint(x, y)?.closest('.video-stage__overlay--cover') !== null,
        { x: box.x + box.width / 2, y: box.y + box.height / 2 },
      );
      expect(onTop).toBe(true);
      await saveScreenshot(page, name);
      await expectAccessible(page, name);
    }
    // Play starts the recording and the cover goes.
    await phone.locator('.video-stage__overlay--cover .button').click();
    await phone.locator('.video-stage__overlay--cover').waitFor({ state: 'detached', ...WAIT });
  }, 180_000);
});
