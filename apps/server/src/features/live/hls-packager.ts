import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import {
  type Fmp4TimingTrack,
  fmp4DecodeTime,
  fmp4PresentationStart,
  fmp4TimingTrack,
  LIVE_AUDIO_KBPS,
  type LiveProfile,
  type LiveRendition,
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

/** The prefix of a rendition's file names: none for the main one, `360p-` for a further one. */
export const renditionPrefix = (profile: LiveProfile, rendition: LiveRendition) =>
  rendition === profile.renditions[0] ? '' : `${rendition.name}-`;

/**
 * Scales into the rendition's box (its height by 16:9 of it, either way up), keeping the shape,
 * never up: 1920×1080 → 1280×720, 640×480 → 480×360 for 360p, 1080×1920 → 720×1280.
 */
function scaleFilter(rendition: LiveRendition): string {
  const short = rendition.height;
  const long = Math.round((short * 16) / 9 / 2) * 2;
  return [
    `scale=w='if(gt(iw,ih),min(${long},iw),min(${short},iw))'`,
    `h='if(gt(iw,ih),min(${short},ih),min(${long},ih))'`,
    'force_original_aspect_ratio=decrease',
    'force_divisible_by=2',
  ].join(':');
}

/** libx264 for live: keyframes on segment boundaries, fast enough for real time. */
function transcodeArgs(profile: LiveProfile, rendition: LiveRendition, bitrate: boolean): string[] {
  return [
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-tune',
    'zerolatency',
    '-pix_fmt',
    'yuv420p',
    '-vf',
    scaleFilter(rendition),
    '-fpsmax',
    String(rendition.maxFps),
    // A further rendition's bitrate is what its master playlist entry announces.
    ...(bitrate
      ? [
          '-b:v',
          `${rendition.videoKbps}k`,
          '-maxrate',
          `${rendition.videoKbps}k`,
          '-bufsize',
          `${rendition.videoKbps * 2}k`,
        ]
      : []),
    '-force_key_frames',
    `expr:gte(t,n_forced*${profile.segmentSeconds})`,
    '-sc_threshold',
    '0',
  ];
}

/**
 * The output arguments: fMP4 HLS of `profile.segmentSeconds` segments with program date times,
 * one output per rendition. In the main rendition H.264 is copied (a node carries several shows);
 * anything else is transcoded with libx264 veryfast to the rendition's size and frame rate, with
 * a keyframe each segment. Every further rendition is transcoded from the same decoded input.
 * Audio always becomes AAC. `target` is an upload place's URL (each file is PUT there) or a folder.
 */
export function packagerOutputArgs(
  videoCodec: PublishVideoCodec,
  target: string,
  run: number,
  profile: LiveProfile,
): string[] {
  const upload = /^https?:\/\//.test(target);
  const output = (name: string) => (upload ? `${target}${name}` : join(target, name));
  return profile.renditions.flatMap((rendition, index) => {
    const prefix = renditionPrefix(profile, rendition);
    const video =
      index === 0 && videoCodec === 'h264' ? ['-c:v', 'copy'] : transcodeArgs(profile, rendition, index > 0);
    return [
      '-map',
      '0:v:0?',
      '-map',
      '0:a:0?',
      ...video,
      '-c:a',
      'aac',
      '-b:a',
      `${LIVE_AUDIO_KBPS}k`,
      '-ar',
      '48000',
      '-ac',
      '2',
      '-f',
      'hls',
      '-hls_time',
      String(profile.segmentSeconds),
      '-hls_list_size',
      String(PACKAGER_PLAYLIST_SIZE),
      '-hls_segment_type',
      'fmp4',
      '-hls_flags',
      // A file ffmpeg writes in place is renamed into its name whole; a PUT is whole anyway.
      upload ? 'program_date_time+independent_segments' : 'program_date_time+independent_segments+temp_file',
      ...(upload ? ['-method', 'PUT'] : []),
      '-hls_fmp4_init_filename',
      `${prefix}r${run}-init.mp4`,
      '-hls_segment_filename',
      output(`${prefix}r${run}-%05d.m4s`),
      output(`${prefix}r${run}.m3u8`),
    ];
  });
}

/**
 * Starts one ffmpeg run packaging `input` into `recording`: ffmpeg PUTs each file to an upload
 * place of `receiver`, and each segment is recorded once the playlist ffmpeg PUTs after it lists
 * it (with its duration). The playlists viewers get are composed from the recording, so they run
 * on across runs.
 */
export function startPackagerRun(options: {
  ffmpegPath: string;
  /** The recording of each rendition of `profile`, in its order (the main one first). */
  recordings: readonly ShowRecording[];
  profile: LiveProfile;
  input: PublishInputRun;
  videoCodec: PublishVideoCodec;
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
  /** A segment was recorded, into the recording of the rendition `index` of the profile. */
  onSegment?: (segment: RecordedSegment, bytes: number, index: number) => void;
  /** The store refused a segment (a full disk?): it plays at the live edge but is not recorded. */
  onStoreError?: (uri: string, error: unknown) => void;
  onError?: (error: unknown) => void;
}): PackagerRun {
  const { input, profile } = options;
  // The main recording numbers the runs; every rendition's files of a run carry its number.
  const run = options.recordings[0]?.nextRun() ?? 1;
  /** Files ffmpeg handed over that no playlist listed yet, and who waits for which. */
  const received = new Map<string, Buffer>();
  const awaited = new Map<string, (bytes: Buffer) => void>();
  /** Each rendition's playlists are taken in order, apart from the others'. */
  const collectors = new Map(
    profile.renditions.map((rendition, index) => [
      `${renditionPrefix(profile, rendition)}r${run}.m3u8`,
      { collect: collector(index, renditionPrefix(profile, rendition)), collecting: Promise.resolve() },
    ]),
  );
  const place = options.receiver.open(options.label, (name, bytes) => {
    const playlist = collectors.get(name);
    if (playlist) {
      const text = bytes.toString('utf8');
      playlist.collecting = playlist.collecting
        .then(() => playlist.collect(text))
        .catch((error) => options.onError?.(error));
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
      ...packagerOutputArgs(options.videoCodec, place.baseUrl, run, profile),
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

  // Segments are recorded one at a time, in the order ffmpeg listed them, per rendition.
  function collector(index: number, prefix: string) {
    const recording = options.recordings[index];
    if (!recording) throw new Error(`no recording for rendition ${index}`);
    /** Whether the run follows an earlier one of the same recording (a discontinuity). */
    const continues = recording.segments().length > 0;
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
    return async (text: string) => {
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
        const initUri = entry.initUri ?? `${prefix}r${run}-init.mp4`;
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
            discontinuity: continues && seen === 0,
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
        options.onSegment?.(segment, bytes.length, index);
      }
      // Only what the next playlist may list again is remembered.
      const listed = new Set(entries.map((entry) => entry.uri));
      recorded = new Set([...recorded].filter((uri) => listed.has(uri)));
    };
  }

  const exited = new Promise<{ code: number | null; stopped: boolean; stderr: string }>((resolve) => {
    const finish = (code: number | null) => {
      input.stdin?.unpipe(child.stdin as NodeJS.WritableStream);
      // The run's feed is its own: left open, it would buffer the publisher's stream for nobody.
      input.stdin?.destroy();
      // The segments of the run's last moments: their PUTs may still be in our socket buffers.
      void place.settled(LAST_FILES_QUIET_MS).then(async () => {
        place.close();
        await Promise.all([...collectors.values()].map((playlist) => playlist.collecting));
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
