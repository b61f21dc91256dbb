import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page, Route } from 'playwright-core';

/** A live HLS stream that ffmpeg writes from its synthetic test source into a temporary folder. */
export interface SyntheticHls {
  dir: string;
  /** The media playlist's file name in `dir`. */
  playlist: string;
  /** When ffmpeg was started (ms): its first frame is about then, frame t about t seconds later (`-re`). */
  startedAt: number;
  /** Stops ffmpeg (it closes the playlist with EXT-X-ENDLIST) and waits for it to exit. */
  stop(): Promise<void>;
  /** Stops ffmpeg if needed and removes the folder. */
  remove(): Promise<void>;
}

export interface SyntheticHlsOptions {
  /** Segment length in seconds (the live pipeline's is 1). */
  segmentSeconds?: number;
  /** Segments kept in the live playlist (ffmpeg's default is 5). */
  listSize?: number;
  /** Keep every segment and the whole list (a recording for a replay), instead of a sliding window. */
  keepAll?: boolean;
  /** fMP4 (the live pipeline's) or MPEG-TS (ffmpeg's default). */
  segmentType?: 'fmp4' | 'mpegts';
  /** Frame size; small by default so the shared test machine keeps up in real time. */
  size?: string;
}

/**
 * Starts ffmpeg encoding `testsrc2` and a sine tone in real time (`-re`) to fMP4 HLS with
 * EXT-X-PROGRAM-DATE-TIME, the shape the live pipeline serves: H.264 with a keyframe every second,
 * AAC audio. Small frames and the fastest preset, so the shared test machine keeps up in real time.
 */
export function startSyntheticHls(options: SyntheticHlsOptions = {}): SyntheticHls {
  const dir = mkdtempSync(join(tmpdir(), 'vitrine-hls-'));
  const segmentSeconds = options.segmentSeconds ?? 1;
  const playlist = 'index.m3u8';
  // A recording keeps every segment in an EVENT playlist (ENDLIST when ffmpeg stops); a live stream slides.
  const list = options.keepAll
    ? [
        '-hls_list_size',
        '0',
        '-hls_playlist_type',
        'event',
        '-hls_flags',
        'program_date_time+independent_segments',
      ]
    : [
        '-hls_list_size',
        String(options.listSize ?? 6),
        '-hls_flags',
        'program_date_time+delete_segments+independent_segments',
      ];
  const args = [
    ['-hide_banner', '-loglevel', 'error', '-nostdin', '-re'],
    ['-f', 'lavfi', '-i', `testsrc2=size=${options.size ?? '360x640'}:rate=30`],
    ['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'],
    ['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-pix_fmt', 'yuv420p'],
    ['-g', '30', '-keyint_min', '30', '-sc_threshold', '0', '-b:v', '800k'],
    ['-c:a', 'aac', '-b:a', '96k'],
    ['-f', 'hls', '-hls_time', String(segmentSeconds), '-hls_segment_type', options.segmentType ?? 'fmp4'],
    list,
    [join(dir, playlist)],
  ].flat();
  const startedAt = Date.now();
  const ffmpeg: ChildProcess = spawn('ffmpeg', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  ffmpeg.stderr?.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => ffmpeg.once('exit', () => resolve()));
  const stop = async () => {
    if (ffmpeg.exitCode === null && ffmpeg.signalCode === null) ffmpeg.kill('SIGINT');
    await exited;
    if (errors) console.warn(`ffmpeg: ${errors.slice(-500)}`);
  };
  return {
    dir,
    playlist,
    startedAt,
    stop,
    async remove() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The segments a playlist lists and its program date times (ms), in order. */
export function readPlaylist(path: string): { segments: string[]; dates: number[]; ended: boolean } {
  if (!existsSync(path)) return { segments: [], dates: [], ended: false };
  const lines = readFileSync(path, 'utf8').split('\n');
  return {
    segments: lines.filter((line) => line.length > 0 && !line.startsWith('#')),
    dates: lines
      .filter((line) => line.startsWith('#EXT-X-PROGRAM-DATE-TIME:'))
      .map((line) => Date.parse(line.slice('#EXT-X-PROGRAM-DATE-TIME:'.length))),
    ended: lines.includes('#EXT-X-ENDLIST'),
  };
}

/** Resolves once the playlist lists at least `count` segments; fails after `timeoutMs`, generous for a busy machine. */
export async function waitForSegments(
  stream: SyntheticHls,
  count: number,
  timeoutMs = 120_000,
): Promise<void> {
  const path = join(stream.dir, stream.playlist);
  const deadline = Date.now() + timeoutMs;
  while (readPlaylist(path).segments.length < count) {
    if (Date.now() > deadline) throw new Error(`no ${count} HLS segments in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Whether the stream's requests fail (a network outage between viewer and server). */
export interface HlsRouteControl {
  failing: boolean;
  /** Requests answered 503 while failing. */
  failed: number;
  /** Requests answered from the folder. */
  served: number;
}

const CONTENT_TYPES: Record<string, string> = {
  m3u8: 'application/vnd.apple.mpegurl',
  m4s: 'video/iso.segment',
  mp4: 'video/mp4',
  ts: 'video/mp2t',
};

/**
 * Serves `dir` to `page` at `urlPrefix` (a path on the app's own origin, so its Content Security
 * Policy allows the requests) the way the live pipeline does: playlists `no-cache`, segments
 * immutable. `control.failing` turns every answer into a 503 until it is cleared.
 */
export async function serveHls(page: Page, urlPrefix: string, dir: string): Promise<HlsRouteControl> {
  const control: HlsRouteControl = { failing: false, failed: 0, served: 0 };
  await page.route(`${urlPrefix}**`, async (route: Route) => {
    const name = new URL(route.request().url()).pathname.split('/').pop() ?? '';
    if (control.failing) {
      control.failed += 1;
      await route.fulfill({ status: 503, body: 'unavailable' });
      return;
    }
    const path = join(dir, name);
    if (!/^[\w.-]+$/.test(name) || !existsSync(path)) {
      await route.fulfill({ status: 404, body: 'not found' });
      return;
    }
    control.served += 1;
    const extension = name.split('.').pop() ?? '';
    await route.fulfill({
      status: 200,
      body: readFileSync(path),
      headers: {
        'content-type': CONTENT_TYPES[extension] ?? 'application/octet-stream',
        'cache-control': extension === 'm3u8' ? 'no-cache' : 'public, max-age=31536000, immutable',
      },
    });
  });
  return control;
}
