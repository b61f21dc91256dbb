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

/** A decoded frame of a segment: its presentation time after the segment's first frame, and its burnt-in moment. */
export interface StampedFrame {
  /** Milliseconds after the segment's first frame, from the frame's own timestamp. */
  afterFirstMs: number;
  /** The wall-clock moment (epoch ms) burnt into the picture. */
  madeMs: number;
}

/**
 * Every frame of an fMP4 segment (init + media bytes), decoded with ffmpeg at the publisher's
 * frame size, each with its burnt-in moment and its time in the segment; empty when none decodes.
 * Every frame, not only the first: a transcoding packager holds a constant frame rate, so while a
 * publisher stalls it repeats the last picture, and a segment may begin on such a repeat, a picture
 * made before the moment that frame stands for.
 */
export async function readClockStamps(
  init: Buffer,
  segment: Buffer,
  baseMs: number,
  size: { width: number; height: number },
): Promise<StampedFrame[]> {
  const child = spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'info', '-f', 'mp4', '-i', 'pipe:0', '-fps_mode', 'passthrough'],
      ...[
        '-vf',
        `scale=${size.width}:${size.height},crop=${STAMP_WIDTH}:${BLOCK_HEIGHT}:0:0,format=gray,showinfo`,
      ],
      ...['-f', 'rawvideo', 'pipe:1'],
    ],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const chunks: Buffer[] = [];
  let log = '';
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  child.stdin.on('error', () => {});
  child.stdin.end(Buffer.concat([init, segment]));
  await new Promise((resolve) => child.once('exit', resolve));
  const gray = Buffer.concat(chunks);
  // showinfo logs each frame it passes, in order, with its presentation time in seconds.
  const times = [...log.matchAll(/Parsed_showinfo.*? pts_time:\s*(-?[\d.]+)/g)].map((match) =>
    Number(match[1]),
  );
  const frameBytes = STAMP_WIDTH * BLOCK_HEIGHT;
  const frames: StampedFrame[] = [];
  for (let index = 0; (index + 1) * frameBytes <= gray.length && index < times.length; index += 1) {
    frames.push({
      afterFirstMs: Math.round(((times[index] ?? 0) - (times[0] ?? 0)) * 1000),
      madeMs: baseMs + stampOf(gray.subarray(index * frameBytes, (index + 1) * frameBytes)),
    });
  }
  return frames;
}

/** The stamp painted into one frame's strip (STAMP_WIDTH × BLOCK_HEIGHT gray pixels). */
function stampOf(strip: Buffer): number {
  const row = Math.floor(BLOCK_HEIGHT / 2) * STAMP_WIDTH;
  let stamp = 0;
  for (let bit = 0; bit < STAMP_BITS; bit += 1) {
    const x = bit * BLOCK_WIDTH + Math.floor(BLOCK_WIDTH / 2);
    if ((strip[row + x] ?? 0) > 128) stamp += 2 ** bit;
  }
  return stamp;
}
