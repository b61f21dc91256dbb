import { type ChildProcess, spawn } from 'node:child_process';
import { type FSWatcher, watch } from 'node:fs';
import { readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type Fmp4TimingTrack,
  fmp4DecodeTime,
  fmp4PresentationStart,
  fmp4TimingTrack,
  LIVE_SEGMENT_SECONDS,
  parseMediaPlaylist,
  type RecordedSegment,
  segmentProgramDateTime,
} from '@vitrine/domain';
import type { PublishInputRun, PublishVideoCodec } from './publish-session.ts';
import { isWholeFragment } from './recording-disk.ts';
import type { ShowRecording } from './show-recording.ts';

/** How often the packager's playlist is read besides the file-system notices (which may miss some). */
const PLAYLIST_POLL_MS = 250;
/** How long ffmpeg gets to finish its last segment after its input ended, before SIGINT and SIGKILL. */
const STOP_GRACE_MS = 4000;

/** The figures ffmpeg's `-progress` reports, for the studio's stream health. */
export interface PackagerStats {
  framesPerSecond: number | null;
  droppedFrames: number;
}

export interface PackagerRun {
  readonly run: number;
  readonly passthrough: boolean;
  stats(): PackagerStats;
  /** Ends the run gracefully (the last segment is written and recorded); resolves once ffmpeg exited. */
  stop(): Promise<void>;
  /** Resolves when ffmpeg exits, with whether it was asked to (a crash otherwise). */
  readonly exited: Promise<{ code: number | null; stopped: boolean; stderr: string }>;
}

/**
 * The output arguments: 1-second fMP4 HLS with program date times. H.264 is copied (a node
 * carries several shows); anything else is transcoded with libx264 veryfast, at most 720p30,
 * with a keyframe each second. Audio always becomes AAC.
 */
export function packagerOutputArgs(videoCodec: PublishVideoCodec, dir: string, run: number): string[] {
  const video =
    videoCodec === 'h264'
      ? ['-c:v', 'copy']
      : [
          '-c:v',
          'libx264',
          '-preset',
          'veryfast',
          '-tune',
          'zerolatency',
          '-pix_fmt',
          'yuv420p',
          '-vf',
          "scale='if(gt(iw,ih),min(1280,iw),-2)':'if(gt(iw,ih),-2,min(1280,ih))'",
          '-fpsmax',
          '30',
          '-force_key_frames',
          `expr:gte(t,n_forced*${LIVE_SEGMENT_SECONDS})`,
          '-sc_threshold',
          '0',
        ];
  return [
    '-map',
    '0:v:0?',
    '-map',
    '0:a:0?',
    ...video,
    '-c:a',
    'aac',
    '-b:a',
    '128k',
    '-ar',
    '48000',
    '-ac',
    '2',
    '-f',
    'hls',
    '-hls_time',
    String(LIVE_SEGMENT_SECONDS),
    '-hls_list_size',
    '0',
    '-hls_segment_type',
    'fmp4',
    '-hls_flags',
    'program_date_time+independent_segments+temp_file',
    '-hls_fmp4_init_filename',
    `r${run}-init.mp4`,
    '-hls_segment_filename',
    join(dir, `r${run}-%05d.m4s`),
    join(dir, `r${run}.m3u8`),
  ];
}

/**
 * Starts one ffmpeg run packaging `input` into `recording`, and records each segment as ffmpeg
 * finishes it (read back from the playlist ffmpeg writes; the playlists viewers get are composed
 * from the recording, so they run on across runs).
 */
export function startPackagerRun(options: {
  ffmpegPath: string;
  recording: ShowRecording;
  input: PublishInputRun;
  videoCodec: PublishVideoCodec;
  /** Whether the run follows an earlier one of the same recording (a discontinuity). */
  continues: boolean;
  /**
   * Where ffmpeg writes: the recording's folder, or (`onDisk: false`, the recordings disk is
   * full) a memory folder whose segments are deleted once read and kept only at the live edge.
   */
  output?: { dir: string; onDisk: false };
  onSegment?: (segment: RecordedSegment, bytes: number) => void;
  /** ffmpeg listed a segment it could not finish writing (a full disk): it is not recorded. */
  onBrokenSegment?: (uri: string) => void;
  onError?: (error: unknown) => void;
}): PackagerRun {
  const { recording, input } = options;
  const run = recording.nextRun();
  const dir = options.output?.dir ?? recording.dir;
  const playlist = join(dir, `r${run}.m3u8`);
  const child: ChildProcess = spawn(
    options.ffmpegPath,
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-nostats',
      '-progress',
      'pipe:1',
      ...input.args,
      ...packagerOutputArgs(options.videoCodec, dir, run),
    ],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stopped = false;
  let stderr = '';
  const stats: PackagerStats = { framesPerSecond: null, droppedFrames: 0 };

  child.stdin?.on('error', () => {
    // ffmpeg closed its input (it exited): the exit handler reports it.
  });
  if (input.stdin) {
    input.stdin.on('error', () => child.stdin?.end());
    input.stdin.pipe(child.stdin as NodeJS.WritableStream);
  }
  child.stdout?.setEncoding('utf8').on('data', (text: string) => {
    for (const line of text.split('\n')) {
      const [key, value] = line.split('=');
      if (key === 'fps' && value) stats.framesPerSecond = Number.parseFloat(value) || null;
      if (key === 'drop_frames' && value) stats.droppedFrames = Number.parseInt(value, 10) || 0;
    }
  });
  child.stderr?.setEncoding('utf8').on('data', (text: string) => {
    // The last few kilobytes say why a run failed.
    stderr = (stderr + text).slice(-4000);
  });

  // Segments are recorded one at a time, in the order ffmpeg listed them.
  let seen = 0;
  let initBytes: Buffer | null = null;
  let previousEnd: number | null = null;
  // Program date times come from the ingest clock: the run's first output frame stands where
  // the init segment's edit list puts it on the input timeline (ffmpeg may drop frames before it
  // while it probes), at the moment that arrived; later segments at their decode time after it.
  // ffmpeg's own PDT (its wall clock when it writes) runs late by its probing and buffering, so
  // it is only the fallback.
  let timingTrack: Fmp4TimingTrack | null = null;
  let runAnchor: { wallClock: number; decodeTime: number } | null = null;
  const ingestProgramDateTime = (bytes: Buffer): number | null => {
    if (!initBytes || !input.wallClockAt) return null;
    timingTrack ??= fmp4TimingTrack(initBytes);
    if (!timingTrack) return null;
    const decodeTime = fmp4DecodeTime(bytes, timingTrack.trackId);
    if (decodeTime === null) return null;
    if (!runAnchor) {
      const firstFrame = fmp4PresentationStart(initBytes, timingTrack.trackId) ?? 0;
      const wallClock = input.wallClockAt(firstFrame + decodeTime / timingTrack.timescale);
      if (wallClock === null) return null;
      runAnchor = { wallClock, decodeTime };
    }
    return segmentProgramDateTime(
      runAnchor.wallClock,
      runAnchor.decodeTime,
      decodeTime,
      timingTrack.timescale,
    );
  };
  let collecting: Promise<void> = Promise.resolve();
  const collect = () => {
    collecting = collecting.then(async () => {
      const text = await readFile(playlist, 'utf8').catch(() => null);
      if (text === null) return;
      const entries = parseMediaPlaylist(text);
      for (const entry of entries.slice(seen)) {
        const bytes = await readFile(join(dir, entry.uri)).catch(() => null);
        if (!bytes) return;
        if (!isWholeFragment(bytes)) {
          options.onBrokenSegment?.(entry.uri);
          return;
        }
        const initUri = entry.initUri ?? `r${run}-init.mp4`;
        const init = initBytes ? null : await readFile(join(dir, initUri)).catch(() => null);
        if (init) initBytes = init;
        const programDateTime =
          ingestProgramDateTime(bytes) ?? entry.programDateTime ?? previousEnd ?? Date.now();
        const segment = await recording.add(
          {
            uri: entry.uri,
            initUri,
            duration: entry.duration,
            programDateTime,
            discontinuity: options.continues && seen === 0,
          },
          bytes,
          init,
          { onDisk: options.output?.onDisk ?? true },
        );
        if (options.output) await unlink(join(dir, entry.uri)).catch(() => undefined);
        previousEnd = programDateTime + entry.duration * 1000;
        seen += 1;
        options.onSegment?.(segment, bytes.length);
      }
    });
    collecting = collecting.catch((error) => options.onError?.(error));
    return collecting;
  };
  let watcher: FSWatcher | null = null;
  try {
    watcher = watch(recording.dir, (_event, name) => {
      if (name === `r${run}.m3u8`) void collect();
    });
    watcher.on('error', () => watcher?.close());
  } catch {
    // Polling alone then.
  }
  const poll = setInterval(() => void collect(), PLAYLIST_POLL_MS);

  const exited = new Promise<{ code: number | null; stopped: boolean; stderr: string }>((resolve) => {
    const finish = (code: number | null) => {
      clearInterval(poll);
      watcher?.close();
      input.stdin?.unpipe(child.stdin as NodeJS.WritableStream);
      // The run's feed is its own: left open, it would buffer the publisher's stream for nobody.
      input.stdin?.destroy();
      // The segments of the run's last moments.
      void collect().then(() => resolve({ code, stopped, stderr }));
    };
    child.once('exit', (code) => finish(code));
    child.once('error', (error) => {
      stderr += String(error);
      finish(null);
    });
  });

  return {
    run,
    passthrough: options.videoCodec === 'h264',
    stats: () => ({ ...stats }),
    async stop() {
      if (!stopped) {
        stopped = true;
        if (input.stdin) {
          // The end of its input makes ffmpeg close its last segment and exit.
          input.stdin.unpipe(child.stdin as NodeJS.WritableStream);
          child.stdin?.end();
        } else {
          child.stdin?.end('q');
        }
        const interrupt = setTimeout(() => child.kill('SIGINT'), STOP_GRACE_MS);
        const kill = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS * 2);
        void exited.finally(() => {
          clearTimeout(interrupt);
          clearTimeout(kill);
        });
      }
      await exited;
    },
    exited,
  };
}
