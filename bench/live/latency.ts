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
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { LiveStreamView } from '@vitrine/protocol';
import type { Page } from 'playwright-core';
import { launchChromium } from '../../e2e/support/browser.ts';
import { startServer } from '../../e2e/support/server-process.ts';
import { createStaffAccount } from '../../e2e/support/studio.ts';
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
const SIZE = '720x1280';

/** A stream being produced, as the viewer page will find it. */
interface Source {
  /** The event's video URL (a path on the server). */
  url: string;
  /** When the encoder started: frame t of its synthetic source was made about t seconds later. */
  encoderStartedAt: number;
  /** Serves the stream to the page, when the server does not. */
  route?(page: Page, baseUrl: string): Promise<void>;
  stop(): Promise<void>;
}

interface Variant {
  name: string;
  describe: string;
  /** Starts the stream; `eventId` is the show the viewer opens (already live when this answers). */
  start(baseUrl: string, eventId: string): Promise<Source>;
}

/** ffmpeg's synthetic source published over RTMP like an encoder (OBS): H.264, keyframe every second. */
function publishRtmp(url: string): ChildProcess {
  return spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-re'],
      ...['-f', 'lavfi', '-i', `testsrc2=size=${SIZE}:rate=30`],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-pix_fmt', 'yuv420p'],
      ...['-g', '30', '-keyint_min', '30', '-sc_threshold', '0', '-b:v', '2500k'],
      ...['-c:a', 'aac', '-b:a', '128k', '-f', 'flv', url],
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
}

async function until<T>(what: string, probe: () => Promise<T | null>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The whole pipeline: RTMP ingest, the packager's 1 s fMP4 with PDT, served by the server, Go live by the host. */
const rtmpPipeline: Variant = {
  name: 'rtmp-pipeline',
  describe: 'RTMP → live pipeline (1 s fMP4 + PDT)',
  async start(baseUrl, eventId) {
    const host = await createStaffAccount(baseUrl, ADMIN_KEY, PAGE, 'host');
    const headers = { authorization: `Bearer ${host.session.idToken}` };
    const path = `${baseUrl}/staff/stores/${PAGE}/shows/${eventId}/stream`;
    const studio = async (method: 'GET' | 'POST', suffix = '') => {
      const response = await fetch(`${path}${suffix}`, { method, headers });
      if (!response.ok)
        throw new Error(`${method} ${path}${suffix}: ${response.status} ${await response.text()}`);
      return (await response.json()) as LiveStreamView;
    };
    const view = await studio('GET');
    if (!view.rtmpUrl) throw new Error(`no RTMP ingest: ${JSON.stringify(view.packager)}`);
    const port = new URL(view.rtmpUrl.replace('rtmp://', 'http://')).port;
    const encoderStartedAt = Date.now();
    const encoder = publishRtmp(`rtmp://127.0.0.1:${port}/live/${view.streamKey}`);
    await until('the stream to arrive', async () =>
      (await studio('GET')).state === 'receiving' ? true : null,
    );
    const live = await studio('POST', '/go-live');
    return {
      url: live.liveUrl,
      encoderStartedAt,
      async stop() {
        await studio('POST', '/end').catch(() => undefined);
        encoder.kill('SIGINT');
      },
    };
  },
};

/** ffmpeg writing HLS itself, served to the page from its folder. */
function directHls(
  name: string,
  describe: string,
  options: { segmentSeconds: number; listSize: number; segmentType: 'fmp4' | 'mpegts' },
): Variant {
  return {
    name,
    describe,
    async start() {
      const stream = startSyntheticHls({ ...options, size: SIZE });
      await waitForSegments(stream, 3, 60_000);
      const prefix = `/bench-hls/${name}/`;
      return {
        url: `${prefix}${stream.playlist}`,
        encoderStartedAt: stream.startedAt,
        route: async (page, baseUrl) => {
          await serveHls(page, `${baseUrl}${prefix}`, stream.dir);
        },
        stop: () => stream.remove(),
      };
    },
  };
}

const VARIANTS: Variant[] = [
  rtmpPipeline,
  directHls('hls-1s', 'ffmpeg HLS, 1 s fMP4 + PDT (no ingest)', {
    segmentSeconds: 1,
    listSize: 6,
    segmentType: 'fmp4',
  }),
  directHls('baseline', 'ffmpeg HLS defaults: 2 s TS, 6 in list', {
    segmentSeconds: 2,
    listSize: 6,
    segmentType: 'mpegts',
  }),
];

async function admin(baseUrl: string, path: string, body: unknown) {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_KEY}` },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
}

/**
 * One sample: the delay the player reports (`Date.now() − playingDate`, from PDT) and, as a cross-
 * check that does not trust the PDT, now minus when the frame on screen was made by the encoder
 * (its start plus the video position, the source's timestamps starting at 0).
 */
async function sample(page: Page, encoderStartedAt: number) {
  const [pdtDelay, position] = await Promise.all([
    page.getAttribute('.video-stage', 'data-live-delay-ms'),
    page.evaluate('document.querySelector("video").currentTime') as Promise<number>,
  ]);
  return {
    pdtDelayMs: pdtDelay === null ? null : Number(pdtDelay),
    encoderDelayMs: Date.now() - (encoderStartedAt + position * 1000),
  };
}

async function measure(baseUrl: string, variant: Variant) {
  const eventId = `bench-live-${variant.name}`;
  await admin(baseUrl, `/admin/events/${eventId}`, {
    pageUid: PAGE,
    campaignId: CAMPAIGN,
    currentStatus: 'planned',
    eventName: `Latency: ${variant.describe}`,
    eventStartTimestamp: Date.now(),
  });
  const source = await variant.start(baseUrl, eventId);
  const browser = await launchChromium();
  try {
    if (source.route) {
      // The pipeline makes the event live itself (Go live); a plain ffmpeg stream needs it said.
      await admin(baseUrl, `/admin/events/${eventId}`, {
        pageUid: PAGE,
        campaignId: CAMPAIGN,
        currentStatus: 'live',
        eventName: `Latency: ${variant.describe}`,
        eventStartTimestamp: Date.now(),
        liveStartTime: Date.now(),
        cdnMp4VideoUrl: source.url,
      });
    }
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await source.route?.(page, baseUrl);
    const opened = performance.now();
    await page.goto(`${baseUrl}/widget/${PAGE}/campaign/${CAMPAIGN}/event/${eventId}`);
    await page.waitForSelector('.video-stage[data-live-delay-ms]', { timeout: 60_000 });
    const firstDelayAfterMs = Math.round(performance.now() - opened);
    const pdt: number[] = [];
    const encoder: number[] = [];
    const end = Date.now() + (warmupSeconds + seconds) * 1000;
    const warmupEnd = Date.now() + warmupSeconds * 1000;
    while (Date.now() < end) {
      // The player samples its delay once a second; reading it at the same rate takes each value once.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const { pdtDelayMs, encoderDelayMs } = await sample(page, source.encoderStartedAt);
      if (Date.now() < warmupEnd) continue;
      if (pdtDelayMs !== null) pdt.push(pdtDelayMs);
      encoder.push(encoderDelayMs);
    }
    return {
      variant: variant.name,
      stream: variant.describe,
      firstDelayAfterMs,
      pdt: summarize(pdt),
      encoderClock: summarize(encoder),
    };
  } finally {
    await browser.close();
    await source.stop();
  }
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'vitrine-bench-live-'));
  const server = await startServer({
    VITRINE_DATA_DIR: dataDir,
    VITRINE_ADMIN_KEY: ADMIN_KEY,
    RTMP_PORT: '0',
    VITRINE_SIGN_UP_LIMIT: '50/600',
  });
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
        samples: r.pdt.count,
        'p50 ms': r.pdt.p50,
        'p95 ms': r.pdt.p95,
        'min–max ms': `${r.pdt.min}–${r.pdt.max}`,
        'encoder clock p50 ms': r.encoderClock.p50,
        'encoder clock p95 ms': r.encoderClock.p95,
        'first delay after ms': r.firstDelayAfterMs,
      })),
    );
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
