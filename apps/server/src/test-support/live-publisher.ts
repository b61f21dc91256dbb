import { type ChildProcess, spawn } from 'node:child_process';

/**
 * The tests' H.264 encoding: the fastest preset, a keyframe every 25 frames (each second at
 * 25 fps) and 4:2:0 pixels, which every player decodes.
 */
export const TEST_H264_ENCODING = [
  '-c:v',
  'libx264',
  '-preset',
  'ultrafast',
  '-g',
  '25',
  '-pix_fmt',
  'yuv420p',
];

/**
 * A real encoder for live tests: ffmpeg's synthetic picture (a counter) and tone, H.264 with a
 * keyframe every second, published in real time over RTMP, as OBS would.
 */
export function publishTestStream(
  url: string,
  options: { videoCodec?: 'h264' | 'flv1'; seconds?: number; size?: `${number}x${number}` } = {},
): ChildProcess & { stopped: Promise<number | null> } {
  const video =
    options.videoCodec === 'flv1'
      ? ['-c:v', 'flv1', '-g', '25']
      : [...TEST_H264_ENCODING, '-tune', 'zerolatency'];
  const child = spawn(
    'ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-nostdin',
      '-re',
      '-f',
      'lavfi',
      '-i',
      `testsrc=size=${options.size ?? '320x240'}:rate=25${options.seconds ? `:duration=${options.seconds}` : ''}`,
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:sample_rate=48000',
      '-shortest',
      ...video,
      '-c:a',
      'aac',
      '-f',
      'flv',
      url,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const stopped = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return Object.assign(child, { stopped });
}

/**
 * Polls `probe` until it answers something truthy; fails after `timeoutMs` with `what` (or, a
 * function, what it names then: what the probe saw meanwhile). The default is a bound for a
 * condition that never comes, generous for a busy machine (an encoder's first segment took over
 * 15 s at load 30); a test whose claim is a time passes its own.
 */
export async function waitFor<T>(
  what: string | (() => string),
  probe: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  timeoutMs = 120_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
