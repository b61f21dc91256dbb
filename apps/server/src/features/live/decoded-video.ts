import { spawn } from 'node:child_process';
import type { PublishedVideoFormat } from '@vitrine/domain';
import type { PublishInputRun } from './publish-session.ts';

/**
 * The stretch of stream (its own timestamps) whose decoded frames give the frame rate: short,
 * as the packager waits for it (15 frames at 30 fps, 30 at 60 fps tell the rate well enough).
 */
const MEASURE_STREAM_SECONDS = 0.5;
/** At most this many frames are decoded (a frame rate beyond any budget shows well before). */
const MEASURE_MAX_FRAMES = 240;
/**
 * How long the measure waits for frames at most: WHIP's media starts after ICE and DTLS, and a
 * publisher silent this long is gone anyway (its session times out).
 */
const MEASURE_TIMEOUT_MS = 15_000;

/** One line of ffmpeg's showinfo filter: a decoded frame's timestamp and size. */
const SHOWINFO_FRAME = /\bn:\s*\d+\s+pts:\s*-?\d+\s+pts_time:(-?[0-9.e+-]+)\b.*?\bs:(\d+)x(\d+)\b/;

/**
 * What a publisher really sends, as ffmpeg decodes it: the size of its frames and their rate
 * over the first half second of stream, from the frames' own timestamps. The stream's metadata
 * (RTMP's onMetaData, which an encoder may leave out or get wrong) plays no part. Null when no
 * frame could be decoded in time.
 */
export async function measureDecodedVideo(options: {
  ffmpegPath: string;
  /** A run of the publisher's input, opened for the measure alone (it is closed afterwards). */
  input: PublishInputRun;
  timeoutMs?: number;
}): Promise<PublishedVideoFormat | null> {
  const { input } = options;
  const child = spawn(
    options.ffmpegPath,
    [
      ...['-hide_banner', '-nostats', '-loglevel', 'info'],
      // A quick start: the frames are what is measured, not ffmpeg's probe.
      ...['-probesize', '200000', '-analyzeduration', '500000'],
      ...input.args,
      // No checksum of every (4K) frame: `checksum=0` is ffmpeg 5's, which the server requires.
      ...['-map', '0:v:0', '-vf', 'showinfo=checksum=0'],
      ...['-frames:v', String(MEASURE_MAX_FRAMES), '-f', 'null', '-'],
    ],
    { stdio: [input.stdin ? 'pipe' : 'ignore', 'ignore', 'pipe'] },
  );
  child.stdin?.on('error', () => {
    // ffmpeg stopped reading (measured, or failed): the exit handler reports.
  });
  if (input.stdin) {
    input.stdin.on('error', () => child.stdin?.end());
    input.stdin.pipe(child.stdin as NodeJS.WritableStream);
  }
  const frames: { time: number; width: number; height: number }[] = [];
  let pending = '';
  return new Promise((resolve) => {
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      input.stdin?.unpipe(child.stdin as NodeJS.WritableStream);
      // The measure's feed is its own: left open, it would buffer the publisher's stream for nobody.
      input.stdin?.destroy();
      if (child.exitCode === null) child.kill('SIGKILL');
      resolve(formatOf(frames));
    };
    const timer = setTimeout(settle, options.timeoutMs ?? MEASURE_TIMEOUT_MS);
    child.stderr?.setEncoding('utf8').on('data', (text: string) => {
      const lines = (pending + text).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const match = SHOWINFO_FRAME.exec(line);
        if (!match) continue;
        frames.push({ time: Number(match[1]), width: Number(match[2]), height: Number(match[3]) });
        const first = frames[0]?.time ?? 0;
        const last = frames.at(-1)?.time ?? 0;
        if (last - first >= MEASURE_STREAM_SECONDS || frames.length >= MEASURE_MAX_FRAMES) return settle();
      }
    });
    child.once('exit', settle);
    child.once('error', settle);
  });
}

/**
 * The largest frame measured and the rate of the frames over their time span. A stream that
 * changes size midway is judged by its largest frame.
 */
function formatOf(frames: { time: number; width: number; height: number }[]): PublishedVideoFormat | null {
  if (frames.length === 0) return null;
  const largest = frames.reduce((big, frame) =>
    frame.width * frame.height > big.width * big.height ? frame : big,
  );
  const times = frames.map((frame) => frame.time).filter(Number.isFinite);
  const span = times.length > 1 ? Math.max(...times) - Math.min(...times) : 0;
  return {
    width: largest.width,
    height: largest.height,
    framesPerSecond: span > 0 ? (frames.length - 1) / span : null,
  };
}
