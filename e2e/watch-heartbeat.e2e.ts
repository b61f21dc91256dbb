/**
 * The watch heartbeat's last seconds (issue 33 item 12): a viewer who plays a show for a few
 * seconds and then hides the page (switches tab, closes it) sends those seconds at once, by
 * keepalive request, instead of losing up to 30 s of watch time; the server accepts them.
 */
import type { TrackingEvent } from '@vitrine/protocol';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayAhead, putCampaignShow, undelayedLiveDemo } from './support/admin-shows.ts';
import { launchChromium } from './support/browser.ts';
import { testServer } from './support/test-server.ts';
import { playMuted } from './support/video-playback.ts';

const { baseUrl } = testServer();
const STORE = 'demo-store';
const SHOW = 'heartbeat-e2e-show';
const WAIT = { timeout: 20_000 };

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium(['--autoplay-policy=no-user-gesture-required']);
  await putCampaignShow(
    STORE,
    { uid: SHOW, name: 'Heartbeat test show', deadline: dayAhead() },
    undelayedLiveDemo(Date.now() - 60_000),
  );
});
afterAll(async () => {
  await browser?.close();
});

const heartbeatsIn = (body: string | null): TrackingEvent[] => {
  const parsed = JSON.parse(body ?? '{}') as TrackingEvent | { events: TrackingEvent[] };
  const events = 'events' in parsed ? parsed.events : [parsed];
  return events.filter((event) => event.trackingEvent === 'player.heartbeat');
};

describe('the watch heartbeat on page hide', () => {
  it('sends the seconds watched since the last heartbeat when the page is hidden, and the server takes them', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    const page = await context.newPage();
    const isHeartbeat = (url: string, body: string | null) =>
      url.endsWith('/shopapiv2/tracking') && heartbeatsIn(body).length > 0;
    const first = page.waitForRequest((request) => isHeartbeat(request.url(), request.postData()), WAIT);
    await page.goto(`${baseUrl}/widget/${STORE}/${SHOW}`);
    await page.locator('.player').waitFor(WAIT);
    await playMuted(page);
    // Playing sends the first heartbeat at once, with (next to) nothing watched yet: on a busy
    // machine the video may have played a frame or two before it leaves.
    expect(heartbeatsIn((await first).postData())[0]?.watchedSeconds).toBeLessThan(1);
    const startedAt = await page
      .locator('video')
      .first()
      .evaluate((video: HTMLVideoElement) => video.currentTime);
    await expect
      .poll(
        () =>
          page
            .locator('video')
            .first()
            .evaluate((video: HTMLVideoElement) => video.currentTime),
        WAIT,
      )
      .toBeGreaterThan(startedAt + 3);

    // The tab is hidden long before the next 30 s heartbeat.
    const last = page.waitForResponse(
      (response) => isHeartbeat(response.url(), response.request().postData()),
      WAIT,
    );
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    const response = await last;
    expect(response.status()).toBe(204);
    const [beat] = heartbeatsIn(response.request().postData());
    expect(beat?.watchedSeconds).toBeGreaterThanOrEqual(2);
    expect(beat?.watchedSeconds).toBeLessThan(30);
    await context.close();
  });
});
