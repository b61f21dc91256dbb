import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PremiereInfo, Show } from '@vitrine/protocol';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeFindings } from './support/axe.ts';
import { webLocale } from './support/locale-texts.ts';
import { recordPageActivity } from './support/page-activity.ts';
import { saveScreenshot } from './support/screenshots.ts';
import { openStudioAs } from './support/studio.ts';
import { startStudioHost } from './support/studio-host.ts';
import { bearerCall, testServer } from './support/test-server.ts';

// Issue 15 item 6, as a host would: upload a recorded video on the show's page in the studio
// (with progress), schedule it a few seconds ahead; a viewer sees the show go live by itself and
// play muted without a seek bar; when the video has played out the show is the replay.

const { baseUrl, adminKey } = testServer();
const STORE = 'demo-store';
const ZONE = 'Europe/Copenhagen';
/** The premiere's length: long enough to watch it live, short enough for a test. */
const VIDEO_SECONDS = 16;

const texts = webLocale('studio-shows/en') as {
  premiere: {
    title: string;
    choose: string;
    uploading: string;
    startsAt: string;
    schedule: string;
    state: Record<'ready' | 'scheduled' | 'playing' | 'ended', string>;
  };
};

let browser: Browser;
let page: Page;
let hostToken: string;
let workDir: string;
let videoPath: string;
const pageErrors: string[] = [];

/** A call as the host. */
const api = <T>(method: 'GET' | 'POST', path: string, body?: unknown) =>
  bearerCall<T>(hostToken, method, path, body);

/** The wall-clock time of an instant in the zone, to the second, as `datetime-local` takes it. */
const localSeconds = (instant: number) =>
  new Intl.DateTimeFormat('sv-SE', { timeZone: ZONE, dateStyle: 'short', timeStyle: 'medium' })
    .format(instant)
    .replace(' ', 'T');

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'vitrine-premiere-e2e-'));
  videoPath = join(workDir, 'premiere.mp4');
  // A real recording: a counter picture and a tone, H.264 with a keyframe each second, a few MB.
  execFileSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', `testsrc=size=640x360:rate=25:duration=${VIDEO_SECONDS}`],
    ...['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${VIDEO_SECONDS}`],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-g', '25', '-b:v', '1500k', '-pix_fmt', 'yuv420p'],
    ...['-c:a', 'aac', '-shortest', videoPath],
  ]);
  ({ browser, page, hostToken } = await startStudioHost(STORE, pageErrors));
});

afterAll(async () => {
  await browser?.close();
  rmSync(workDir, { recursive: true, force: true });
});

describe('a premiere from the studio', () => {
  it('uploads with progress, is scheduled, goes live for a viewer and becomes the replay', async () => {
    const show = await api<Show>('POST', `/staff/stores/${STORE}/shows`, {
      name: `Premiere e2e ${Date.now()}`,
      startsAt: localSeconds(Date.now() + 3_600_000).slice(0, 16),
      timeZone: ZONE,
      visibility: 'public',
    });
    const premierePath = `/staff/stores/${STORE}/shows/${show.uid}/premiere`;
    await openStudioAs(page, { baseUrl, adminKey, pageUid: STORE, role: 'host', path: `shows/${show.uid}` });
    const panel = page.getByRole('region', { name: texts.premiere.title });
    await panel.getByLabel(texts.premiere.choose).waitFor();

    // The upload is slowed to about 1 MB/s so its progress is seen moving, as on a real uplink.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 20,
      downloadThroughput: -1,
      uploadThroughput: 1024 * 1024,
    });
    await page.evaluate(() => {
      const seen: number[] = [];
      (window as unknown as { premiereProgress: number[] }).premiereProgress = seen;
      new MutationObserver(() => {
        for (const bar of document.querySelectorAll('progress')) seen.push(Number(bar.value));
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    await panel.getByLabel(texts.premiere.choose).setInputFiles(videoPath);
    await panel.getByRole('progressbar', { name: texts.premiere.uploading }).waitFor();
    await saveScreenshot(page, 'premiere-uploading-desktop', { fullPage: true });
    await panel.getByText(texts.premiere.state.ready).waitFor({ timeout: 60_000 });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    const progress = await page.evaluate(
      () => (window as unknown as { premiereProgress: number[] }).premiereProgress,
    );
    // Progress went through values between the start and the end, not only 0 then done.
    expect(
      progress.some((value) => value > 0 && value < 100),
      JSON.stringify(progress),
    ).toBe(true);
    // What ffprobe read of the file.
    await expect.poll(() => panel.locator('dl').textContent()).toContain('640×360');
    expect(await panel.locator('dl').textContent()).toContain('h264 / aac');

    expect(await axeFindings(page)).toEqual([]);
    await saveScreenshot(page, 'premiere-uploaded-desktop', { fullPage: true });

    // Scheduled a few seconds ahead, to the second, in the show's time zone.
    const startsAt = Math.ceil((Date.now() + 9000) / 1000) * 1000;
    await panel.getByLabel(texts.premiere.startsAt).fill(localSeconds(startsAt));
    await panel.getByRole('button', { name: texts.premiere.schedule }).click();
    await panel.getByText(texts.premiere.state.scheduled).waitFor();
    const scheduled = await api<PremiereInfo>('GET', premierePath);
    expect(scheduled.premiere).toMatchObject({ state: 'scheduled', startsAt });
    await saveScreenshot(page, 'premiere-scheduled-desktop', { fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await panel.scrollIntoViewIfNeeded();
    expect(await axeFindings(page)).toEqual([]);
    await saveScreenshot(page, 'premiere-scheduled-phone', { fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });

    // A viewer opens the show before it starts and sees it go live by itself.
    const viewer = await browser.newPage({ viewport: { width: 390, height: 844 } });
    viewer.on('pageerror', (error) => pageErrors.push(error.message));
    const viewerActivity = recordPageActivity(viewer);
    // The playlists the viewer's player asked for, in order (which stream it was on).
    const playlists: string[] = [];
    viewer.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path.endsWith('.m3u8') && playlists.at(-1) !== path) playlists.push(path);
    });
    await viewer.goto(`${baseUrl}/widget/${STORE}/campaign/${show.campaignUid}/event/${show.uid}`);
    await viewer.waitForSelector('.player[data-show-state="live"]', { timeout: 30_000 });
    expect(Date.now()).toBeGreaterThanOrEqual(startsAt);
    await viewer.waitForFunction(
      () => {
        const video = document.querySelector('video') as HTMLVideoElement | null;
        return video !== null && !video.paused && video.currentTime > 1.5;
      },
      undefined,
      { timeout: 30_000 },
    );
    expect(
      await viewer.evaluate(() => {
        const video = document.querySelector('video') as HTMLVideoElement;
        return { muted: video.muted, controls: video.controls };
      }),
    ).toEqual({ muted: true, controls: false });
    expect(
      await viewer.locator('.video-stage input[type="range"], .video-stage [role="slider"]').count(),
    ).toBe(0);
    // In step with the server's clock: the picture is the premiere's current moment.
    await viewer.waitForSelector('.video-stage[data-live-delay-ms]');
    const delayMs = Number(await viewer.getAttribute('.video-stage', 'data-live-delay-ms'));
    console.info(JSON.stringify({ premiereViewerDelayMs: delayMs }));
    expect(delayMs).toBeLessThan(10_000);
    await saveScreenshot(viewer, 'premiere-viewer-live-phone', { fullPage: true });
    await panel.getByText(texts.premiere.state.playing).waitFor({ timeout: 15_000 });
    await saveScreenshot(page, 'premiere-playing-desktop', { fullPage: true });

    // When the video has played out the show ends by itself into the replay.
    await panel.getByText(texts.premiere.state.ended).waitFor({ timeout: (VIDEO_SECONDS + 20) * 1000 });
    const ended = await api<PremiereInfo>('GET', premierePath);
    expect(ended.premiere?.state).toBe('ended');
    await viewer.reload();
    await viewer.waitForSelector('.player');
    await expect
      .poll(() =>
        viewer.evaluate(() => (document.querySelector('video') as HTMLVideoElement | null)?.controls),
      )
      .toBe(true);
    // Play, as the viewer would, until it plays: a play() before the player has attached its
    // stream is undone by the attach (the element's load algorithm pauses it again), which a loaded
    // machine's slower attach made happen.
    await viewer
      .waitForFunction(
        () => {
          const video = document.querySelector('video') as HTMLVideoElement;
          if (video.paused) {
            video.muted = true;
            void video.play().catch(() => {});
          }
          return video.currentTime > 1 && video.duration > 10;
        },
        undefined,
        { timeout: 60_000, polling: 500 },
      )
      .catch(async (error: Error) => {
        // What the viewer had: the video element, the player's state, the show's video as the
        // server gives it, and the page's requests and errors.
        const video = await viewer.evaluate(() => {
          const element = document.querySelector('video');
          return element
            ? {
                src: element.currentSrc,
                readyState: element.readyState,
                networkState: element.networkState,
                paused: element.paused,
                currentTime: element.currentTime,
                duration: element.duration,
                error: element.error?.message ?? null,
                showState: document.querySelector('.player')?.getAttribute('data-show-state'),
              }
            : null;
        });
        const premiere = await api<PremiereInfo>('GET', premierePath).catch(String);
        const current = await api<Show>('GET', `/staff/stores/${STORE}/shows/${show.uid}`).then(
          ({ currentStatus }) => currentStatus,
          String,
        );
        await saveScreenshot(viewer, 'premiere-replay-not-playing-phone', { fullPage: true });
        throw new Error(
          `${error.message}\nvideo: ${JSON.stringify(video)}\npremiere: ${JSON.stringify(premiere)}\nshow: ${current}\nplaylists: ${playlists.slice(-6).join(' → ')}\n${viewerActivity.describe()}`,
        );
      });
    await viewer.close();
    await saveScreenshot(page, 'premiere-ended-desktop', { fullPage: true });
    expect(pageErrors).toEqual([]);
  });
});
