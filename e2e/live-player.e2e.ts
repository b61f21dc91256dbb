import { join } from 'node:path';
import { broadcastDelayMs, CONTROL_CENTER_CUE_SOURCE, DEFAULT_BROADCAST_DELAY_MS } from '@vitrine/domain';
import type { LiveEvent } from '@vitrine/protocol';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../apps/server/src/test-support/live-publisher.ts';
import { axeFindings } from './support/axe.ts';
import { launchChromium } from './support/browser.ts';
import { goLiveOverRtmp, type TestPublisher } from './support/live-show.ts';
import { webLocale } from './support/locale-texts.ts';
import { saveScreenshot } from './support/screenshots.ts';
import { recordSocketArrivals, steadyDelay, streamClockError } from './support/stream-sightings.ts';
import { createStaffAccount } from './support/studio.ts';
import {
  type HlsRouteControl,
  readPlaylist,
  type SyntheticHls,
  serveHls,
  startSyntheticHls,
  waitForSegments,
} from './support/synthetic-hls.ts';
import { adminCall, bearerCall, testServer } from './support/test-server.ts';
import { playsOn } from './support/video-playback.ts';

const { baseUrl, adminKey } = testServer();
const en = webLocale('en') as {
  player: { state: Record<string, string>; live: Record<string, string> };
};

const PAGE = 'demo-store';
const CAMPAIGN = 'e2e-live-player';
const EVENT = 'e2e-live-player-show';
/** The live stream and the replay, served on the app's own origin (its CSP allows only that and https). */
const LIVE_PREFIX = `${baseUrl}/e2e-hls/live/`;
const REPLAY_PREFIX = `${baseUrl}/e2e-hls/replay/`;
/** How far off the stamped moment a cue may appear: a frame at 30 fps plus the 1 s delay sampling's drift. */
const CUE_TOLERANCE_MS = 250;

let browser: Browser;
let context: BrowserContext;
let live: SyntheticHls;
const pageErrors: string[] = [];

function putEvent(fields: Record<string, unknown>) {
  return adminCall('PUT', `/admin/events/${EVENT}`, {
    pageUid: PAGE,
    campaignId: CAMPAIGN,
    eventName: 'Live from the workshop',
    eventStartTimestamp: Date.now() - 60_000,
    ...fields,
  });
}

beforeAll(async () => {
  live = startSyntheticHls();
  // No autoplay flag: the live show must start the way any browser allows, muted.
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
  await adminCall('PUT', `/admin/pages/${PAGE}/campaigns/${CAMPAIGN}`, {
    name: 'Live from the workshop',
    deadline: Date.now() + 86_400_000,
  });
  await waitForSegments(live, 3);
  await putEvent({
    currentStatus: 'live',
    liveStartTime: Date.now() - 30_000,
    cdnMp4VideoUrl: `/e2e-hls/live/${live.playlist}`,
  });
  for (const productUid of ['nordlys-ceramic-mug', 'nordlys-oak-board']) {
    await adminCall('PUT', `/admin/events/${EVENT}/products/${productUid}`, { productUid });
  }
});

afterAll(async () => {
  await browser?.close();
  await live?.remove();
});

async function openLiveShow(
  viewport = { width: 1280, height: 800 },
  /** Runs in the page before its own scripts (an observer to install). */
  beforeLoad?: () => void,
): Promise<{ page: Page; hls: HlsRouteControl }> {
  const page = await context.newPage();
  await page.setViewportSize(viewport);
  if (beforeLoad) await page.addInitScript(beforeLoad);
  page.on('pageerror', (error) => pageErrors.push(error.message));
  const hls = await serveHls(page, LIVE_PREFIX, live.dir);
  await page.goto(`${baseUrl}/widget/${PAGE}/campaign/${CAMPAIGN}/event/${EVENT}`);
  await page.waitForSelector('.player');
  return { page, hls };
}

describe('the live player', () => {
  it('starts a live show muted without a click, with LIVE, tap for sound and no seek bar', async () => {
    const { page } = await openLiveShow();
    await playsOn(page, 1.5);
    const video = await page.evaluate(() => {
      const element = document.querySelector('video') as HTMLVideoElement;
      return { muted: element.muted, controls: element.controls, paused: element.paused };
    });
    expect(video).toEqual({ muted: true, controls: false, paused: false });
    expect(await page.textContent('.status-badge')).toBe(en.player.state.live);
    // No seek bar and no "0:30 / 1:00": the browser's controls are off and ours have no timeline.
    expect(await page.locator('.video-stage input[type="range"], .video-stage [role="slider"]').count()).toBe(
      0,
    );
    // The viewer's delay is measured from the stream's own clock (EXT-X-PROGRAM-DATE-TIME).
    await page.waitForSelector('.video-stage[data-live-delay-ms]');
    const delayMs = Number(await page.getAttribute('.video-stage', 'data-live-delay-ms'));
    expect(delayMs).toBeGreaterThan(0);
    expect(delayMs).toBeLessThan(15_000);

    const sound = page.getByRole('button', { name: en.player.live.tapForSound });
    expect(await sound.isVisible()).toBe(true);
    expect(await axeFindings(page)).toEqual([]);
    await saveScreenshot(page, 'live-player-desktop');
    await sound.click();
    await page.waitForFunction(() => !(document.querySelector('video') as HTMLVideoElement).muted);
    // The controls follow the video's own volumechange event, a moment after `muted` flips.
    await expect.poll(() => page.getByRole('button', { name: en.player.live.mute }).isVisible()).toBe(true);

    // Paused, the viewer falls behind: "back to live" takes them to the live edge again.
    await page.getByRole('button', { name: en.player.live.pause }).click();
    const back = page.getByRole('button', { name: en.player.live.backToLive });
    await back.waitFor();
    await back.click();
    await playsOn(page, 1);
    await page.waitForFunction(() => !document.querySelector('.live-controls__back'));
    console.log(JSON.stringify({ liveDelayMs: delayMs }));
    await page.close();

    const phone = await openLiveShow({ width: 390, height: 844 });
    await playsOn(phone.page, 1);
    await saveScreenshot(phone.page, 'live-player-phone');
    await phone.page.close();
  });

  it('holds its controls still while the show starts (no "back to live" before it has played)', async () => {
    const { page } = await openLiveShow({ width: 390, height: 844 }, () => {
      const moved: string[] = [];
      (window as unknown as { controlsMoved: string[] }).controlsMoved = moved;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { sources: { node?: Node }[] })[])
          for (const source of entry.sources)
            if (source.node instanceof Element && source.node.closest('.live-controls'))
              moved.push(`${source.node.className}: ${source.node.textContent}`);
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await playsOn(page, 1);
    const moved = await page.evaluate(() => (window as unknown as { controlsMoved: string[] }).controlsMoved);
    await page.close();
    expect(moved).toEqual([]);
  });

  it('shows a product when the video reaches the moment it was cued, not when the cue arrives', async () => {
    const { page } = await openLiveShow();
    await playsOn(page, 1);
    await page.waitForSelector('.video-stage[data-live-delay-ms]');
    await page.evaluate(() => {
      const player = document.querySelector('.player') as HTMLElement;
      const stage = document.querySelector('.video-stage') as HTMLElement;
      const changes: { uid: string; at: number; delayMs: number }[] = [];
      (window as unknown as { cueChanges: typeof changes }).cueChanges = changes;
      new MutationObserver(() => {
        changes.push({
          uid: player.dataset.activeProduct ?? '',
          at: Date.now(),
          delayMs: Number(stage.dataset.liveDelayMs),
        });
      }).observe(player, { attributes: true, attributeFilter: ['data-active-product'] });
    });
    expect(await page.getAttribute('.player', 'data-active-product')).toBe('');

    const stamped = Date.now();
    await adminCall('POST', `/admin/events/${EVENT}/products/nordlys-oak-board/cues`, {
      source: CONTROL_CENTER_CUE_SOURCE,
      presentationStartTimestamp: stamped,
    });
    // The cue reached the page (its products list knows it) before the video reached the moment.
    await page.waitForFunction(
      () => document.querySelector('.player')?.getAttribute('data-active-product') === 'nordlys-oak-board',
      undefined,
      { timeout: 20_000 },
    );
    const change = await page.evaluate(() =>
      (window as unknown as { cueChanges: { uid: string; at: number; delayMs: number }[] }).cueChanges.find(
        (c) => c.uid === 'nordlys-oak-board',
      ),
    );
    if (!change) throw new Error('the product never became active');
    // The playing frame's wall time when it appeared, against the stamp plus the broadcast delay.
    const playingDate = change.at - change.delayMs;
    const errorMs = playingDate - (stamped + DEFAULT_BROADCAST_DELAY_MS);
    const arrivedAfterMs = change.at - stamped;
    console.log(
      JSON.stringify({
        cueOnStreamClockErrorMs: errorMs,
        shownAfterStampMs: arrivedAfterMs,
        viewerDelayMs: change.delayMs,
      }),
    );
    expect(Math.abs(errorMs)).toBeLessThanOrEqual(CUE_TOLERANCE_MS);
    // A viewer seconds behind sees it seconds after the stamp, in step with the video.
    expect(arrivedAfterMs).toBeGreaterThan(change.delayMs);
    await page.close();
  });

  it('recovers from a network outage and plays on', async () => {
    const { page, hls } = await openLiveShow();
    await playsOn(page, 1);
    await page.evaluate(() => {
      const video = document.querySelector('video') as HTMLVideoElement;
      (window as unknown as { stalled: boolean }).stalled = false;
      video.addEventListener('waiting', () => {
        (window as unknown as { stalled: boolean }).stalled = true;
      });
    });
    hls.failing = true;
    // The buffer runs dry and the player keeps trying (hls.js's retries, then ours with backoff).
    await page.waitForFunction(() => (window as unknown as { stalled: boolean }).stalled, undefined, {
      timeout: 30_000,
    });
    const failedWhenStalled = hls.failed;
    await expect.poll(() => hls.failed, { timeout: 30_000 }).toBeGreaterThan(failedWhenStalled + 1);
    hls.failing = false;
    await playsOn(page, 2, 40_000);
    console.log(JSON.stringify({ requestsFailedDuringOutage: hls.failed }));
    await page.close();
  });

  it('plays the replay with a seek bar, cues at their stamped moments', async () => {
    // A recording of the same kind the pipeline keeps: every segment, PDT on each, ENDLIST at the end.
    const recording = startSyntheticHls({ keepAll: true });
    try {
      await waitForSegments(recording, 6);
      await recording.stop();
      const { dates, ended } = readPlaylist(join(recording.dir, recording.playlist));
      expect(ended).toBe(true);
      const firstDate = dates[0] ?? 0;
      const stamped = firstDate + 3000;
      await putEvent({
        currentStatus: 'vod',
        liveStartTime: firstDate,
        liveEndTime: Date.now(),
        cdnVideoStartTime: firstDate,
        cdnMp4VideoUrl: `/e2e-hls/replay/${recording.playlist}`,
      });
      await adminCall('POST', `/admin/events/${EVENT}/products/nordlys-ceramic-mug/cues`, {
        source: CONTROL_CENTER_CUE_SOURCE,
        presentationStartTimestamp: stamped,
      });
      const page = await context.newPage();
      page.on('pageerror', (error) => pageErrors.push(error.message));
      await serveHls(page, REPLAY_PREFIX, recording.dir);
      await page.goto(`${baseUrl}/widget/${PAGE}/campaign/${CAMPAIGN}/event/${EVENT}`);
      await page.waitForSelector('.player');
      expect(await page.evaluate(() => (document.querySelector('video') as HTMLVideoElement).controls)).toBe(
        true,
      );
      expect(await page.locator('.live-controls').count()).toBe(0);
      const becameActiveAt = await page.evaluate(async () => {
        const video = document.querySelector('video') as HTMLVideoElement;
        const player = document.querySelector('.player') as HTMLElement;
        video.muted = true;
        await video.play();
        return new Promise<number>((resolve) => {
          new MutationObserver(() => {
            if (player.dataset.activeProduct === 'nordlys-ceramic-mug') resolve(video.currentTime);
          }).observe(player, { attributes: true, attributeFilter: ['data-active-product'] });
        });
      });
      // The stamp lands at its offset from the recording's first frame, plus the broadcast delay.
      const errorMs = Math.round(becameActiveAt * 1000 - (stamped - firstDate + DEFAULT_BROADCAST_DELAY_MS));
      console.log(JSON.stringify({ replayCueErrorMs: errorMs }));
      expect(Math.abs(errorMs)).toBeLessThanOrEqual(150);
      await page.close();
    } finally {
      await recording.remove();
    }
    expect(pageErrors).toEqual([]);
  });
});

/** The frame a MutationObserver saw when the active product changed, with the delay the player reported then. */
interface ActiveChange {
  uid: string;
  at: number;
  delayMs: number;
  videoTime: number;
}

async function recordActiveChanges(page: Page) {
  await page.evaluate(() => {
    const player = document.querySelector('.player') as HTMLElement;
    const stage = document.querySelector('.video-stage') as HTMLElement;
    const video = document.querySelector('video') as HTMLVideoElement;
    const changes: ActiveChange[] = [];
    (window as unknown as { activeChanges: ActiveChange[] }).activeChanges = changes;
    new MutationObserver(() => {
      changes.push({
        uid: player.dataset.activeProduct ?? '',
        at: Date.now(),
        delayMs: Number(stage.dataset.liveDelayMs),
        videoTime: video.currentTime,
      });
    }).observe(player, { attributes: true, attributeFilter: ['data-active-product'] });
  });
}

async function activeChange(page: Page, uid: string): Promise<ActiveChange> {
  await page.waitForFunction(
    (uid) => document.querySelector('.player')?.getAttribute('data-active-product') === uid,
    uid,
    { timeout: 30_000 },
  );
  const change = await page.evaluate(
    (uid) =>
      (window as unknown as { activeChanges: ActiveChange[] }).activeChanges.find((c) => c.uid === uid),
    uid,
  );
  if (!change) throw new Error(`${uid} never became active`);
  return change;
}

describe('a live show fed by ffmpeg over RTMP through the live pipeline', () => {
  const showUid = 'e2e-rtmp-live-show';
  let hostToken = '';
  let publisher: TestPublisher | undefined;
  const streamPath = `/staff/stores/${PAGE}/shows/${showUid}/stream`;
  const readEvent = async () => {
    const response = await fetch(`${baseUrl}/reads/liveEvents.byId`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ids: [showUid] }),
    });
    const [event] = (await response.json()) as LiveEvent[];
    if (!event) throw new Error(`no event ${showUid}`);
    return event;
  };

  beforeAll(async () => {
    const host = await createStaffAccount(baseUrl, adminKey, PAGE, 'host');
    hostToken = host.session.idToken;
    await adminCall('PUT', `/admin/events/${showUid}`, {
      pageUid: PAGE,
      campaignId: CAMPAIGN,
      currentStatus: 'planned',
      eventName: 'Live over RTMP',
      eventStartTimestamp: Date.now(),
    });
    for (const productUid of ['nordlys-ceramic-mug', 'nordlys-oak-board']) {
      await adminCall('PUT', `/admin/events/${showUid}/products/${productUid}`, { productUid });
    }
  });
  afterAll(() => {
    publisher?.kill('SIGKILL');
  });

  it('plays muted without a click, shows a cued product at the stamped moment, then the replay', async () => {
    publisher = await goLiveOverRtmp(hostToken, PAGE, showUid);

    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await recordSocketArrivals(page);
    await page.goto(`${baseUrl}/widget/${PAGE}/campaign/${CAMPAIGN}/event/${showUid}`);
    await page.waitForSelector('.player[data-show-state="live"]');
    await playsOn(page, 1.5);
    expect(
      await page.evaluate(() => {
        const video = document.querySelector('video') as HTMLVideoElement;
        return { muted: video.muted, controls: video.controls };
      }),
    ).toEqual({ muted: true, controls: false });
    expect(await page.getByRole('button', { name: en.player.live.tapForSound }).isVisible()).toBe(true);
    await page.waitForSelector('.video-stage[data-live-delay-ms]');
    // Measured against once the player has caught up with the edge: the once-a-second sample lags
    // the truth while it does.
    const viewerDelayMs = await steadyDelay(page);

    await recordActiveChanges(page);
    const event = await readEvent();
    const stamped = Date.now();
    await adminCall('POST', `/admin/events/${showUid}/products/nordlys-oak-board/cues`, {
      source: CONTROL_CENTER_CUE_SOURCE,
      presentationStartTimestamp: stamped,
    });
    const change = await activeChange(page, 'nordlys-oak-board');
    const cue = await streamClockError(page, {
      uid: 'nordlys-oak-board',
      stampedAt: stamped,
      dueAt: stamped + broadcastDelayMs(event) + change.delayMs,
      shownAt: change.at,
    });
    console.log(
      JSON.stringify({
        rtmpViewerDelayMs: viewerDelayMs,
        rtmpCueOnStreamClockErrorMs: cue.onStreamClockErrorMs,
        rtmpCueArrivedBeforeDueMs: cue.arrivedBeforeDueMs,
        rtmpCueErrorMs: cue.errorMs,
        rtmpCueShownAfterStampMs: change.at - stamped,
      }),
    );
    expect(Math.abs(cue.errorMs)).toBeLessThanOrEqual(CUE_TOLERANCE_MS);
    await page.close();

    // End: the recording becomes the replay, and the stamp sits at its moment in it.
    await bearerCall(hostToken, 'POST', `${streamPath}/end`);
    publisher.kill('SIGINT');
    const replayEvent = await waitFor(
      'the event to become a replay',
      async () => {
        const current = await readEvent();
        return current.event.currentStatus === 'vod' && current.event.cdnVideoStartTime !== null
          ? current
          : null;
      },
      15_000,
    );
    const replay = await context.newPage();
    replay.on('pageerror', (error) => pageErrors.push(error.message));
    await replay.goto(`${baseUrl}/widget/${PAGE}/campaign/${CAMPAIGN}/event/${showUid}`);
    await replay.waitForSelector('.player');
    expect(await replay.evaluate(() => (document.querySelector('video') as HTMLVideoElement).controls)).toBe(
      true,
    );
    expect(await replay.locator('.live-controls').count()).toBe(0);
    const expectedSec =
      (stamped - (replayEvent.event.cdnVideoStartTime ?? 0) + broadcastDelayMs(replayEvent)) / 1000;
    await recordActiveChanges(replay);
    await replay.evaluate(async (at) => {
      const video = document.querySelector('video') as HTMLVideoElement;
      video.muted = true;
      await new Promise((resolve) => {
        if (video.readyState >= 1) resolve(null);
        else video.addEventListener('loadedmetadata', resolve, { once: true });
      });
      video.currentTime = Math.max(0, at - 1.5);
      await new Promise((resolve) => video.addEventListener('seeked', resolve, { once: true }));
      await video.play();
    }, expectedSec);
    const replayChange = await activeChange(replay, 'nordlys-oak-board');
    const replayErrorMs = Math.round((replayChange.videoTime - expectedSec) * 1000);
    console.log(JSON.stringify({ rtmpReplayCueErrorMs: replayErrorMs }));
    expect(Math.abs(replayErrorMs)).toBeLessThanOrEqual(150);
    await replay.close();
    expect(pageErrors).toEqual([]);
  });
});
