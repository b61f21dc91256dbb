import type { ControlRoom, FlashDealAdminView } from '@vitrine/protocol';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayAhead, plannedNow, putCampaignShow } from './support/admin-shows.ts';
import { axeFindings } from './support/axe.ts';
import { launchChromium } from './support/browser.ts';
import { goLiveOverRtmp, type TestPublisher } from './support/live-show.ts';
import { saveScreenshot } from './support/screenshots.ts';
import {
  type FrameError,
  frameErrorOf,
  lateOnFrames,
  sighting,
  steadyDelay,
  TEST_STREAM_FRAME_MS,
  watchFor,
} from './support/stream-sightings.ts';
import { createStaffAccount } from './support/studio.ts';
import { openControlRoomAs } from './support/studio-host.ts';
import { adminCall, bearerCall, testServer } from './support/test-server.ts';

const { baseUrl, adminKey } = testServer();

const PAGE = 'demo-store';
const CAMPAIGN = 'e2e-flash-deals';
const SHOW = 'e2e-flash-deals-show';
const PRODUCT = 'nordlys-ceramic-mug';
/** As for competitions: the player checks every presented frame; the delay compared with is sampled once a second. */
const STAMP_TOLERANCE_MS = 300;
/**
 * How late each viewer behind the edge gets her playlists (ms, comma-separated): one by default;
 * bench/flash-deals/run.ts asks for two (three viewers at different delays).
 */
const VIEWER_PLAYLIST_DELAYS_MS = (process.env.FLASH_DEAL_VIEWER_DELAYS ?? '3500').split(',').map(Number);

let browser: Browser;
let publisher: TestPublisher | undefined;
let hostToken = '';
const pageErrors: string[] = [];
const SHOW_PATH = `/staff/stores/${PAGE}/shows/${SHOW}`;

/** A call as the host. */
const studio = <T>(method: 'GET' | 'POST', path: string, body?: unknown) =>
  bearerCall<T>(hostToken, method, path, body);

async function viewer(latencyMs = 0): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
  const page = await context.newPage();
  if (latencyMs > 0) {
    // Her playlists arrive late (a slow CDN edge): she knows the live edge later and plays
    // behind it by as much, smoothly (her segments come at once). Such an edge serves the regular
    // playlist (a CDN that cannot hold LL-HLS's blocking reloads open), so she plays `live.m3u8`
    // of the same segments: an LL player would chase an edge it keeps learning of 3.5 s late. The
    // viewer at the edge plays the LL-HLS playlist, as viewers do by default.
    await page.route(/\.m3u8(\?|$)/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, latencyMs));
      const url = new URL(route.request().url());
      url.pathname = url.pathname
        .replace(/\/ll\.m3u8$/, '/live.m3u8')
        .replace(/\/ll-master\.m3u8$/, '/master.m3u8');
      await route.continue({ url: url.toString() });
    });
  }
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(`${baseUrl}/widget/${PAGE}/campaign/${CAMPAIGN}/event/${SHOW}`);
  await page.waitForSelector('.player[data-show-state="live"]');
  await page.waitForSelector('.video-stage[data-live-delay-ms]', { timeout: 40_000 });
  return { context, page };
}

beforeAll(async () => {
  browser = await launchChromium();
  const host = await createStaffAccount(baseUrl, adminKey, PAGE, 'host');
  hostToken = host.session.idToken;
  await putCampaignShow(
    PAGE,
    { uid: CAMPAIGN, name: 'Flash deals live', deadline: dayAhead() },
    { uid: SHOW, ...plannedNow() },
  );
  await adminCall('PUT', `/admin/events/${SHOW}/products/${PRODUCT}`, { productUid: PRODUCT });
  publisher = await goLiveOverRtmp(hostToken, PAGE, SHOW);
});

afterAll(async () => {
  publisher?.kill('SIGKILL');
  await browser?.close();
});

describe('flash deals on the stream clock (issue 30 §3)', () => {
  it('two viewers seconds apart see the countdown, the opening and the end on the same frame; an add gets the deal price', async () => {
    const room = await studio<ControlRoom>('GET', `${SHOW_PATH}/control-room`);
    const item = room.lineup.find((candidate) => candidate.productUid === PRODUCT);
    const [currency, regular] = Object.entries(item?.prices ?? {})[0] ?? [];
    if (!currency || regular === undefined) throw new Error('the mug has no price');
    // The host prepares the deal in the control room's panel.
    const hostPage = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
    hostPage.on('pageerror', (error) => pageErrors.push(error.message));
    await openControlRoomAs(hostPage, PAGE, SHOW, 'host');
    const panel = hostPage.locator('.room-flash-deals');
    await panel.waitFor();
    await panel.locator('input[inputmode="decimal"]').fill((Math.floor(regular / 2) / 100).toFixed(2));
    await panel.getByLabel('Countdown').fill('10');
    await panel.getByLabel('Units in the deal').fill('5');
    await panel.getByRole('button', { name: 'Prepare deal' }).click();
    await panel.locator('[data-deal-status="prepared"]').waitFor();
    // The room's own preview need not play meanwhile: the machine's time goes to the viewers' frames.
    await hostPage.evaluate(() => {
      for (const video of document.querySelectorAll('video')) video.pause();
    });
    const listed = async () =>
      (await studio<{ deals: FlashDealAdminView[] }>('GET', `${SHOW_PATH}/flash-deals`))
        .deals[0] as FlashDealAdminView;
    const deal = await listed();
    expect(deal.prices).toEqual({ [currency]: Math.floor(regular / 2) });

    const edge = await viewer();
    await steadyDelay(edge.page);
    // The other viewers' playlists come late (3.5 s for the second): each plays one to two seconds
    // further behind, which the player's catch-up (a jump past 5 s behind the edge it knows)
    // leaves alone. bench/flash-deals runs this with three viewers.
    const others = [];
    for (const lateMs of VIEWER_PLAYLIST_DELAYS_MS) others.push(await viewer(lateMs));
    const behind = others.at(-1);
    if (!behind) throw new Error('FLASH_DEAL_VIEWER_DELAYS names no viewer behind the edge');
    const viewers = [edge, ...others];
    const edgeDelay = await steadyDelay(edge.page);
    // Their delays wobble with each slow request: sampled once they have played a while.
    await behind.page.waitForTimeout(8000);
    const delayOf = async (page: Page) =>
      Number(await page.getAttribute('.video-stage', 'data-live-delay-ms'));
    const otherDelays = await Promise.all(others.map(({ page }) => delayOf(page)));
    const behindDelay = otherDelays.at(-1) ?? Number.NaN;
    expect(behindDelay - edgeDelay).toBeGreaterThan(500);

    for (const { page } of viewers) {
      await watchFor(page, 'countdown', '[data-testid="flash-deal-countdown"]');
      await watchFor(page, 'open', '.flash-deal--open');
      await watchFor(page, 'ended', '.flash-deal--ended');
    }
    await panel.getByRole('button', { name: 'Start deal' }).click();
    await panel.locator('[data-deal-status="started"]').waitFor();
    const startedAt = (await listed()).startedAt ?? Number.NaN;
    const errorsOf = async (name: string, stamp: number) =>
      Promise.all(
        viewers.map(async ({ page }) => {
          const seen = await sighting(page, name);
          return {
            // On the frame: the banner changed on the frame whose program date time is this far past the stamp.
            ...frameErrorOf(seen, seen.streamMs, stamp),
            // By the once-a-second delay sample (noisier): when it showed, minus her delay.
            errorMs: seen.at - seen.delayMs - stamp,
            shownAfterMs: seen.at - stamp,
          };
        }),
      );
    const countdown = await errorsOf('countdown', startedAt);
    const opened = await errorsOf('open', startedAt + 10_000);

    // At the edge, she buys at the deal price.
    await edge.page.locator('.flash-deal__add').click();
    await edge.page
      .locator('.flash-deal__add', { hasText: 'Added at the deal price' })
      .waitFor({ timeout: 20_000 });

    await saveScreenshot(edge.page, 'flash-deal-open');
    await saveScreenshot(hostPage, 'flash-deal-control-room', { fullPage: true });
    expect(await axeFindings(edge.page)).toEqual([]);
    expect(await axeFindings(hostPage)).toEqual([]);
    await panel.getByRole('button', { name: 'End now' }).click();
    await panel.locator('[data-deal-status="ended"]').waitFor();
    const ended = await errorsOf('ended', (await listed()).endedAt ?? Number.NaN);
    expect(await edge.page.locator('.flash-deal__price').count()).toBe(0);
    // On a phone the ended banner keeps clear of the player's controls.
    await edge.page.setViewportSize({ width: 390, height: 844 });
    await edge.page.waitForSelector('.player[data-layout="phone"]');
    await saveScreenshot(edge.page, 'flash-deal-ended-phone');

    // The banner must change on the first frame shown at or after the stamp (lateOnFrames), for
    // each viewer and within a frame or so between them.
    const spread = (errors: FrameError[]) =>
      Math.max(...errors.map(lateOnFrames)) - Math.min(...errors.map(lateOnFrames));
    const measured = {
      viewerDelaysMs: [edgeDelay, ...otherDelays],
      countdown,
      opened,
      ended,
      endSpreadMs: spread(ended),
      endSpreadFrames: Number((spread(ended) / TEST_STREAM_FRAME_MS).toFixed(1)),
      countdownSpreadFrames: Number((spread(countdown) / TEST_STREAM_FRAME_MS).toFixed(1)),
    };
    console.log(JSON.stringify(measured));
    for (const [moment, errors] of Object.entries({ countdown, opened, ended })) {
      errors.forEach((error, viewerIndex) => {
        const which = `${moment}, viewer ${viewerIndex}: ${JSON.stringify(measured)}`;
        expect(error.frameErrorMs, which).toBeGreaterThanOrEqual(0);
        expect(lateOnFrames(error), which).toBeLessThanOrEqual(STAMP_TOLERANCE_MS);
      });
      expect(spread(errors), `${moment}: ${JSON.stringify(measured)}`).toBeLessThanOrEqual(
        STAMP_TOLERANCE_MS,
      );
    }
    // The viewer furthest behind saw the end seconds after the one at the edge: the same frame, later.
    expect((ended.at(-1)?.shownAfterMs ?? 0) - (ended[0]?.shownAfterMs ?? 0)).toBeGreaterThan(500);

    const list = await studio<{ deals: FlashDealAdminView[] }>('GET', `${SHOW_PATH}/flash-deals`);
    const figures = list.deals.find((candidate) => candidate.uid === deal.uid);
    expect(figures?.stats.adds).toBe(1);
    expect(figures?.stats.views).toBe(viewers.length);
    for (const { context } of viewers) await context.close();
    expect(pageErrors).toEqual([]);
  });
});
