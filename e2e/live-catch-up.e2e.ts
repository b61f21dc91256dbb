import {
  CATCH_UP_MAX_RATE,
  LIVE_DELAY_SAMPLE_MS,
  LL_CATCH_UP_JUMP_SEC,
  LL_CATCH_UP_START_SEC,
} from '@vitrine/domain';
import { type ControlRoomStats, LIVE_PLAYLIST_FILES } from '@vitrine/protocol';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../apps/server/src/test-support/live-publisher.ts';
import { dayAhead, plannedNow, putCampaignShow } from './support/admin-shows.ts';
import { axeFindings } from './support/axe.ts';
import { launchChromium } from './support/browser.ts';
import { goLiveOverRtmp, type TestPublisher } from './support/live-show.ts';
import { webLocale } from './support/locale-texts.ts';
import { saveScreenshot } from './support/screenshots.ts';
import { createStaffAccount } from './support/studio.ts';
import { bearerCall, testServer } from './support/test-server.ts';
import { playsOn } from './support/video-playback.ts';

/**
 * Issue 30 item 2 on a real live show (ffmpeg over RTMP through the live pipeline): a viewer who
 * fell behind is offered "back to live" and taken there; one the browser paused in the background
 * jumps back by herself; one a little behind plays faster until she is back; one who paused or
 * went back keeps her choice; the studio's viewer delay reports the figure after catch-up.
 */

const { baseUrl, adminKey } = testServer();
const en = webLocale('en') as {
  player: { live: Record<string, string> };
};

const PAGE = 'demo-store';
const CAMPAIGN = 'e2e-live-catch-up';
const SHOW = 'e2e-live-catch-up-show';
const ROOM_PATH = `/staff/stores/${PAGE}/shows/${SHOW}/control-room`;
/**
 * How long the viewer stays paused or away: well past the catch-up's jump (2 s past the target on
 * the LL-HLS playlist the show plays, 4 s on the regular one).
 */
const AWAY_MS = 12_000;
/**
 * Back at live means under this delay (glass to glass by the stream clock). The pipeline's own is
 * about 4 s on this machine (bench/live/latency.md); generous for a loaded machine.
 */
const AT_LIVE_MS = 9000;
/**
 * The step back the rate test takes (s). At normal speed a viewer may already be up to
 * LL_CATCH_UP_START_SEC behind the target, so the step must be past that start and, added to it,
 * short of the jump (LL_CATCH_UP_JUMP_SEC) by more than the measure's jitter (a part, ~0.2 s).
 */
const STEP_BACK_SEC = 1;

let browser: Browser;
let context: BrowserContext;
let hostToken = '';
let publisher: TestPublisher | undefined;
const pageErrors: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
  await putCampaignShow(
    PAGE,
    { uid: CAMPAIGN, name: 'Catching up', deadline: dayAhead() },
    { uid: SHOW, eventName: 'Live, and back to it', ...plannedNow() },
  );
  const host = await createStaffAccount(baseUrl, adminKey, PAGE, 'host');
  hostToken = host.session.idToken;
  publisher = await goLiveOverRtmp(hostToken, PAGE, SHOW);
});

afterAll(async () => {
  publisher?.kill('SIGKILL');
  await browser?.close();
});

async function openShow(viewport = { width: 1280, height: 800 }): Promise<Page> {
  const page = await context.newPage();
  await page.setViewportSize(viewport);
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(`${baseUrl}/widget/${PAGE}/campaign/${CAMPAIGN}/event/${SHOW}`);
  await page.waitForSelector('.player[data-show-state="live"]');
  await playsOn(page, 1.5);
  return page;
}

const videoTime = (page: Page) =>
  page.evaluate(() => (document.querySelector('video') as HTMLVideoElement).currentTime);

/** The delay the player reports on its stage (now − the playing frame's program date time), ms. */
async function delayMs(page: Page): Promise<number> {
  const value = await page.getAttribute('.video-stage', 'data-live-delay-ms');
  return value === null ? Number.NaN : Number(value);
}

/** Waits until the reported delay satisfies `test` (sampled each second, as the player samples it). */
async function delayWhere(page: Page, what: string, test: (ms: number) => boolean, timeoutMs = 45_000) {
  const seen: number[] = [];
  return waitFor(
    () => `${what} (delays seen, one a second: ${seen.join(', ')})`,
    async () => {
      const current = await delayMs(page);
      if (current !== seen.at(-1) && seen.length < 90) seen.push(current);
      return Number.isFinite(current) && test(current) ? current : null;
    },
    timeoutMs,
  );
}

/** Whether the player has loaded the show's LL-HLS playlist. */
const playsLowLatency = (page: Page) =>
  page.evaluate(
    (name) =>
      performance
        .getEntriesByType('resource')
        .some((entry) => new URL(entry.name).pathname.endsWith(`/${name}`)),
    LIVE_PLAYLIST_FILES.lowLatency,
  );

/**
 * The delay once it holds still: two of the player's samples in a row within 300 ms of each other,
 * at normal speed. Just after the start a loaded machine's player may still be closing on its
 * target (or playing off a stall at 1.1x), and a step back measured from such a figure can hide in
 * the fall (CI saw one never show above it in 45 s). A sample is a reading a second or more after
 * the last one taken (the player samples once a second): a steady player's delay repeats to the
 * millisecond, so waiting for the figure to change took up to a minute and a half on a quiet machine.
 */
async function steadyDelay(page: Page): Promise<number> {
  let previous = Number.NaN;
  let previousAt = 0;
  const seen: string[] = [];
  return waitFor(
    () => `a steady delay at normal speed (delay ms @ rate, one a sample: ${seen.join(', ')})`,
    async () => {
      const takenAt = Date.now();
      if (takenAt - previousAt < LIVE_DELAY_SAMPLE_MS) return null;
      const current = await delayMs(page);
      if (!Number.isFinite(current)) return null;
      const rate = await page.evaluate(
        () => (document.querySelector('video') as HTMLVideoElement).playbackRate,
      );
      if (seen.length < 90) seen.push(`${current}@${rate}`);
      const steady = rate === 1 && Math.abs(current - previous) < 300;
      previous = current;
      previousAt = takenAt;
      return steady ? current : null;
    },
    // A busy machine's bound, as for the step played off: beside two CPU burners a CI rehearsal's
    // player found no two steady samples at normal speed in 45 s (why is not known: the samples
    // it saw are in the failure's message now; four runs here beside two to five burners passed).
    90_000,
  );
}

const backToLive = (page: Page) => page.getByRole('button', { name: en.player.live.backToLive });

describe('catching up to live', () => {
  it('offers back to live after a pause without moving her while paused, takes her there, and the studio reports it', async () => {
    const page = await openShow();
    const atStart = await delayWhere(page, 'a first delay', () => true);
    expect(await backToLive(page).count()).toBe(0);

    await page.getByRole('button', { name: en.player.live.pause }).click();
    await backToLive(page).waitFor();
    const pausedAt = await videoTime(page);
    await page.waitForTimeout(AWAY_MS);
    // Her choice: nothing pulled the paused video along to the live edge.
    expect(await videoTime(page)).toBe(pausedAt);
    expect(await axeFindings(page)).toEqual([]);
    await saveScreenshot(page, 'live-catch-up-desktop');

    // Playing again, she plays on from where she paused, with the way back on offer.
    await page.getByRole('button', { name: en.player.live.play }).click();
    const behind = await delayWhere(page, 'the delay of her pause', (ms) => ms > atStart + AWAY_MS / 2);
    await page.waitForTimeout(3000);
    expect(await delayMs(page)).toBeGreaterThan(atStart + AWAY_MS / 2);
    expect(await backToLive(page).isVisible()).toBe(true);

    await backToLive(page).click();
    const back = await delayWhere(page, 'the delay back at live', (ms) => ms < AT_LIVE_MS);
    await page.waitForFunction(() => !document.querySelector('.live-controls__back'));
    // The focus stays in the controls (on play/pause) for a keyboard user.
    expect(await page.evaluate(() => document.activeElement?.closest('.live-controls') !== null)).toBe(true);

    // The studio's viewer delay: each viewer's latest report, sent again at the catch-up.
    const stats = await waitFor(
      'the studio to report the delay after catch-up',
      async () => {
        const current = await bearerCall<ControlRoomStats>(hostToken, 'GET', `${ROOM_PATH}/stats`);
        return current.medianDelayMs !== null && current.medianDelayMs < AT_LIVE_MS ? current : null;
      },
      30_000,
    );
    console.log(
      JSON.stringify({
        catchUpDelayAtStartMs: atStart,
        catchUpDelayAfterPauseMs: behind,
        catchUpDelayBackAtLiveMs: back,
        catchUpStudioMedianDelayMs: stats.medianDelayMs,
      }),
    );
    await page.close();
  });

  it('keeps a viewer who went back where she chose until she goes back to live', async () => {
    const page = await openShow();
    // Back into what she has already seen (the live playlist itself holds only 6 s).
    await playsOn(page, 12);
    const atStart = await delayWhere(page, 'a first delay', () => true);
    await page.evaluate(() => {
      const video = document.querySelector('video') as HTMLVideoElement;
      video.currentTime = Math.max(video.buffered.start(0) + 0.5, video.currentTime - 10);
    });
    await backToLive(page).waitFor();
    const behind = await delayWhere(page, 'the delay she went back to', (ms) => ms > atStart + 6000);
    await playsOn(page, 3);
    expect(await delayMs(page)).toBeGreaterThan(atStart + 6000);
    expect(await backToLive(page).isVisible()).toBe(true);
    await backToLive(page).click();
    await delayWhere(page, 'the delay back at live', (ms) => ms < AT_LIVE_MS);
    console.log(JSON.stringify({ catchUpDelayAfterSeekBackMs: behind }));
    await page.close();
  });

  it('jumps back to live by itself when the tab returns from the background', async () => {
    const page = await openShow();
    await delayWhere(page, 'a first delay', () => true);
    // What a phone's browser does to a tab in the background: hidden, the video paused by it.
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
      document.dispatchEvent(new Event('visibilitychange'));
      (document.querySelector('video') as HTMLVideoElement).pause();
    });
    const pausedAt = await videoTime(page);
    await page.waitForTimeout(AWAY_MS);
    const returnedAt = Date.now();
    await page.evaluate(() => {
      const own = document as unknown as Record<string, unknown>;
      delete own.visibilityState;
      delete own.hidden;
      document.dispatchEvent(new Event('visibilitychange'));
      void (document.querySelector('video') as HTMLVideoElement).play();
    });
    // No click: the player jumps to the live position (well past where the browser paused it).
    await page.waitForFunction(
      (from) => (document.querySelector('video') as HTMLVideoElement).currentTime > from + 8,
      pausedAt,
      {
        timeout: 20_000,
      },
    );
    const back = await delayWhere(page, 'the delay back at live', (ms) => ms < AT_LIVE_MS);
    console.log(
      JSON.stringify({
        catchUpBackgroundReturnMs: Date.now() - returnedAt,
        catchUpDelayAfterBackgroundMs: back,
      }),
    );
    await page.close();
  });

  it('plays a little faster while slightly behind, and gains on the live edge', async () => {
    const page = await openShow();
    await playsOn(page, 3);
    // The show plays its LL-HLS playlist, so the LL thresholds hold: faster from half a second
    // behind the target, a jump from two.
    expect(await playsLowLatency(page)).toBe(true);
    expect(STEP_BACK_SEC).toBeGreaterThan(LL_CATCH_UP_START_SEC);
    expect(STEP_BACK_SEC + LL_CATCH_UP_START_SEC).toBeLessThan(LL_CATCH_UP_JUMP_SEC - 0.3);
    const before = await steadyDelay(page);
    // A stall's worth behind, played off rather than jumped (CI once stepped 1.5 s back on a player
    // already about 0.5 s behind its target: past the 2 s jump, it went straight back to live).
    await page.evaluate((step) => {
      const video = document.querySelector('video') as HTMLVideoElement;
      video.currentTime -= step;
    }, STEP_BACK_SEC);
    const behind = await delayWhere(
      page,
      'the delay of the step back',
      (ms) => ms > before + STEP_BACK_SEC * 1000 - 400,
    );
    await page.waitForFunction(
      () => (document.querySelector('video') as HTMLVideoElement).playbackRate > 1,
      undefined,
      { timeout: 20_000 },
    );
    const rate = await page.evaluate(
      () => (document.querySelector('video') as HTMLVideoElement).playbackRate,
    );
    expect(rate).toBeLessThanOrEqual(CATCH_UP_MAX_RATE);
    // At 1.1x half a second takes 5 s to play off; a loaded machine's small stalls eat some of it.
    const gained = await delayWhere(page, 'the step played off', (ms) => ms < behind - 500, 90_000);
    console.log(
      JSON.stringify({
        catchUpRate: rate,
        catchUpDelayBeforeMs: before,
        catchUpDelayBehindMs: behind,
        catchUpDelayGainedMs: gained,
      }),
    );
    expect(await backToLive(page).count()).toBe(0);
    await page.close();
  });

  it('shows back to live on a phone, accessible', async () => {
    const page = await openShow({ width: 390, height: 844 });
    await page.getByRole('button', { name: en.player.live.pause }).click();
    await backToLive(page).waitFor();
    expect(await axeFindings(page)).toEqual([]);
    await saveScreenshot(page, 'live-catch-up-phone');
    await backToLive(page).click();
    await delayWhere(page, 'the delay back at live', (ms) => ms < AT_LIVE_MS);
    await page.close();
    expect(pageErrors).toEqual([]);
  });
});
