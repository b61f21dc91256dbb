/**
 * Glass-to-glass latency of the live player in Chromium, two ways per sample:
 *
 * - honest: now minus the moment the frame on screen was MADE, read from the frame itself: the
 *   encoder burns its wall clock into every frame (apps/server/src/test-support/clock-stamp.ts),
 *   the page draws the playing video to a canvas and decodes it. Trusts no timestamp on the way.
 * - by PDT: `Date.now() − playingDate` (EXT-X-PROGRAM-DATE-TIME), what the player reports and
 *   what cues are timed by; it equals the honest figure only if the PDT is right.
 *
 * For the pipeline streams it also times one stage from the outside: how long after a segment's
 * end (its PDT plus duration, on the ingest clock) the live playlist lists it.
 *
 * Streams, one after the other in the same run so they do not compete for the cores:
 * - `rtmp-ll`       — the same, played from the LL-HLS playlist (0.2 s parts, blocking reload).
 * - `rtmp-pipeline` — ffmpeg publishes H.264 over RTMP; ingest, packager (1 s fMP4), server.
 * - `whip-pipeline` — a libwebrtc publisher (@roamhq/wrtc: VP8, which the packager transcodes).
 * - `hls-1s`        — the same encoder writing 1 s fMP4 HLS itself (no ingest): the floor.
 * - `baseline`      — ffmpeg's plain HLS muxer with its defaults (2 s MPEG-TS, 6 in the list).
 *
 * `npm run bench:live-latency [-- --seconds 60 --warmup 8]`
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { LiveStreamView } from '@vitrine/protocol';
import type { Page } from 'playwright-core';
import { clockStampFilter } from '../../apps/server/src/test-support/clock-stamp.ts';
import { publishOverWhip } from '../../apps/server/src/test-support/whip-test-publisher.ts';
import { launchChromium } from '../../e2e/support/browser.ts';
import { sampleFrameClock as sample } from '../../e2e/support/frame-clock.ts';
import { startServer } from '../../e2e/support/server-process.ts';
import { createStaffAccount } from '../../e2e/support/studio.ts';
import { serveHls } from '../../e2e/support/synthetic-hls.ts';
import { summarize } from './latency-stats.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    warmup: { type: 'string', default: '8' },
    /** Comma-separated stream names to run (all by default). */
    only: { type: 'string', default: '' },
    /** The RTMP and HLS encoders' picture (a phone's portrait 720p by default). */
    size: { type: 'string', default: '720x1280' },
  },
});
const seconds = Number(values.seconds);
const warmupSeconds = Number(values.warmup);

const ADMIN_KEY = 'bench-latency-admin-key-0123456789';
const PAGE = 'demo-store';
const CAMPAIGN = 'bench-live-latency';
const SIZE = values.size;
if (!/^[0-9]{2,4}x[0-9]{2,4}$/.test(SIZE))
  throw new Error(`--size is WIDTHxHEIGHT, e.g. 640x360 (got "${SIZE}")`);
/** The WebRTC publisher's frames: libwebrtc's VP8 software encoder and the packager's transcode. */
const WHIP_SIZE = { width: 640, height: 360 };

/** A stream being produced, as the viewer page will find it. */
interface Source {
  /** The event's video URL (a path on the server). */
  url: string;
  /**
   * The wall clock its encoder burns into the frames counts from here (ms): taken just before
   * the encoder starts, so its timestamps (the same clock) start near 0, as an encoder's do.
   */
  stampBase: number;
  /** Serves the stream to the page, when the server does not. */
  route?(page: Page, baseUrl: string): Promise<void>;
  /** The absolute live playlist the server publishes, to time when segments are listed. */
  livePlaylistUrl?: string;
  stop(): Promise<void>;
}

interface Variant {
  name: string;
  describe: string;
  /** Starts the stream; `eventId` is the show the viewer opens (already live when this answers). */
  start(baseUrl: string, eventId: string): Promise<Source>;
}

/** The encoder's arguments: the clock-stamped synthetic source, H.264 with a keyframe every second, AAC. */
const encoderArgs = (stampBase: number) => [
  ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-re'],
  ...['-f', 'lavfi', '-i', `testsrc2=size=${SIZE}:rate=30`],
  ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'],
  ...['-filter_complex', clockStampFilter(stampBase), '-map', '[v]', '-map', '[a]'],
  ...['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-pix_fmt', 'yuv420p'],
  ...['-g', '30', '-keyint_min', '30', '-sc_threshold', '0', '-b:v', '2500k'],
  ...['-c:a', 'aac', '-b:a', '128k'],
];

/** The encoder published over RTMP like OBS. */
function publishRtmp(url: string, stampBase: number): ChildProcess {
  return spawn('ffmpeg', [...encoderArgs(stampBase), '-f', 'flv', url], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
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

/** The host's studio calls for a show's stream. */
async function studioFor(baseUrl: string, eventId: string) {
  const host = await createStaffAccount(baseUrl, ADMIN_KEY, PAGE, 'host');
  const headers = { authorization: `Bearer ${host.session.idToken}` };
  const path = `${baseUrl}/staff/stores/${PAGE}/shows/${eventId}/stream`;
  return async (method: 'GET' | 'POST', suffix = '') => {
    const response = await fetch(`${path}${suffix}`, { method, headers });
    if (!response.ok)
      throw new Error(`${method} ${path}${suffix}: ${response.status} ${await response.text()}`);
    return (await response.json()) as LiveStreamView;
  };
}

/** The whole pipeline from one publisher: it arrives (receiving), the host goes live, the server serves. */
function pipeline(
  name: string,
  describe: string,
  publish: (baseUrl: string, view: LiveStreamView, stampBase: number) => Promise<() => void>,
  options: { lowLatency?: boolean } = {},
): Variant {
  return {
    name,
    describe,
    async start(baseUrl, eventId) {
      const studio = await studioFor(baseUrl, eventId);
      const stampBase = Date.now();
      const stopPublisher = await publish(baseUrl, await studio('GET'), stampBase);
      await until('the stream to arrive', async () =>
        (await studio('GET')).state === 'receiving' ? true : null,
      );
      const live = await studio('POST', '/go-live');
      // A viewer who joins a running show: the live playlist (only what followed Go live) has
      // filled most of its window, so the player can take its place behind the edge at once.
      await until(
        'the live window',
        async () => {
          const text = await fetch(`${baseUrl}${live.liveUrl}`).then((response) => response.text());
          return text.split('\n').filter((line) => line.includes('.m4s')).length >= 4 ? true : null;
        },
        30_000,
      );
      // The viewer plays the LL-HLS playlist of the same segments (parts, blocking reload), or
      // the regular one (viewers get the LL one by default: LIVE_PROFILE ll=on).
      const viewerUrl = options.lowLatency ? live.lowLatencyUrl : live.liveUrl;
      const liveStartTime = live.liveStartTime ?? Date.now();
      await admin(baseUrl, `/admin/events/${eventId}`, {
        pageUid: PAGE,
        campaignId: CAMPAIGN,
        currentStatus: 'live',
        videoCurrentStatus: 'live',
        eventName: `Latency: ${describe}`,
        eventStartTimestamp: liveStartTime,
        liveStartTime,
        cdn: 'vitrine',
        cdnMp4VideoUrl: viewerUrl,
        cdnVideoStartTime: liveStartTime,
      });
      return {
        url: viewerUrl,
        stampBase,
        livePlaylistUrl: `${baseUrl}${live.liveUrl}`,
        async stop() {
          await studio('POST', '/end').catch(() => undefined);
          stopPublisher();
        },
      };
    },
  };
}

const rtmpPipeline = pipeline(
  'rtmp-pipeline',
  'RTMP → live pipeline (H.264 passed through)',
  async (_, view, stampBase) => {
    if (!view.rtmpUrl) throw new Error(`no RTMP ingest: ${JSON.stringify(view.packager)}`);
    const port = new URL(view.rtmpUrl.replace('rtmp://', 'http://')).port;
    const encoder = publishRtmp(`rtmp://127.0.0.1:${port}/live/${view.streamKey}`, stampBase);
    return () => encoder.kill('SIGINT');
  },
);

const rtmpLowLatency = pipeline(
  'rtmp-ll',
  'RTMP → live pipeline, LL-HLS (0.2 s parts, blocking reload)',
  async (_, view, stampBase) => {
    if (!view.rtmpUrl) throw new Error(`no RTMP ingest: ${JSON.stringify(view.packager)}`);
    const port = new URL(view.rtmpUrl.replace('rtmp://', 'http://')).port;
    const encoder = publishRtmp(`rtmp://127.0.0.1:${port}/live/${view.streamKey}`, stampBase);
    return () => encoder.kill('SIGINT');
  },
  { lowLatency: true },
);

/** A libwebrtc publisher over WHIP, as the studio's browser go-live publishes. */
async function publishWhip(baseUrl: string, view: LiveStreamView, stampBase: number) {
  const publisher = await publishOverWhip({
    url: `${baseUrl}/whip`,
    key: view.streamKey,
    ...WHIP_SIZE,
    clockStampBase: stampBase,
  });
  if (publisher.status !== 201)
    throw new Error(`WHIP publish refused: ${publisher.status} ${publisher.body}`);
  await publisher.connected();
  return () => publisher.stop();
}

const whipPipeline = pipeline('whip-pipeline', 'WHIP → live pipeline (VP8 transcoded)', publishWhip);

const whipLowLatency = pipeline(
  'whip-ll',
  'WHIP → live pipeline, LL-HLS (VP8 transcoded, 0.2 s parts)',
  publishWhip,
  { lowLatency: true },
);

/** The encoder writing HLS itself, served to the page from its folder. */
function directHls(
  name: string,
  describe: string,
  options: { segmentSeconds: number; listSize: number; segmentType: 'fmp4' | 'mpegts' },
): Variant {
  return {
    name,
    describe,
    async start() {
      const dir = mkdtempSync(join(tmpdir(), 'vitrine-bench-hls-'));
      const stampBase = Date.now();
      const encoder = spawn(
        'ffmpeg',
        [
          ...encoderArgs(stampBase),
          ...[
            '-f',
            'hls',
            '-hls_time',
            String(options.segmentSeconds),
            '-hls_segment_type',
            options.segmentType,
          ],
          ...['-hls_list_size', String(options.listSize)],
          ...['-hls_flags', 'program_date_time+delete_segments+independent_segments'],
          join(dir, 'index.m3u8'),
        ],
        { stdio: ['ignore', 'ignore', 'inherit'] },
      );
      await until(
        'three segments',
        async () => {
          const path = join(dir, 'index.m3u8');
          const listed = existsSync(path) ? readFileSync(path, 'utf8').split('\n') : [];
          return listed.filter((line) => line && !line.startsWith('#')).length >= 3 ? true : null;
        },
        60_000,
      );
      const prefix = `/bench-hls/${name}/`;
      return {
        url: `${prefix}index.m3u8`,
        stampBase,
        route: async (page, baseUrl) => {
          await serveHls(page, `${baseUrl}${prefix}`, dir);
        },
        async stop() {
          const exited = new Promise((resolve) => encoder.once('exit', resolve));
          encoder.kill('SIGINT');
          await exited;
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  };
}

const VARIANTS: Variant[] = [
  rtmpLowLatency,
  rtmpPipeline,
  whipLowLatency,
  whipPipeline,
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
 * Times when the live playlist lists each segment, after the segment's end on the ingest clock
 * (PDT + duration): the packager and the server, from the outside. Polls every 50 ms.
 */
function watchListing(url: string) {
  const seen = new Set<string>();
  const lags: number[] = [];
  let running = true;
  const done = (async () => {
    while (running) {
      const text = await fetch(url)
        .then((response) => response.text())
        .catch(() => '');
      const at = Date.now();
      const lines = text.split('\n');
      lines.forEach((line, index) => {
        if (!line.includes('.m4s') || seen.has(line)) return;
        const first = seen.size === 0;
        seen.add(line);
        const pdt = Date.parse((lines[index - 2] ?? '').replace('#EXT-X-PROGRAM-DATE-TIME:', ''));
        const duration = Number.parseFloat((lines[index - 1] ?? '').replace('#EXTINF:', ''));
        // The first poll finds a whole window at once; only segments seen appearing count.
        if (!first && Number.isFinite(pdt) && Number.isFinite(duration))
          lags.push(at - (pdt + duration * 1000));
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
      return lags.slice(1);
    },
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
    const honest: number[] = [];
    const bufferAhead: number[] = [];
    let catchingUp = 0;
    const end = Date.now() + (warmupSeconds + seconds) * 1000;
    const warmupEnd = Date.now() + warmupSeconds * 1000;
    const listing = source.livePlaylistUrl ? watchListing(source.livePlaylistUrl) : null;
    while (Date.now() < end) {
      // The player samples its delay once a second; reading it at the same rate takes each value once.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const measured = await sample(page, source.stampBase);
      if (Date.now() < warmupEnd || !measured) continue;
      if (measured.pdtMs !== null) pdt.push(measured.pdtMs);
      honest.push(measured.honestMs);
      bufferAhead.push(measured.bufferAheadMs);
      if (measured.playbackRate > 1) catchingUp += 1;
    }
    const listed = (await listing?.stop()) ?? [];
    return {
      variant: variant.name,
      stream: variant.describe,
      firstDelayAfterMs,
      honest: summarize(honest),
      pdt: summarize(pdt),
      listedAfterSegmentEnd: listed.length ? summarize(listed) : null,
      bufferAhead: summarize(bufferAhead),
      // The share of samples the player was playing faster to catch up with the edge.
      catchingUpShare: honest.length ? Math.round((catchingUp / honest.length) * 100) / 100 : null,
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
    const only = values.only ? values.only.split(',') : null;
    for (const variant of VARIANTS.filter((v) => !only || only.includes(v.name))) {
      const result = await measure(server.url, variant);
      results.push(result);
      console.log(JSON.stringify(result));
    }
    console.table(
      results.map((r) => ({
        stream: r.stream,
        samples: r.honest.count,
        'honest p50 ms': r.honest.p50,
        'honest p95 ms': r.honest.p95,
        'by PDT p50 ms': r.pdt.p50,
        'by PDT p95 ms': r.pdt.p95,
        'listed after segment end p50 ms': r.listedAfterSegmentEnd?.p50 ?? '',
        'player buffer ahead p50 ms': r.bufferAhead.p50,
        'first picture after ms': r.firstDelayAfterMs,
      })),
    );
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
