import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import {
  type Fmp4TimingTrack,
  fmp4DecodeTime,
  fmp4FragmentTiming,
  fmp4PresentationStart,
  fmp4TimingTrack,
  fmp4TrackDefaults,
  LIVE_AUDIO_KBPS,
  type LiveProfile,
  type LiveRendition,
  LL_FRAGMENT_MICROSECONDS,
  LL_PART_TARGET_SECONDS,
  type RecordedSegment,
  segmentProgramDateTime,
  startsNewSegment,
  takeFmp4Boxes,
} from '@vitrine/domain';
import type { ProcessRegistry } from './packager-processes.ts';
import type { PublishInputRun, PublishVideoCodec } from './publish-session.ts';
import { MAX_SEGMENT_BYTES, type SegmentReceiver } from './segment-receiver.ts';
import type { ShowRecording } from './show-recording.ts';

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
 * The output arguments: fragmented MP4 of ~200 ms fragments (LL_FRAGMENT_MICROSECONDS), a
 * keyframe each `profile.segmentSeconds`, one stream per rendition, which our packager cuts into
 * LL-HLS parts and segments (Debian's ffmpeg 5.1 writes no LL-HLS itself). In the main rendition
 * H.264 is copied (a node carries several shows); anything else is transcoded with libx264
 * veryfast to the rendition's size and frame rate. Every further rendition is transcoded from the
 * same decoded input. Audio always becomes AAC. `target` is an upload place's URL (the stream is
 * PUT there as it is written) or a folder.
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
      // Audio follows its timestamps smoothly: samples are stretched or squeezed (at most 1,000 a
      // second) instead of leaving the gaps and overlaps of a publisher whose audio timestamps
      // jitter, on which the viewers' browsers stalled every few seconds (bench/live latency.md).
      '-af',
      'aresample=async=1000',
      '-c:a',
      'aac',
      '-b:a',
      `${LIVE_AUDIO_KBPS}k`,
      '-ar',
      '48000',
      '-ac',
      '2',
      '-f',
      'mp4',
      '-movflags',
      '+frag_keyframe+empty_moov+delay_moov+default_base_moof',
      '-frag_duration',
      String(LL_FRAGMENT_MICROSECONDS),
      // Each fragment leaves ffmpeg as soon as it is written, not when a 32 KB buffer fills.
      '-flush_packets',
      '1',
      ...(upload ? ['-method', 'PUT'] : []),
      output(`${prefix}r${run}.mp4`),
    ];
  });
}

/**
 * Starts one ffmpeg run packaging `input` into `recording`: ffmpeg PUTs one fragmented MP4
 * stream per rendition to an upload place of `receiver`; each whole moof+mdat pair is published
 * at once as an LL-HLS part of the segment being written, and a segment (its parts together) is
 * recorded when the next keyframe part begins the next one. The playlists viewers get (regular
 * and LL) are composed from the recording, so they run on across runs.
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
  /** Each rendition's stream is cut apart from the others'. */
  const segmenters = new Map(
    profile.renditions.map((rendition, index) => [
      `${renditionPrefix(profile, rendition)}r${run}.mp4`,
      segmenter(index, renditionPrefix(profile, rendition)),
    ]),
  );
  const place = options.receiver.open(
    options.label,
    () => {
      // Nothing but the streams is written by this run.
    },
    (name, chunk) => {
      const cutter = segmenters.get(name);
      if (!cutter) return;
      try {
        if (chunk) cutter.feed(chunk);
        else cutter.end();
      } catch (error) {
        options.onError?.(error);
      }
    },
  );
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

  /**
   * Cuts one rendition's stream: its init segment (ftyp+moov), then each moof+mdat pair is a
   * part, published the moment it is whole; a keyframe part past the segment length begins the
   * next segment, and the finished one (its parts together) is recorded, one at a time in order.
   */
  function segmenter(index: number, prefix: string) {
    const recording = options.recordings[index];
    if (!recording) throw new Error(`no recording for rendition ${index}`);
    /** Whether the run follows an earlier one of the same recording (a discontinuity). */
    const continues = recording.segments().length > 0 || recording.liveEdgeBusy();
    const initUri = `${prefix}r${run}-init.mp4`;
    let seen = 0;
    let pending: Buffer = Buffer.alloc(0);
    let ftyp: Uint8Array | null = null;
    let moof: Uint8Array | null = null;
    let initBytes: Buffer | null = null;
    let timingTrack: Fmp4TimingTrack | null = null;
    let defaults = { duration: 0, flags: 0 };
    /** Whether segments go into the store: until the first one it refuses. */
    let storing = options.stored;
    let recordingQueue: Promise<void> = Promise.resolve();
    let finished = false;
    let previousEnd: number | null = null;
    /** The segment being written: its fragments and seconds so far. */
    let current: { uri: string; fragments: Buffer[]; seconds: number; programDateTime: number } | null = null;
    /** A fragment shorter than a part may be: held until the next tells whether it ends its segment. */
    let held: { bytes: Buffer; seconds: number; independent: boolean } | null = null;
    // Program date times come from the ingest clock: the run's first output frame stands where
    // the init segment's edit list puts it on the input timeline (ffmpeg may drop frames before it
    // while it probes), at the moment that arrived; later segments at their decode time after it.
    let runAnchor: { wallClock: number; decodeTime: number } | null = null;
    const ingestProgramDateTime = (bytes: Buffer): number | null => {
      if (!initBytes || !input.wallClockAt || !timingTrack) return null;
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

    const closeSegment = () => {
      if (!current) return;
      const closing = current;
      current = null;
      const bytes = Buffer.concat(closing.fragments);
      const discontinuity = continues && seen === 0;
      seen += 1;
      recording.closeLiveSegment(closing.uri, closing.seconds, bytes);
      const init = initBytes;
      recordingQueue = recordingQueue
        .then(async () => {
          const { segment, storeError } = await recording.add(
            {
              uri: closing.uri,
              initUri,
              duration: closing.seconds,
              programDateTime: closing.programDateTime,
              discontinuity,
            },
            bytes,
            init,
            { stored: storing },
          );
          if (storeError) {
            // The rest of the run stays in memory too: the replay has no hole without a discontinuity
            // (the run that stores again after it begins with one).
            storing = false;
            options.onStoreError?.(closing.uri, storeError);
          }
          options.onSegment?.(segment, bytes.length, index);
        })
        .catch((error) => options.onError?.(error));
    };

    const publish = (bytes: Buffer, seconds: number, independent: boolean) => {
      if (current && startsNewSegment({ independent }, current.seconds, profile.segmentSeconds))
        closeSegment();
      if (!current) {
        const programDateTime = ingestProgramDateTime(bytes) ?? previousEnd ?? Date.now();
        current = {
          uri: `${prefix}r${run}-${String(seen).padStart(5, '0')}.m4s`,
          fragments: [],
          seconds: 0,
          programDateTime,
        };
        recording.openLiveSegment(
          { uri: current.uri, initUri, programDateTime, discontinuity: continues && seen === 0 },
          initBytes,
        );
      }
      current.fragments.push(bytes);
      current.seconds += seconds;
      previousEnd = current.programDateTime + current.seconds * 1000;
      recording.addLivePart(bytes, { duration: seconds, independent });
    };

    const fragment = (bytes: Buffer) => {
      if (!timingTrack) throw new Error('the packager wrote a fragment before its init segment');
      const timing = fmp4FragmentTiming(bytes, timingTrack.trackId, defaults);
      if (!timing) return;
      let seconds = timing.duration / timingTrack.timescale;
      let independent = timing.independent;
      if (held) {
        const soFar = (current?.seconds ?? 0) + held.seconds;
        if (startsNewSegment(timing, soFar, profile.segmentSeconds) || !current) {
          publish(held.bytes, held.seconds, held.independent);
        } else {
          // Glued to the short one before it: one part, that no player takes for a segment's last.
          bytes = Buffer.concat([held.bytes, bytes]);
          seconds += held.seconds;
          independent = held.independent;
        }
        held = null;
      }
      if (seconds < LL_PART_TARGET_SECONDS * 0.85 && current && !independent) {
        held = { bytes, seconds, independent };
        return;
      }
      publish(bytes, seconds, independent);
    };

    /** The stream ended (or failed): the last segment is closed and nothing stays open. */
    const finish = () => {
      if (finished) return;
      finished = true;
      if (held) publish(held.bytes, held.seconds, held.independent);
      held = null;
      closeSegment();
      recording.endLiveRun();
    };

    return {
      feed(chunk: Buffer) {
        if (finished) return;
        pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
        const { boxes, used } = takeFmp4Boxes(pending);
        for (const box of boxes) {
          if (box.type === 'ftyp') ftyp = Buffer.from(box.bytes);
          else if (box.type === 'moov') {
            initBytes = Buffer.concat([ftyp ?? Buffer.alloc(0), box.bytes]);
            timingTrack = fmp4TimingTrack(initBytes);
            if (timingTrack) defaults = fmp4TrackDefaults(initBytes, timingTrack.trackId);
          } else if (box.type === 'moof') moof = Buffer.from(box.bytes);
          else if (box.type === 'mdat' && moof) {
            const whole = Buffer.concat([moof, box.bytes]);
            moof = null;
            fragment(whole);
          }
        }
        pending = Buffer.from(pending.subarray(used));
        // A box that claims more than any fragment holds is never waited for: the run fails.
        if (pending.length > MAX_SEGMENT_BYTES) {
          pending = Buffer.alloc(0);
          finish();
          throw new Error(
            `the packager stream of ${initUri} has a box larger than ${MAX_SEGMENT_BYTES} bytes`,
          );
        }
      },
      end: finish,
      recorded: () => recordingQueue,
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
        for (const cutter of segmenters.values()) cutter.end();
        await Promise.all([...segmenters.values()].map((cutter) => cutter.recorded()));
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
