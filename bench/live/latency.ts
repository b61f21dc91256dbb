/**
 * Glass-to-glass latency of the live player, measured in Chromium as `Date.now() − playingDate`
 * (the wall-clock time of the frame on screen, from EXT-X-PROGRAM-DATE-TIME) with ffmpeg's
 * synthetic source as the encoder. Each stream is played by the real viewer page (the widget's
 * show player, hls.js with our live settings) for `--seconds`, sampling the delay the player
 * reports once a second after a warm-up. In the same run, one after the other so they do not
 * compete for the cores:
 *
 * - `pipeline`  — the shape the live pipeline serves: 1 s fMP4 segments with PDT.
 * - `baseline`  — ffmpeg's plain HLS muxer with its defaults (2 s MPEG-TS segments; a 6-segment
 *                 list as most setups use), plus PDT so the delay can be read at all.
 *
 * `npm run bench:live-latency [-- --seconds 60 --warmup 8]`
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { launchChromium } from '../../e2e/support/browser.ts';
import { startServer } from '../../e2e/support/server-process.ts';
import { serveHls, startSyntheticHls, waitForSegments } from '../../e2e/support/synthetic-hls.ts';
import { summarize } from './latency-stats.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    warmup: { type: 'string', default: '8' },
  },
});
const seconds = Number(values.seconds);
const warmupSeconds = Number(values.warmup);

const ADMIN_KEY = 'bench-admin-key-0123456789';
const PAGE = 'demo-store';
const CAMPAIGN = 'bench-live-latency';

interface Variant {
  name: string;
  describe: string;
  segmentSeconds: number;
  listSize: number;
  segmentType: 'fmp4' | 'mpegts';
}

const VARIANTS: Variant[] = [
  { name: 'pipeline', describe: '1 s fMP4 + PDT', segmentSeconds: 1, listSize: 6, segmentType: 'fmp4' },
  {
    name: 'baseline',
    describe: 'ffmpeg HLS defaults: 2 s TS, 6 in list',
    segmentSeconds: 2,
    listSize: 6,
    segmentType: 'mpegts',
  },
];

async function admin(baseUrl: string, path: string, body: unknown) {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_KEY}` },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
}

/** One second of sampling: the delay the player reports, or null while it has none. */
async function sampleDelay(page: Page): Promise<number | null> {
  const value = await page.getAttribute('.video-stage', 'data-live-delay-ms');
  return value === null ? null : Number(value);
}

async function measure(baseUrl: string, variant: Variant) {
  const stream = startSyntheticHls({
    segmentSeconds: variant.segmentSeconds,
    listSize: variant.listSize,
    segmentType: variant.segmentType,
    size: '720x1280',
  });
  const browser = await launchChromium();
  try {
    await waitForSegments(stream, 3, 60_000);
    const eventId = `bench-live-${variant.name}`;
    await admin(baseUrl, `/admin/events/${eventId}`, {
      pageUid: PAGE,
      campaignId: CAMPAIGN,
      currentStatus: 'live',
      eventName: `Latency: ${variant.describe}`,
      eventStartTimestamp: Date.now(),
      liveStartTime: Date.now(),
      cdnMp4VideoUrl: `/bench-hls/${variant.name}/${stream.playlist}`,
    });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await serveHls(page, `${baseUrl}/bench-hls/${variant.name}/`, stream.dir);
    const opened = performance.now();
    await page.goto(`${baseUrl}/widget/${PAGE}/campaign/${CAMPAIGN}/event/${eventId}`);
    await page.waitForSelector('.video-stage[data-live-delay-ms]', { timeout: 60_000 });
    const firstDelayAfterMs = Math.round(performance.now() - opened);
    const samples: number[] = [];
    const until = Date.now() + (warmupSeconds + seconds) * 1000;
    const warmupUntil = Date.now() + warmupSeconds * 1000;
    while (Date.now() < until) {
      // The player samples its delay once a second; reading it at the same rate takes each value once.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const delay = await sampleDelay(page);
      if (delay !== null && Date.now() >= warmupUntil) samples.push(delay);
    }
    return { variant: variant.name, stream: variant.describe, firstDelayAfterMs, ...summarize(samples) };
  } finally {
    await browser.close();
    await stream.remove();
  }
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'vitrine-bench-live-'));
  const server = await startServer({ VITRINE_DATA_DIR: dataDir, VITRINE_ADMIN_KEY: ADMIN_KEY });
  try {
    await admin(server.url, `/admin/pages/${PAGE}/campaigns/${CAMPAIGN}`, {
      name: 'Latency bench',
      deadline: Date.now() + 86_400_000,
    });
    const ffmpegVersion = await new Promise<string>((resolve) => {
      const child = spawn('ffmpeg', ['-hide_banner', '-version'], { stdio: ['ignore', 'pipe', 'ignore'] });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
      });
      child.on('exit', () => resolve(out.split('\n')[0] ?? ''));
    });
    console.log(`# live latency, ${seconds} s per stream after ${warmupSeconds} s warm-up; ${ffmpegVersion}`);
    const results = [];
    for (const variant of VARIANTS) {
      const result = await measure(server.url, variant);
      results.push(result);
      console.log(JSON.stringify(result));
    }
    console.table(
      results.map((r) => ({
        stream: r.stream,
        samples: r.count,
        'p50 ms': r.p50,
        'p95 ms': r.p95,
        'min ms': r.min,
        'max ms': r.max,
        'first delay after ms': r.firstDelayAfterMs,
      })),
    );
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
