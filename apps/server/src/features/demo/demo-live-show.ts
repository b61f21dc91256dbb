import { type ChildProcess, spawn } from 'node:child_process';
import { parseMediaPlaylist } from '@vitrine/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { EventService } from '../events/event-service.ts';
import type { LiveService } from '../live/live-service.ts';
import {
  cuesKeptBesideScript,
  DEMO_LEAD_KEYFRAMES_EXPRESSION,
  firstSegmentVideoOffsetMs,
  loopAt,
  type ScriptedAppearance,
  scriptedCues,
} from './demo-cue-script.ts';
import { DEMO_LIVE_EVENT_ID, DEMO_SHOW_SCRIPT, DEMO_VIDEO_MS } from './seed-demo.ts';

/** A crashed demo encoder is started again after this long. */
const ENCODER_RESTART_MS = 2000;
/** How long the demo waits for its stream to arrive before it gives up on going live. */
const RECEIVE_TIMEOUT_MS = 30_000;
/** How often the script looks for the encoder's first segment, and whether the next loop needs its cues. */
const SCRIPT_CHECK_MS = 500;

/**
 * The demo costs nothing when nobody watches (issue 28 item 7): its encoder runs for a while
 * after the start, then only while the show has viewers, stopping once it had none for
 * `idleStopMs`; before each start the recording keeps only its newest `keptSegments`.
 */
export interface DemoEncoderTimings {
  /** How long the encoder runs after the start whether watched or not (a newcomer's first look). */
  startGraceMs: number;
  /** How long without a viewer before the encoder stops. */
  idleStopMs: number;
  /** How often the viewers are counted. */
  checkMs: number;
  /** Segments of the recording kept when the encoder starts again (one a second: 10 minutes). */
  keptSegments: number;
}
export const DEMO_ENCODER_TIMINGS: DemoEncoderTimings = {
  startGraceMs: 2 * 60_000,
  idleStopMs: 60_000,
  checkMs: 1000,
  keptSegments: 600,
};

export interface DemoLiveShow {
  /**
   * The stream-clock time (ms) at which the current encoder's first loop of the video began (its
   * first segment's program date time, less where in the video that segment begins); null until
   * that segment is packaged.
   */
  loopAnchor(): number | null;
  /** Resolves once the script has cued the products for the loops up to `loop` (for tests). */
  scriptedThrough(loop: number): Promise<void>;
  /** Whether the encoder runs now (it rests while nobody watches). */
  encoderRunning(): boolean;
  stop(): Promise<void>;
}

/**
 * Makes the demo's live show a true live stream: an ffmpeg encoder loops the demo video in real
 * time (H.264, a keyframe every second) into our own RTMP ingest, as OBS would, and the show goes
 * live on it. Its products follow the loop: each time the video comes round, the script cues them
 * on the stream clock where the video shows them (the MP4's cues only fit its first minute). Null
 * (the show keeps its MP4) without ffmpeg, without RTMP, or once the show ended.
 */
export async function feedDemoLiveShow(options: {
  live: LiveService;
  events: Pick<EventService, 'publishedEventProducts' | 'upsertEventProduct'>;
  log: FastifyBaseLogger;
  pageUid: string;
  video: string;
  /**
   * The clock, the server's: the stream clock it places cues on is the packager's wall clock, so
   * only a real one makes a live feed (tests of the feed pass Date.now too).
   */
  now: () => number;
  /** Length of one loop of `video` (ms) and where it shows which product; the demo video's by default. */
  loopMs?: number;
  script?: readonly ScriptedAppearance[];
  /**
   * How many watch the show now (presence): with it, the encoder runs only while someone does
   * (see DemoEncoderTimings); without it, always.
   */
  viewers?: () => Promise<number>;
  timings?: Partial<DemoEncoderTimings>;
}): Promise<DemoLiveShow | null> {
  const { live, log, pageUid, now } = options;
  const loopMs = options.loopMs ?? DEMO_VIDEO_MS;
  const script = options.script ?? DEMO_SHOW_SCRIPT;
  const { rtmpPort } = live.ingestPorts();
  if (!live.ffmpeg.available || rtmpPort === null) {
    log.info('the demo live show plays its MP4 (no ffmpeg or no RTMP ingest)');
    return null;
  }
  const stream = await live.stream(pageUid, DEMO_LIVE_EVENT_ID, 'http://localhost');
  if (stream.state === 'ended') return null;
  const ffmpegPath = live.ffmpeg.path;
  const preview = new URL(stream.previewUrl, 'http://localhost').searchParams.get('preview');
  let encoder: ChildProcess | null = null;
  let stopping = false;
  /** The encoder was stopped for want of viewers: its exit is no crash to recover from. */
  let resting = false;
  /** When the running encoder was started: its first segment is the first one stamped after it. */
  let encoderStartedAt = now();
  let anchor: number | null = null;
  let scripted = -1;
  const scriptWaiters: { loop: number; resolve: () => void }[] = [];

  const startEncoder = () => {
    encoderStartedAt = now();
    anchor = null;
    scripted = -1;
    encoder = spawn(
      ffmpegPath,
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-nostdin',
        '-re',
        '-stream_loop',
        '-1',
        '-i',
        options.video,
        '-c:v',
        'libx264',
        '-preset',
        'veryfast',
        '-tune',
        'zerolatency',
        // A keyframe each second (one-second segments, what every publisher is asked for), after
        // a lead of 3 s and 2 s intervals: the first segment's length then tells where in the
        // video the stream begins, which anchors the loops on the stream clock.
        '-force_key_frames',
        DEMO_LEAD_KEYFRAMES_EXPRESSION,
        '-g',
        '250',
        '-sc_threshold',
        '0',
        '-b:v',
        '1200k',
        '-c:a',
        'copy',
        '-f',
        'flv',
        `rtmp://127.0.0.1:${rtmpPort}/live/${stream.streamKey}`,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let errors = '';
    encoder.stderr?.setEncoding('utf8').on('data', (text: string) => {
      errors = (errors + text).slice(-2000);
    });
    encoder.once('exit', (code) => {
      encoder = null;
      if (stopping || resting) return;
      log.warn({ code, errors }, 'the demo encoder stopped; starting it again');
      setTimeout(() => !stopping && !resting && startEncoder(), ENCODER_RESTART_MS).unref();
    });
  };
  const timings = { ...DEMO_ENCODER_TIMINGS, ...options.timings };
  const countViewers = options.viewers;
  if (countViewers) {
    // While the encoder rests the show waits for it, live, instead of ending after the grace.
    live.holdForEncoder(DEMO_LIVE_EVENT_ID);
    await live.dropOldestSegments(DEMO_LIVE_EVENT_ID, timings.keptSegments);
  }
  startEncoder();

  const startedAt = now();
  let lastWatchedAt = startedAt;
  let watching = false;
  /** Starts the resting encoder when someone watches; rests it after idleStopMs without anyone. */
  const followViewers = async () => {
    if (watching || stopping || !countViewers) return;
    watching = true;
    try {
      const viewers = await countViewers();
      const at = now();
      if (viewers > 0) lastWatchedAt = at;
      if (viewers > 0 && resting && !encoder) {
        const dropped = await live.dropOldestSegments(DEMO_LIVE_EVENT_ID, timings.keptSegments);
        if (stopping) return;
        resting = false;
        startEncoder();
        log.info({ viewers, droppedSegments: dropped }, 'a viewer came: the demo encoder runs again');
      } else if (
        !resting &&
        encoder &&
        at - startedAt >= timings.startGraceMs &&
        at - lastWatchedAt >= timings.idleStopMs
      ) {
        resting = true;
        (encoder as ChildProcess).kill('SIGTERM');
        log.info('nobody watches the demo show: its encoder rests until a viewer comes');
      }
    } finally {
      watching = false;
    }
  };
  const viewerTimer = setInterval(
    () => void followViewers().catch((error) => log.warn({ err: error }, 'counting the demo viewers failed')),
    timings.checkMs,
  );
  viewerTimer.unref();

  /**
   * The program date time of the running encoder's first segment, once packaged: the first one
   * stamped after the encoder started — provided the live window still holds it (a segment of
   * an earlier run before it, or the recording's very first segment).
   */
  const findAnchor = async (): Promise<number | null> => {
    const playlist = await live.playlist(DEMO_LIVE_EVENT_ID, 'live', preview);
    if (!playlist) return null;
    const entries = parseMediaPlaylist(playlist);
    const index = entries.findIndex(
      (entry) => entry.programDateTime !== null && entry.programDateTime >= encoderStartedAt,
    );
    const windowStart = Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(playlist)?.[1] ?? Number.NaN);
    const first = entries[index];
    if (!first || (index === 0 && windowStart !== 0)) return null;
    const offset = firstSegmentVideoOffsetMs(first.duration);
    if (offset === null) {
      // The stream began after the lead keyframes: the script may be off by whole seconds.
      log.warn({ duration: first.duration }, 'the demo stream began after its lead keyframes');
    }
    return first.programDateTime === null ? null : first.programDateTime - (offset ?? 5000);
  };

  /** Cues every scripted product for the loops up to `through` on the stream clock. */
  const cueLoops = async (loopAnchor: number, through: number, liveStartTime: number) => {
    const products = await options.events.publishedEventProducts(DEMO_LIVE_EVENT_ID);
    for (const appearance of script) {
      const product = products.find((candidate) => candidate.uid === appearance.productUid);
      if (!product) continue; // taken off the show by its host
      await options.events.upsertEventProduct(DEMO_LIVE_EVENT_ID, product.uid, {
        productUid: product.productUid,
        // The MP4's offsets would place the products on the stream's first minute only.
        relativeCues: [],
        absoluteCues: product.absoluteCues,
        cues: [
          ...cuesKeptBesideScript(product.cues, liveStartTime),
          ...scriptedCues(product.cues, appearance, loopAnchor, loopMs, through),
        ],
        presentationTime: product.presentationTime,
        presentationEndTime: product.presentationEndTime,
        sorting: product.sorting,
        studioControlled: product.studioControlled,
        showAllProductsWhenEventStarts: product.showAllProductsWhenEventStarts,
      });
    }
  };

  // The script: once the encoder's first segment shows where its loops begin, the products are
  // cued one loop ahead of the stream clock, so delayed viewers have them before they get there.
  let checking = false;
  const followLoops = async () => {
    if (checking || stopping) return;
    checking = true;
    try {
      anchor ??= await findAnchor();
      if (anchor === null) return;
      const state = await live.stream(pageUid, DEMO_LIVE_EVENT_ID, 'http://localhost');
      if (state.state !== 'live' || state.liveStartTime === null) return;
      const through = loopAt(anchor, loopMs, now()) + 1;
      if (through <= scripted) return;
      await cueLoops(anchor, through, state.liveStartTime);
      scripted = through;
      for (const waiter of scriptWaiters.splice(0)) {
        if (waiter.loop <= scripted) waiter.resolve();
        else scriptWaiters.push(waiter);
      }
    } finally {
      checking = false;
    }
  };
  const scriptTimer = setInterval(
    () => void followLoops().catch((error) => log.warn({ err: error }, 'cueing the demo loop failed')),
    SCRIPT_CHECK_MS,
  );
  scriptTimer.unref();

  // Go live once the stream arrives and its first segment is packaged (the script's anchor: a
  // segment from before Go live leaves the viewers' playlists). A show left live by the last run
  // resumes by itself.
  void (async () => {
    const deadline = now() + RECEIVE_TIMEOUT_MS;
    while (!stopping && now() < deadline) {
      const { state } = await live.stream(pageUid, DEMO_LIVE_EVENT_ID, 'http://localhost');
      if (state === 'live') return;
      if (state === 'receiving' && anchor !== null) {
        await live.goLive(pageUid, DEMO_LIVE_EVENT_ID, 'http://localhost');
        log.info('the demo live show is live from its encoder');
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    if (!stopping) log.warn('the demo stream did not arrive; the demo live show keeps its MP4');
  })().catch((error) => log.error({ err: error }, 'making the demo show live failed'));

  return {
    loopAnchor: () => anchor,
    scriptedThrough: (loop) =>
      loop <= scripted ? Promise.resolve() : new Promise((resolve) => scriptWaiters.push({ loop, resolve })),
    encoderRunning: () => encoder !== null,
    async stop() {
      stopping = true;
      clearInterval(scriptTimer);
      clearInterval(viewerTimer);
      const running = encoder as ChildProcess | null;
      if (!running) return;
      await new Promise<void>((resolve) => {
        running.once('exit', () => resolve());
        running.kill('SIGTERM');
        setTimeout(() => running.kill('SIGKILL'), 3000).unref();
      });
    },
  };
}
