import { type ChildProcess, spawn } from 'node:child_process';

/**
 * A clock burnt into the picture, to check the stream's program date times against the moment
 * each frame was made, without trusting any timestamp on the way: the encoder paints the wall
 * clock (ms since `base`) as a row of black and white blocks, one bit each, into the top-left
 * corner of every frame; the check decodes a segment's first frame with ffmpeg and reads them.
 */

/** Bits of the stamp (ms since the base): 2^24 ms is 4.6 hours. */
const STAMP_BITS = 24;
/** Each bit is a block this wide and tall, large enough to survive a lossy encode. */
const BLOCK_WIDTH = 12;
const BLOCK_HEIGHT = 16;
export const STAMP_WIDTH = STAMP_BITS * BLOCK_WIDTH;

/** Paints `stampMs` into the luma plane of an I420 frame `width` wide (the WHIP publisher's frames). */
export function paintClockStamp(luma: Uint8Array, width: number, stampMs: number): void {
  for (let bit = 0; bit < STAMP_BITS; bit += 1) {
    const value = Math.floor(stampMs / 2 ** bit) % 2 === 1 ? 235 : 16;
    for (let y = 0; y < BLOCK_HEIGHT; y += 1) {
      luma.fill(value, y * width + bit * BLOCK_WIDTH, y * width + (bit + 1) * BLOCK_WIDTH);
    }
  }
}

/**
 * The ffmpeg filter graph of a clock-stamped synthetic source (inputs: 0 video, 1 audio; outputs
 * [v] and [a]): every video frame and audio block is timestamped with the wall clock when it
 * passed the filter (ms since `baseMs`; after `-re` pacing, so when it was made), which keeps
 * audio and video in step on one clock, and `geq` paints each frame's timestamp into its
 * top-left corner.
 */
export function clockStampFilter(baseMs: number): string {
  const madeMs = `(RTCTIME-${baseMs * 1000})/1000`;
  const bit = `floor(X/${BLOCK_WIDTH})`;
  const painted = `if(mod(floor((T*1000+0.5)/pow(2,${bit})),2),235,16)`;
  return [
    `[0:v]settb=1/1000,setpts=floor(${madeMs}),format=yuv420p,split[main][strip]`,
    `[strip]crop=${STAMP_WIDTH}:${BLOCK_HEIGHT}:0:0,geq=lum='${painted}':cb=128:cr=128[stamp]`,
    '[main][stamp]overlay=0:0[v]',
    `[1:a]asetpts=floor(${madeMs}/1000/TB)[a]`,
  ].join(';');
}

/**
 * ffmpeg's synthetic source published over RTMP with the wall clock burnt in (clockStampFilter):
 * H.264 with a keyframe every second, AAC tone.
 */
export function publishClockStampedStream(
  url: string,
  baseMs: number,
  size = '320x240',
): ChildProcess & { stopped: Promise<number | null> } {
  const filter = clockStampFilter(baseMs);
  const child = spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-re'],
      ...['-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=25`],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'],
      ...['-filter_complex', filter, '-map', '[v]', '-map', '[a]'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-pix_fmt', 'yuv420p'],
      ...['-g', '25', '-keyint_min', '25', '-sc_threshold', '0', '-b:v', '1000k'],
      ...['-c:a', 'aac', '-f', 'flv', url],
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errors = (errors + chunk.toString()).slice(-2000);
  });
  const stopped = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      if (code && errors) console.warn(`clock-stamped encoder: ${errors}`);
      resolve(code);
    }),
  );
  return Object.assign(child, { stopped });
}

/**
 * The wall-clock moment (epoch ms) burnt into the first frame of an fMP4 segment (init + media
 * bytes), decoded with ffmpeg at the publisher's frame size; null when no frame decodes.
 */
export async function readClockStamp(
  init: Buffer,
  segment: Buffer,
  baseMs: number,
  size: { width: number; height: number },
): Promise<number | null> {
  const child = spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-f', 'mp4', '-i', 'pipe:0', '-frames:v', '1'],
      ...['-vf', `scale=${size.width}:${size.height},crop=${STAMP_WIDTH}:${BLOCK_HEIGHT}:0:0,format=gray`],
      ...['-f', 'rawvideo', 'pipe:1'],
    ],
    { stdio: ['pipe', 'pipe', 'ignore'] },
  );
  const chunks: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  child.stdin.on('error', () => {});
  child.stdin.end(Buffer.concat([init, segment]));
  await new Promise((resolve) => child.once('exit', resolve));
  const gray = Buffer.concat(chunks);
  if (gray.length < STAMP_WIDTH * BLOCK_HEIGHT) return null;
  const row = Math.floor(BLOCK_HEIGHT / 2) * STAMP_WIDTH;
  let stamp = 0;
  for (let bit = 0; bit < STAMP_BITS; bit += 1) {
    const x = bit * BLOCK_WIDTH + Math.floor(BLOCK_WIDTH / 2);
    if ((gray[row + x] ?? 0) > 128) stamp += 2 ** bit;
  }
  return baseMs + stamp;
}
