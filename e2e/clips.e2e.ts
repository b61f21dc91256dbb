/**
 * Clips (issue 32 item 4), end to end with a real encoder, ffmpeg and Chromium: a show fed over
 * RTMP presents two products and ends; two clips are cut from its recording; one plays on its own
 * page and adds its product to the cart; the other plays on the demo retailer's product page
 * through the SDK's seenLive option.
 */
import type { StudioClip } from '@vitrine/protocol';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../apps/server/src/test-support/live-publisher.ts';
import { dayAhead, plannedNow, putCampaignShow } from './support/admin-shows.ts';
import { axeFindings } from './support/axe.ts';
import { englishPage, launchChromium } from './support/browser.ts';
import { goLiveOverRtmp, type TestPublisher } from './support/live-show.ts';
import { webLocale } from './support/locale-texts.ts';
import { createStaffAccount, openStudioAs } from './support/studio.ts';
import { openControlRoomAs } from './support/studio-host.ts';
import { adminCall, bearerCall, testServer } from './support/test-server.ts';

const { baseUrl, adminKey, retailerUrl } = testServer();
const PAGE = 'clips-e2e';
const CAMPAIGN = 'clips-e2e-campaign';
const SHOW = 'clips-e2e-show';
/** Seconds each product is presented: its clip's length, give or take a second. */
const CHAPTER_SECONDS = 4;
const studioShowsEn = webLocale('studio-shows/en') as { clips: { hide: string; hiddenBadge: string } };
const clipsEn = webLocale('clips/en') as Record<string, string>;

let browser: Browser;
let token = '';
let publisher: TestPublisher | undefined;
const pageErrors: string[] = [];
const consoleLines: string[] = [];

const admin = (path: string, body: unknown) => adminCall('PUT', path, body);

/** A call as the host under the show's studio path. */
const staff = <T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) =>
  bearerCall<T>(token, method, `/staff/stores/${PAGE}/shows/${SHOW}${path}`, body);

/** Waits until the page's video has played a while from its clip (not just loaded). */
async function playing(frame: Page | Frame) {
  await frame
    .locator('video[data-clip-video]')
    .waitFor()
    .catch(async (error: Error) => {
      const text = await frame.evaluate(() => document.body.innerHTML.slice(0, 2000));
      throw new Error(
        `no clip video at ${frame.url()}: ${text} ${pageErrors.join('; ')} ${consoleLines.join('; ')} (${error.message})`,
      );
    });
  const state = () =>
    frame.evaluate(() => {
      const video = document.querySelector('video[data-clip-video]') as HTMLVideoElement;
      return JSON.stringify({
        src: video.currentSrc,
        readyState: video.readyState,
        time: video.currentTime,
        duration: video.duration,
        paused: video.paused,
        error: video.error?.message ?? video.error?.code ?? null,
      });
    });
  await frame
    .waitForFunction(
      () => {
        const video = document.querySelector('video[data-clip-video]') as HTMLVideoElement | null;
        return video !== null && video.readyState >= 2 && video.currentTime > 0.5 && video.duration > 1;
      },
      undefined,
      { timeout: 30_000 },
    )
    .catch(async (error: Error) => {
      throw new Error(`the clip did not play: ${await state()} (${error.message})`);
    });
}

beforeAll(async () => {
  browser = await launchChromium(['--autoplay-policy=no-user-gesture-required']);
  await admin(`/admin/pages/${PAGE}`, {
    name: 'Clay & Co',
    language: 'en',
    currency: 'DKK',
    allowedOrigins: [new URL(retailerUrl).origin],
  });
  await admin(`/staff/stores/${PAGE}/products/mug`, {
    name: 'Speckled mug',
    sku: 'CC-MUG',
    prices: { DKK: 14_900 },
    stock: 20,
  });
  await admin(`/staff/stores/${PAGE}/products/vase`, {
    name: 'Tall vase',
    sku: 'CC-VASE',
    prices: { DKK: 39_900 },
    stock: 20,
  });
  await putCampaignShow(
    PAGE,
    { uid: CAMPAIGN, name: 'Clips e2e', deadline: dayAhead() },
    { uid: SHOW, status: 'public', eventName: 'Clay live', ...plannedNow() },
  );
  for (const [sorting, productUid] of ['mug', 'vase'].entries())
    await admin(`/admin/events/${SHOW}/products/${productUid}`, { productUid, sorting });
  token = (await createStaffAccount(baseUrl, adminKey, PAGE, 'host')).session.idToken;
});

afterAll(async () => {
  publisher?.kill('SIGKILL');
  await browser?.close();
});

describe('clips of an ended show', () => {
  let clips: StudioClip[] = [];

  it('cuts one clip per presented product, and one per highlight marked in the control room, when the show ends', async () => {
    publisher = await goLiveOverRtmp(token, PAGE, SHOW);
    // The host's control room, where a highlight is marked while the mug is presented.
    const { context: roomContext, page: room } = await englishPage(browser, pageErrors, {
      width: 1280,
      height: 900,
    });
    await openControlRoomAs(room, PAGE, SHOW, 'host');
    const mark = room.locator('[data-mark-highlight]');
    await mark.waitFor({ timeout: 20_000 });
    for (const uid of ['mug', 'vase']) {
      await staff('POST', '/control-room/presented', { uid });
      if (uid === 'mug') {
        await mark.click();
        await room.getByText(/1 highlight marked/).waitFor();
      }
      // The chapter lasts this long: the show's content, not a wait for a condition.
      await new Promise((resolve) => setTimeout(resolve, CHAPTER_SECONDS * 1000));
      await staff('DELETE', `/control-room/presented/${uid}`);
    }
    await roomContext.close();
    await staff('POST', '/stream/end');
    const listed = await waitFor(
      'three cut clips',
      async () => {
        const { clips: all } = await staff<{ clips: StudioClip[] }>('GET', '/clips');
        return all.length === 3 && all.every((clip) => clip.state !== 'pending') ? all : null;
      },
      60_000,
    );
    clips = listed.filter((clip) => clip.kind === 'chapter');
    expect(clips.map((clip) => [clip.eventProductUid, clip.state])).toEqual([
      ['mug', 'ready'],
      ['vase', 'ready'],
    ]);
    // The highlight sells the product on screen when it was marked.
    expect(
      listed.filter((clip) => clip.kind === 'highlight').map((clip) => [clip.eventProductUid, clip.state]),
    ).toEqual([['mug', 'ready']]);
    for (const clip of clips) {
      expect(clip.durationSeconds).toBeGreaterThanOrEqual(CHAPTER_SECONDS - 1);
      expect(clip.durationSeconds).toBeLessThanOrEqual(CHAPTER_SECONDS + 3);
    }
  });

  it('plays a clip on its page and adds its product to the cart', async () => {
    const mug = clips.find((clip) => clip.eventProductUid === 'mug');
    if (!mug) throw new Error('no clip of the mug');
    const { context, page } = await englishPage(browser, pageErrors);
    page.on('console', (message) => consoleLines.push(message.text()));
    await page.goto(`${baseUrl}${mug.pagePath}`);
    await playing(page);
    await page.locator('[data-clip-product] h1', { hasText: 'Speckled mug' }).waitFor();
    // The page passes axe-core (WCAG 2.x A/AA rules) as the show pages do.
    expect(await axeFindings(page)).toEqual([]);
    await page.getByRole('button', { name: clipsEn.addToCart }).click();
    await page.getByRole('status').filter({ hasText: clipsEn.added }).waitFor({ timeout: 15_000 });
    // The cart is the store's own: its checkout lists the mug.
    await page.getByRole('link', { name: clipsEn.toCheckout }).click();
    await page.getByText('Speckled mug').first().waitFor({ timeout: 20_000 });
    await context.close();
  });

  it("plays the other clip on the demo retailer's product page through the SDK", async () => {
    const { context, page } = await englishPage(browser, pageErrors, { width: 1280, height: 900 });
    await page.goto(`${retailerUrl}/`);
    await page.waitForFunction(() => 'Vitrine' in window);
    // The retailer's own "Seen live" of the shirt: the demo store's ended show presented it, so the
    // demo's clip of it is there and the section appears (the seed cuts one per presented product).
    await page.locator('[data-seen-live]').waitFor({ state: 'visible', timeout: 20_000 });
    await waitFor("the shirt's seen-live player", () =>
      page
        .frames()
        .find(
          (candidate) =>
            candidate.url().includes('/clips?') && candidate.url().includes('product=NL-linen-shirt'),
        ),
    );
    // The same integration for a product of this store, which has a clip of this show.
    await page.evaluate((pageUid) => {
      (window as unknown as { Vitrine: { init(options: object): unknown } }).Vitrine.init({
        pageUid,
        mode: 'inline',
        container: '#seen-live-player',
        seenLive: 'CC-VASE',
        handlers: {
          player_ready() {
            (document.querySelector('[data-seen-live]') as HTMLElement).hidden = false;
          },
        },
      });
    }, PAGE);
    await page.locator('[data-seen-live]').waitFor({ state: 'visible', timeout: 20_000 });
    const frame = await waitFor('the seen-live player', () =>
      page
        .frames()
        .find(
          (candidate) => candidate.url().includes('/clips?') && candidate.url().includes('product=CC-VASE'),
        ),
    );
    await playing(frame);
    await frame.locator('[data-clip-product] h1', { hasText: 'Tall vase' }).waitFor();
    await context.close();
    expect(pageErrors).toEqual([]);
  });

  it('lists the clips in the studio, where the host hides one: its page is gone', async () => {
    const { context, page } = await englishPage(browser, pageErrors, { width: 1280, height: 900 });
    await openStudioAs(page, { baseUrl, adminKey, pageUid: PAGE, role: 'host', path: `shows/${SHOW}` });
    const items = page.locator('[data-show-clips] [data-clip]');
    await expect.poll(() => items.count(), { timeout: 20_000 }).toBe(3);
    const mug = clips.find((clip) => clip.eventProductUid === 'mug');
    const item = page.locator(`[data-clip="${mug?.uid}"]`);
    await item.getByRole('button', { name: studioShowsEn.clips.hide }).click();
    await item.getByText(studioShowsEn.clips.hiddenBadge).waitFor();
    const answer = await fetch(`${baseUrl}/functions/clips/get`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pageUid: PAGE, clipUid: mug?.uid }),
    });
    expect(answer.status).toBe(404);
    await context.close();
    expect(pageErrors).toEqual([]);
  });
});
