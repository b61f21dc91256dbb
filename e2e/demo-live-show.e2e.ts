import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONTROL_CENTER_CUE_SOURCE } from '@vitrine/domain';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { englishPage, launchChromium } from './support/browser.ts';
import { type RunningServer, SERVER_START_BOUND_MS, startServer } from './support/server-process.ts';
import { recordSocketArrivals, streamClockError } from './support/stream-sightings.ts';

/**
 * The demo's live show as `npm start` runs it with ffmpeg present (VITRINE_DEMO_LIVE=1): an
 * encoder loops the demo video through the RTMP ingest. Its products must come with the video —
 * the first one when the video shows its card — and a product the host presents must appear.
 */
const ADMIN_KEY = 'e2e-demo-live-admin-key-0123456789';
const SHOW = 'demo-autumn-living';
const SHIRT = 'nordlys-linen-shirt';
const SCARF = 'nordlys-wool-scarf';
/** A frame (40 ms at 25 fps) plus React's render after the player's own frame callback. */
const FRAME_TOLERANCE_MS = 250;

let server: RunningServer;
let browser: Browser;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'vitrine-e2e-demo-live-'));
  server = await startServer({
    VITRINE_DATA_DIR: dataDir,
    VITRINE_ADMIN_KEY: ADMIN_KEY,
    VITRINE_DEMO_LIVE: '1',
    VITRINE_DEMO_RETAILER_PORT: '-1',
  });
  browser = await launchChromium();
}, SERVER_START_BOUND_MS + 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

interface FrameSample {
  /** Wall time the frame was presented. */
  shownAt: number;
  /** Whether the frame shows the linen shirt's card (its sage background: more green than red). */
  shirtCard: boolean;
}
interface ActiveChange {
  uid: string;
  at: number;
  delayMs: number;
}

it('shows the demo stream’s products when its video shows them, and the product the host presents', async () => {
  const errors: string[] = [];
  const { context, page } = await englishPage(browser, errors);
  await recordSocketArrivals(page);
  // The demo show goes live once its encoder's stream is packaged: reload until the player has it.
  const deadline = Date.now() + 60_000;
  for (;;) {
    await page.goto(`${server.url}/widget/demo-store/${SHOW}`);
    const streaming = await page.waitForSelector('.video-stage[data-live-stream]', { timeout: 5000 }).then(
      () => true,
      () => false,
    );
    if (streaming) break;
    if (Date.now() > deadline) throw new Error('the demo show never played its live stream');
  }
  await page.waitForSelector('.video-stage[data-live-delay-ms]', { timeout: 30_000 });

  // Every presented frame: does it show the shirt's card? And every change of the active product.
  await page.evaluate(() => {
    const video = document.querySelector('video') as HTMLVideoElement & {
      requestVideoFrameCallback(callback: (now: number) => void): number;
    };
    const player = document.querySelector('.player') as HTMLElement;
    const stage = document.querySelector('.video-stage') as HTMLElement;
    const canvas = document.createElement('canvas');
    canvas.width = 10;
    canvas.height = 10;
    const context2d = canvas.getContext('2d', { willReadFrequently: true }) as CanvasRenderingContext2D;
    const record = window as unknown as { frames: FrameSample[]; changes: ActiveChange[] };
    record.frames = [];
    record.changes = [];
    const onFrame = (now: number) => {
      // A patch of the card's background (demo-show.mp4 is 540x960), averaged.
      context2d.drawImage(video, 20, 220, 100, 100, 0, 0, 10, 10);
      const pixels = context2d.getImageData(0, 0, 10, 10).data;
      let red = 0;
      let green = 0;
      for (let i = 0; i < pixels.length; i += 4) {
        red += pixels[i] ?? 0;
        green += pixels[i + 1] ?? 0;
      }
      record.frames.push({ shownAt: Date.now() - (performance.now() - now), shirtCard: green > red });
      video.requestVideoFrameCallback(onFrame);
    };
    video.requestVideoFrameCallback(onFrame);
    new MutationObserver(() => {
      record.changes.push({
        uid: player.dataset.activeProduct ?? '',
        at: Date.now(),
        delayMs: Number(stage.dataset.liveDelayMs),
      });
    }).observe(player, { attributes: true, attributeFilter: ['data-active-product'] });
  });

  // The shirt comes on with its card (15 s into every loop of the video; the test may join in any loop).
  await page.waitForFunction(
    (shirt) => {
      const record = window as unknown as { frames: FrameSample[]; changes: ActiveChange[] };
      const firstCard = record.frames.findIndex((frame, index) => index > 0 && frame.shirtCard);
      return (
        firstCard > 0 &&
        !record.frames[firstCard - 1]?.shirtCard &&
        record.changes.some((change) => change.uid === shirt)
      );
    },
    SHIRT,
    { timeout: 100_000 },
  );
  const { frames, changes } = await page.evaluate(() => {
    const record = window as unknown as { frames: FrameSample[]; changes: ActiveChange[] };
    return { frames: record.frames, changes: record.changes };
  });
  const cardShown = frames.find(
    (frame, index) => index > 0 && frame.shirtCard && !frames[index - 1]?.shirtCard,
  );
  const shirtActive = changes.find((change) => change.uid === SHIRT);
  if (!cardShown || !shirtActive) throw new Error('no shirt');
  const scriptErrorMs = shirtActive.at - cardShown.shownAt;

  // The host presents the scarf (the admin API's cue, the control center's source).
  const stamped = Date.now();
  const response = await fetch(`${server.url}/admin/events/${SHOW}/products/${SCARF}/cues`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_KEY}` },
    body: JSON.stringify({ source: CONTROL_CENTER_CUE_SOURCE, presentationStartTimestamp: stamped }),
  });
  expect(response.status, await response.text()).toBeLessThan(300);
  await page.waitForFunction(
    (scarf) =>
      (window as unknown as { changes: ActiveChange[] }).changes.some(
        (change, index) => change.uid === scarf && index > 0,
      ),
    SCARF,
    { timeout: 30_000 },
  );
  const presented = await page.evaluate(
    (scarf) =>
      (window as unknown as { changes: ActiveChange[] }).changes.find((change) => change.uid === scarf),
    SCARF,
  );
  if (!presented) throw new Error('the scarf never showed');
  const present = await streamClockError(page, {
    uid: SCARF,
    stampedAt: stamped,
    dueAt: stamped + presented.delayMs,
    shownAt: presented.at,
  });
  console.log(
    JSON.stringify({
      demoScriptedCueVsVideoCardMs: scriptErrorMs,
      demoPresentedOnStreamClockErrorMs: present.onStreamClockErrorMs,
      demoPresentedArrivedBeforeDueMs: present.arrivedBeforeDueMs,
      demoPresentedErrorMs: present.errorMs,
      demoViewerDelayMs: presented.delayMs,
    }),
  );
  expect(Math.abs(scriptErrorMs)).toBeLessThanOrEqual(FRAME_TOLERANCE_MS);
  expect(Math.abs(present.errorMs)).toBeLessThanOrEqual(FRAME_TOLERANCE_MS);
  expect(errors).toEqual([]);
  await context.close();
});
