import type { ChildProcess } from 'node:child_process';
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
import type { ProcessRegistry } from './packager-processes.ts';
import type { PublishInputRun, PublishVideoCodec } from './publish-session.ts';
import { isWholeFragment } from './recording-disk.ts';
import type { SegmentReceiver } from './segment-receiver.ts';
import type { ShowRecording } from './show-recording.ts';

/**
 * The segments ffmpeg lists in each playlist it hands over: every playlist is taken in order, so
 * a few suffice, and the text stays small however long the show runs.
 */
const PACKAGER_PLAYLIST_SIZE = 10;
/** How long a segment the playlist lists may take to arrive after it (its PUT runs beside the playlist's). */
const SEGMENT_ARRIVAL_MS = 5000;
/** After ffmpeg exited, how long no new file must begin before its run is over. */
const LAST_FILES_QUIET_MS = 150;
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
 * with a keyframe each second. Audio always becomes AAC. `target` is an upload place's URL
 * (each file is PUT there) or a folder.
 */
export function packagerOutputArgs(videoCodec: PublishVideoCodec, target: string, run: number): string[] {
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
  const upload = /^https?:\/\//.test(target);
  const output = (name: string) => (upload ? `${target}${name}` : join(target, name));
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
    String(PACKAGER_PLAYLIST_SIZE),
    '-hls_segment_type',
    'fmp4',
    '-hls_flags',
    // A file ffmpeg writes in place is renamed into its name whole; a PUT is whole anyway.
    upload ? 'program_date_time+independent_segments' : 'program_date_time+independent_segments+temp_file',
    ...(upload ? ['-method', 'PUT'] : []),
    '-hls_fmp4_init_filename',
    `r${run}-init.mp4`,
    '-hls_segment_filename',
    output(`r${run}-%05d.m4s`),
    output(`r${run}.m3u8`),
  ];
}

/**
 * Starts one ffmpeg run packaging `input` into `recording`: ffmpeg PUTs each file to an upload
 * place of `receiver`, and each segment is recorded once the playlist ffmpeg PUTs after it lists
 * it (with its duration). The playlists viewers get are composed from the recording, so they run
 * on across runs.
 */
export function startPackagerRun(options: {
  ffmpegPath: string;
  recording: ShowRecording;
  input: PublishInputRun;
  videoCodec: PublishVideoCodec;
  /** Whether the run follows an earlier one of the same recording (a discontinuity). */
  continues: boolean;
  /** Where ffmpeg hands its files over. */
  receiver: SegmentReceiver;
  /** Starts ffmpeg so that it dies with this process, and records it for reaping. */
  processes: ProcessRegistry;
  /** The show's id: it names the upload place (ffmpeg's command line tells whose run it is). */
  label: string;
  /**
   * Whether segments go into the store (the replay); false while the recordings disk is full:
   * they are kept in memory only, at the live edge.
   */
  stored: boolean;
  onSegment?: (segment: RecordedSegment, bytes: number) => void;
  /** The store refused a segment (a full disk?): it plays at the live edge but is not recorded. */
  onStoreError?: (uri: string, error: unknown) => void;
  onError?: (error: unknown) => void;
}): PackagerRun {
  const { recording, input } = options;
  const run = recording.nextRun();
  const playlistName = `r${run}.m3u8`;
  /** Files ffmpeg handed over that no playlist listed yet, and who waits for which. */
  const received = new Map<string, Buffer>();
  const awaited = new Map<string, (bytes: Buffer) => void>();
  let collecting: Promise<void> = Promise.resolve();
  const place = options.receiver.open(options.label, (name, bytes) => {
    if (name === playlistName) {
      const text = bytes.toString('utf8');
      collecting = collecting.then(() => collect(text)).catch((error) => options.onError?.(error));
      return;
    }
    received.set(name, bytes);
    awaited.get(name)?.(bytes);
  });
  /** The file once it arrived; null when it does not come in time (ffmpeg died writing it). */
  const arrival = (name: string): Promise<Buffer | null> => {
    const bytes = received.get(name);
    if (bytes) return Promise.resolve(bytes);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        awaited.delete(name);
        resolve(null);
      }, SEGMENT_ARRIVAL_MS);
      awaited.set(name, (arrived) => {
        clearTimeout(timer);
        awaited.delete(name);
        resolve(arrived);
      });
    });
  };
  const child: ChildProcess = options.processes.spawn(
    options.ffmpegPath,
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-nostats',
      '-progress',
      'pipe:1',
      ...input.args,
      ...packagerOutputArgs(options.videoCodec, place.baseUrl, run),
    ],
    // The upload place is this run's alone: it tells the run apart from any other process.
    { marker: place.baseUrl, stdio: ['pipe', 'pipe', 'pipe'] },
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
  /** The listed segments already recorded (or given up), of the last playlist. */
  let recorded = new Set<string>();
  /** Whether segments go into the store: until the first one it refuses. */
  let storing = options.stored;
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
  const collect = async (text: string) => {
    const entries = parseMediaPlaylist(text);
    for (const entry of entries) {
      if (recorded.has(entry.uri)) continue;
      recorded.add(entry.uri);
      const bytes = await arrival(entry.uri);
      received.delete(entry.uri);
      if (!bytes || !isWholeFragment(bytes)) {
        options.onError?.(new Error(`the packager listed ${entry.uri} but did not hand it over whole`));
        continue;
      }
      const initUri = entry.initUri ?? `r${run}-init.mp4`;
      const init = initBytes ? null : await arrival(initUri);
      if (init) initBytes = init;
      const programDateTime =
        ingestProgramDateTime(bytes) ?? entry.programDateTime ?? previousEnd ?? Date.now();
      const { segment, storeError } = await recording.add(
        {
          uri: entry.uri,
          initUri,
          duration: entry.duration,
          programDateTime,
          discontinuity: options.continues && seen === 0,
        },
        bytes,
        init,
        { stored: storing },
      );
      if (storeError) {
        // The rest of the run stays in memory too: the replay has no hole without a discontinuity
        // (the run that stores again after it begins with one).
        storing = false;
        options.onStoreError?.(entry.uri, storeError);
      }
      previousEnd = programDateTime + entry.duration * 1000;
      seen += 1;
      options.onSegment?.(segment, bytes.length);
    }
    // Only what the next playlist may list again is remembered.
    const listed = new Set(entries.map((entry) => entry.uri));
    recorded = new Set([...recorded].filter((uri) => listed.has(uri)));
  };

  const exited = new Promise<{ code: number | null; stopped: boolean; stderr: string }>((resolve) => {
    const finish = (code: number | null) => {
      input.stdin?.unpipe(child.stdin as NodeJS.WritableStream);
      // The run's feed is its own: left open, it would buffer the publisher's stream for nobody.
      input.stdin?.destroy();
      // The segments of the run's last moments: their PUTs may still be in our socket buffers.
      void place.settled(LAST_FILES_QUIET_MS).then(async () => {
        place.close();
        await collecting;
        resolve({ code, stopped, stderr });
      });
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
