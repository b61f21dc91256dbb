import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  DISK_RESUME_RESERVES,
  diskOutlook,
  type LiveStreamState,
  nextLiveStreamState,
  type RecordedSegment,
  transcodeRefusal,
} from '@vitrine/domain';
import type { LiveStreamHealth, LiveStreamView } from '@vitrine/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import type { EventService } from '../events/event-service.ts';
import type { FfmpegDiscovery } from './ffmpeg-binary.ts';
import { type PackagerRun, startPackagerRun } from './hls-packager.ts';
import type { LiveRelay } from './live-relay.ts';
import { createLiveStore, type LiveStreamRecord } from './live-store.ts';
import type {
  PublishEndReason,
  PublishInput,
  PublishProtocol,
  PublishRequest,
  PublishResult,
  PublishSession,
} from './publish-session.ts';
import { freeDiskBytes } from './recording-disk.ts';
import {
  contentTypeOf,
  openShowRecording,
  REPLAY_PLAYLIST,
  type RecordingFile,
  type ShowRecording,
} from './show-recording.ts';

/** ffmpeg may crash this often in a minute and be restarted into the show; after that the publish ends. */
const PACKAGER_RESTARTS_PER_MINUTE = 3;
/** How often the recordings disk is looked at while a show is published. */
const DISK_CHECK_MS = 1000;
/** Segments whose sizes and durations give the incoming bitrate and keyframe interval. */
const HEALTH_SEGMENTS = 5;

/** The public paths of a show's playlists (a CDN in front caches them as docs/operations.md says). */
export const livePaths = (eventId: string) => ({
  live: `/live/${eventId}/live.m3u8`,
  replay: `/live/${eventId}/replay.m3u8`,
});

const PLAYLIST_NAMES = { live: 'live.m3u8', replay: REPLAY_PLAYLIST } as const;

interface Publisher {
  protocol: PublishProtocol;
  input: PublishInput;
  since: number;
  remoteAddress: string | undefined;
  session: PublishSession & { finish(reason: PublishEndReason): void };
  packager: PackagerRun | null;
  restarts: number[];
  /** Whether the packager writes to memory (the recordings disk is full): the recording pauses. */
  spilling: boolean;
  /** A packager run is being replaced (onto or off the disk). */
  switching: boolean;
  diskTimer: NodeJS.Timeout | null;
}

/** What this node holds of one show's stream. */
interface StreamRuntime {
  eventId: string;
  recording: ShowRecording;
  publisher: Publisher | null;
  graceTimer: NodeJS.Timeout | null;
  recent: { bytes: number; duration: number }[];
  /** Init segments already shared over the relay. */
  sharedInits: Set<string>;
  /** Transitions of one stream run one after another. */
  queue: Promise<unknown>;
  /** The last publish refused for what it sent (shown in the studio), until one is taken. */
  refusal: { message: string; at: number } | null;
  /**
   * What goes to the relay, in order: a segment's playlists shared late must not overwrite the
   * ended show's (the replay with ENDLIST), so once `sharedEnd` later ones keep theirs.
   */
  relayQueue: Promise<void>;
  sharedEnd: boolean;
}

export interface LiveServiceDeps {
  db: Database;
  events: EventService;
  now: () => number;
  log: FastifyBaseLogger;
  config: Config['live'];
  ffmpeg: FfmpegDiscovery;
  /** Signs the studio's preview links (the server's secret). */
  previewSecret: string;
  /** With several nodes (REDIS_URL): shares the live edge so any node serves any show. */
  relay?: LiveRelay | null;
}

/**
 * How long viewers' requests reuse a stream's stored state: thousands of viewers polling the
 * playlist each second cost one database read per show and interval.
 */
const VIEWER_STATE_CACHE_MS = 500;
/** How long End on a node that does not hold the show waits for the node that does. */
const REMOTE_END_WAIT_MS = 10_000;

/**
 * Live shows: stream keys, the publishers of every protocol (`beginPublish`), the packager (one
 * ffmpeg per show), the recording and its playlists, and the show's lifecycle — Go live and End
 * change the event (through the events feature) so viewers get the live video, then the replay.
 */
export function createLiveService(deps: LiveServiceDeps) {
  const { events, now, log, config, ffmpeg } = deps;
  const relay = deps.relay ?? null;
  const viewerState = new Map<string, { record: LiveStreamRecord | null; at: number }>();
  const stored = createLiveStore(deps.db);
  /** The store, with every change of a stream dropping what viewers' requests remembered of it. */
  const store: typeof stored = {
    ...stored,
    async transition(eventId, ...rest) {
      try {
        return await stored.transition(eventId, ...rest);
      } finally {
        viewerState.delete(eventId);
      }
    },
    async rotateKey(eventId, time) {
      try {
        await stored.rotateKey(eventId, time);
      } finally {
        viewerState.delete(eventId);
      }
    },
  };
  const runtimes = new Map<string, StreamRuntime>();
  const opening = new Map<string, Promise<StreamRuntime>>();
  const ingest: { rtmpPort: number | null; whipPath: string | null } = { rtmpPort: null, whipPath: null };
  let closed = false;

  /** The stream's state as viewers' requests see it: read at most every VIEWER_STATE_CACHE_MS. */
  async function viewerRecord(eventId: string): Promise<LiveStreamRecord | null> {
    const cached = viewerState.get(eventId);
    if (cached && now() - cached.at < VIEWER_STATE_CACHE_MS) return cached.record;
    const record = await store.byEvent(eventId);
    viewerState.set(eventId, { record, at: now() });
    // Unknown ids are not remembered beyond their interval (no growth from guessed ids).
    if (viewerState.size > 10_000) viewerState.clear();
    return record;
  }

  function runtimeOf(eventId: string): Promise<StreamRuntime> {
    const existing = runtimes.get(eventId);
    if (existing) return Promise.resolve(existing);
    let pending = opening.get(eventId);
    if (!pending) {
      pending = openShowRecording(join(config.dir, eventId)).then((recording) => {
        const runtime: StreamRuntime = {
          eventId,
          recording,
          publisher: null,
          graceTimer: null,
          recent: [],
          sharedInits: new Set(),
          queue: Promise.resolve(),
          refusal: null,
          relayQueue: Promise.resolve(),
          sharedEnd: false,
        };
        runtimes.set(eventId, runtime);
        opening.delete(eventId);
        return runtime;
      });
      opening.set(eventId, pending);
    }
    return pending;
  }

  /** Runs `task` after the stream's earlier transitions. */
  function serialized<T>(runtime: StreamRuntime, task: () => Promise<T>): Promise<T> {
    const result = runtime.queue.then(task);
    runtime.queue = result.catch(() => undefined);
    return result;
  }

  async function requireRecord(eventId: string): Promise<LiveStreamRecord> {
    const record = await store.byEvent(eventId);
    if (!record) throw notFound('This show has no stream yet.');
    return record;
  }

  /** Moves the stored state on by `event`; throws 409 with the reason when it does not apply. */
  async function transition(
    eventId: string,
    event: Parameters<typeof nextLiveStreamState>[1],
    times?: { liveStartTime?: number; liveEndTime?: number },
  ): Promise<{ from: LiveStreamState; to: LiveStreamState }> {
    const record = await requireRecord(eventId);
    const next = nextLiveStreamState(record.state, event);
    if (!next.ok)
      throw new HttpError(409, `live_${next.reason.replace(/-/g, '_')}`, refusalMessage(next.reason));
    if (next.state !== record.state && !(await store.transition(eventId, record.state, next.state, times))) {
      throw new HttpError(409, 'live_conflict', 'The stream changed meanwhile; try again.');
    }
    return { from: record.state, to: next.state };
  }

  /** The memory folder a publisher's packager writes to while the recordings disk is full. */
  const spillDirOf = (runtime: StreamRuntime) =>
    join(config.spillDir, `vitrine-live-${process.pid}-${runtime.eventId}`);

  function startPackager(runtime: StreamRuntime, publisher: Publisher): void {
    if (!ffmpeg.available) return;
    if (publisher.spilling) mkdirSync(spillDirOf(runtime), { recursive: true });
    const packager = startPackagerRun({
      ffmpegPath: ffmpeg.path,
      recording: runtime.recording,
      input: publisher.input.open(),
      videoCodec: publisher.input.videoCodec,
      continues: runtime.recording.segments().length > 0,
      ...(publisher.spilling ? { output: { dir: spillDirOf(runtime), onDisk: false as const } } : {}),
      onBrokenSegment: (uri) => {
        log.warn({ eventId: runtime.eventId, uri }, 'the packager could not finish a segment; not recorded');
        void watchDisk(runtime, publisher);
      },
      onSegment: (segment, bytes) => {
        runtime.recent = [...runtime.recent, { bytes, duration: segment.duration }].slice(-HEALTH_SEGMENTS);
        if (relay) {
          void share(runtime, segment).catch((error) =>
            log.error({ err: error, eventId: runtime.eventId }, 'sharing a live segment failed'),
          );
        }
      },
      onError: (error) =>
        log.error({ err: error, eventId: runtime.eventId }, 'recording a live segment failed'),
    });
    publisher.packager = packager;
    void packager.exited.then(async ({ code, stopped, stderr }) => {
      if (stopped || runtime.publisher !== publisher || closed) return;
      if (publisher.input.playedOut?.()) {
        log.info({ eventId: runtime.eventId }, 'live input played out; the show ends');
        void serialized(runtime, async () => {
          const record = await requireRecord(runtime.eventId);
          if (record.state === 'live' || record.state === 'reconnecting')
            await finishShow(runtime, record, 'end');
          else publisher.session.finish('publisher-gone');
        }).catch((error) => log.error({ err: error, eventId: runtime.eventId }, 'ending a live show failed'));
        return;
      }
      // A full disk is no crash: the next run writes to memory.
      if (!publisher.spilling && (await diskIsFull(runtime))) {
        if (runtime.publisher !== publisher || closed || publisher.packager !== packager) return;
        startSpilling(runtime, publisher);
        startPackager(runtime, publisher);
        return;
      }
      // ffmpeg died under a publisher still sending: restart it into the same recording.
      const time = now();
      publisher.restarts = [...publisher.restarts.filter((at) => at > time - 60_000), time];
      if (publisher.restarts.length > PACKAGER_RESTARTS_PER_MINUTE) {
        log.error(
          { eventId: runtime.eventId, code, stderr },
          'live packager keeps failing; the publish ends',
        );
        publisher.session.finish('packager-failed');
        return;
      }
      log.warn({ eventId: runtime.eventId, code, stderr }, 'live packager exited; restarting it');
      startPackager(runtime, publisher);
    });
  }

  const bitrateKbps = (runtime: StreamRuntime): number | null => {
    const seconds = runtime.recent.reduce((sum, segment) => sum + segment.duration, 0);
    const bytes = runtime.recent.reduce((sum, segment) => sum + segment.bytes, 0);
    return seconds > 0 ? Math.round((bytes * 8) / seconds / 1000) : null;
  };

  /** Whether the recordings disk has less free than the reserve a recording keeps in hand. */
  async function diskIsFull(runtime: StreamRuntime): Promise<boolean> {
    const free = await freeDiskBytes(config.dir);
    return free !== null && free < diskOutlook(free, bitrateKbps(runtime)).reserveBytes;
  }

  function startSpilling(runtime: StreamRuntime, publisher: Publisher) {
    publisher.spilling = true;
    log.error(
      { eventId: runtime.eventId, dir: config.dir, spillDir: spillDirOf(runtime) },
      'the recordings disk is full: the show goes on for viewers from memory, and its recording pauses until space is freed',
    );
  }

  /**
   * Looks at the recordings disk: below the reserve the packager is moved to memory (before a
   * write can fail half-way: what is recorded stays whole); with space again, back to the disk.
   */
  async function watchDisk(runtime: StreamRuntime, publisher: Publisher): Promise<void> {
    if (publisher.switching || runtime.publisher !== publisher || closed) return;
    publisher.switching = true;
    try {
      const free = await freeDiskBytes(config.dir);
      if (free === null) return;
      const { reserveBytes } = diskOutlook(free, bitrateKbps(runtime));
      const spill = !publisher.spilling && free < reserveBytes;
      const resume = publisher.spilling && free >= reserveBytes * DISK_RESUME_RESERVES;
      if (!spill && !resume) return;
      if (spill) startSpilling(runtime, publisher);
      else {
        publisher.spilling = false;
        log.info(
          { eventId: runtime.eventId, freeBytes: free },
          'space on the recordings disk again: the recording resumes',
        );
      }
      await publisher.packager?.stop();
      if (runtime.publisher === publisher && !closed) startPackager(runtime, publisher);
    } finally {
      publisher.switching = false;
    }
  }

  /** Stops a publisher's packaging: its disk watch, its packager, its memory folder. */
  async function stopPackaging(runtime: StreamRuntime, publisher: Publisher) {
    if (publisher.diskTimer) clearInterval(publisher.diskTimer);
    publisher.diskTimer = null;
    await publisher.packager?.stop();
    await rm(spillDirOf(runtime), { recursive: true, force: true }).catch(() => undefined);
  }

  /** Puts a new segment (and its init segment, once) and the playlists on the relay. */
  function share(runtime: StreamRuntime, segment: RecordedSegment): Promise<void> {
    const shared = runtime.relayQueue.then(() => shareNow(runtime, segment));
    runtime.relayQueue = shared.catch(() => undefined);
    return shared;
  }

  async function shareNow(runtime: StreamRuntime, segment: RecordedSegment) {
    if (!relay) return;
    const files: { name: string; bytes: Buffer; init?: boolean }[] = [];
    if (!runtime.sharedInits.has(segment.initUri)) {
      const init = await runtime.recording.file(segment.initUri);
      if (init) files.push({ name: segment.initUri, bytes: init.bytes, init: true });
      runtime.sharedInits.add(segment.initUri);
    }
    const media = await runtime.recording.file(segment.uri);
    if (media) files.push({ name: segment.uri, bytes: media.bytes });
    await relay.putSegment(runtime.eventId, files);
    if (runtime.sharedEnd) return;
    const record = await store.byEvent(runtime.eventId);
    await relay.putPlaylists(
      runtime.eventId,
      {
        live: runtime.recording.livePlaylist(false, record?.liveStartTime ?? null),
        ...(record?.liveStartTime ? { replay: runtime.recording.replayPlaylist(record.liveStartTime) } : {}),
      },
      false,
    );
  }

  /** Whether this node holds the show's recording (it ingested it). */
  const holdsRecording = (runtime: StreamRuntime | undefined): runtime is StreamRuntime =>
    runtime !== undefined && (runtime.publisher !== null || runtime.recording.segments().length > 0);

  async function publisherGone(runtime: StreamRuntime, publisher: Publisher, reason: PublishEndReason) {
    if (runtime.publisher !== publisher) return;
    runtime.publisher = null;
    await stopPackaging(runtime, publisher);
    if (reason === 'show-ended') return;
    const record = await store.byEvent(runtime.eventId);
    if (!record) return;
    const next = nextLiveStreamState(record.state, 'publisher-gone');
    if (!next.ok) return;
    await store.transition(runtime.eventId, record.state, next.state);
    log.info({ eventId: runtime.eventId, state: next.state, reason }, 'live publisher gone');
    if (next.state === 'reconnecting' && !heldShows.has(runtime.eventId)) waitForReconnect(runtime);
  }

  /** Shows that wait for their encoder without end (holdForEncoder): the demo's. */
  const heldShows = new Set<string>();

  function waitForReconnect(runtime: StreamRuntime) {
    if (runtime.graceTimer) clearTimeout(runtime.graceTimer);
    runtime.graceTimer = setTimeout(() => {
      runtime.graceTimer = null;
      void serialized(runtime, async () => {
        const record = await store.byEvent(runtime.eventId);
        if (record?.state !== 'reconnecting') return;
        log.info(
          { eventId: runtime.eventId },
          'live encoder did not come back within the grace; the show ends',
        );
        await finishShow(runtime, record, 'grace-expired');
      }).catch((error) => log.error({ err: error, eventId: runtime.eventId }, 'ending a live show failed'));
    }, config.reconnectGraceMs);
    runtime.graceTimer.unref();
  }

  /** Ends the show: the publisher stops, the replay is written, the event becomes vod. */
  async function finishShow(
    runtime: StreamRuntime,
    record: LiveStreamRecord,
    event: 'end' | 'grace-expired',
  ) {
    const endTime = now();
    const { to } = await transition(runtime.eventId, event, { liveEndTime: endTime });
    if (to !== 'ended') return;
    if (runtime.graceTimer) clearTimeout(runtime.graceTimer);
    runtime.graceTimer = null;
    const publisher = runtime.publisher;
    if (publisher) {
      publisher.session.finish('show-ended');
      await stopPackaging(runtime, publisher);
    }
    const liveStartTime = record.liveStartTime ?? endTime;
    const { firstFrame, notWritten } = await runtime.recording.finish(record.liveStartTime);
    if (notWritten) {
      log.error(
        { err: notWritten, eventId: runtime.eventId },
        'the replay playlist could not be written (is the recordings disk full?): it is served from memory until a restart',
      );
    }
    if (relay) {
      const replay = await runtime.recording.file(REPLAY_PLAYLIST);
      // After every segment shared before (their playlists are older).
      await runtime.relayQueue;
      runtime.sharedEnd = true;
      await relay
        .putPlaylists(
          runtime.eventId,
          {
            live: runtime.recording.livePlaylist(true, record.liveStartTime),
            ...(replay ? { replay: replay.bytes.toString('utf8') } : {}),
          },
          true,
        )
        .catch((error) => log.error({ err: error, eventId: runtime.eventId }, 'sharing the replay failed'));
    }
    await events.setStreamVideo(runtime.eventId, {
      currentStatus: 'vod',
      liveStartTime,
      liveEndTime: endTime,
      videoUrl: livePaths(runtime.eventId).replay,
      videoStartTime: firstFrame ?? liveStartTime,
    });
    log.info({ eventId: runtime.eventId, segments: runtime.recording.segments().length }, 'live show ended');
  }

  function refusal(
    reason: 'unknown-key' | 'already-publishing' | 'ended' | 'no-ffmpeg' | 'beyond-transcode-budget',
    request: PublishRequest,
    detail?: { eventId: string; message: string },
  ) {
    const messages = {
      'unknown-key': 'No show has this stream key.',
      'already-publishing': 'This show already has a publisher.',
      ended: 'This show has ended.',
      'no-ffmpeg': ffmpeg.available ? '' : ffmpeg.missing,
      'beyond-transcode-budget': detail?.message ?? '',
    };
    log.warn(
      {
        protocol: request.protocol,
        remoteAddress: request.remoteAddress,
        reason,
        ...(detail ? { eventId: detail.eventId } : {}),
      },
      `live publish refused: ${messages[reason]}`,
    );
    return { ok: false as const, reason, message: messages[reason] };
  }

  async function beginPublish(request: PublishRequest): Promise<PublishResult> {
    if (closed || !ffmpeg.available) return refusal('no-ffmpeg', request);
    const found = await store.byKey(request.streamKey);
    if (!found) return refusal('unknown-key', request);
    const runtime = await runtimeOf(found.eventId);
    return serialized(runtime, async (): Promise<PublishResult> => {
      const record = await store.byEvent(found.eventId);
      if (!record || record.streamKey !== request.streamKey) return refusal('unknown-key', request);
      if (runtime.publisher) return refusal('already-publishing', request);
      // Video to transcode beyond the node's budget would take every core: refused, with why.
      const beyond =
        request.input.videoCodec === 'h264'
          ? null
          : transcodeRefusal(request.input.videoFormat ?? null, config.transcodeBudget);
      if (beyond) {
        runtime.refusal = { message: beyond, at: now() };
        return refusal('beyond-transcode-budget', request, { eventId: record.eventId, message: beyond });
      }
      const next = nextLiveStreamState(record.state, 'publish');
      if (!next.ok) return refusal(next.reason === 'ended' ? 'ended' : 'already-publishing', request);
      if (!(await store.transition(record.eventId, record.state, next.state))) {
        return refusal('already-publishing', request);
      }
      if (runtime.graceTimer) clearTimeout(runtime.graceTimer);
      runtime.graceTimer = null;
      const listeners: ((reason: PublishEndReason) => void)[] = [];
      let over = false;
      const session = {
        eventId: record.eventId,
        end: () => session.finish('publisher-gone'),
        onEnded: (listener: (reason: PublishEndReason) => void) => void listeners.push(listener),
        finish(reason: PublishEndReason) {
          if (over) return;
          over = true;
          if (publisher.diskTimer) clearInterval(publisher.diskTimer);
          publisher.diskTimer = null;
          for (const listener of listeners) listener(reason);
          if (reason !== 'show-ended') {
            void serialized(runtime, () => publisherGone(runtime, publisher, reason)).catch((error) =>
              log.error({ err: error, eventId: record.eventId }, 'ending a live publish failed'),
            );
          } else {
            runtime.publisher = runtime.publisher === publisher ? null : runtime.publisher;
          }
        },
      };
      const publisher: Publisher = {
        protocol: request.protocol,
        input: request.input,
        since: now(),
        remoteAddress: request.remoteAddress,
        session,
        packager: null,
        restarts: [],
        spilling: await diskIsFull(runtime),
        switching: false,
        diskTimer: null,
      };
      runtime.publisher = publisher;
      runtime.recent = [];
      runtime.refusal = null;
      if (publisher.spilling) startSpilling(runtime, publisher);
      startPackager(runtime, publisher);
      publisher.diskTimer = setInterval(() => {
        void watchDisk(runtime, publisher).catch((error) =>
          log.error({ err: error, eventId: runtime.eventId }, 'watching the recordings disk failed'),
        );
      }, DISK_CHECK_MS);
      publisher.diskTimer.unref();
      log.info(
        {
          eventId: record.eventId,
          protocol: request.protocol,
          remoteAddress: request.remoteAddress,
          state: next.state,
        },
        'live publish started',
      );
      return { ok: true, session };
    });
  }

  async function requireShow(pageUid: string, eventId: string) {
    const event = await events.streamEvent(eventId);
    if (!event || event.pageUid !== pageUid) throw notFound('No such show in this store.');
    return event;
  }

  function previewToken(record: LiveStreamRecord): string {
    // Bound to the key: rotating the key also retires preview links.
    return createHmac('sha256', deps.previewSecret)
      .update(`preview:${record.eventId}:${record.streamKey}`)
      .digest('base64url')
      .slice(0, 32);
  }

  async function health(runtime: StreamRuntime | undefined): Promise<LiveStreamHealth | null> {
    const publisher = runtime?.publisher;
    if (!runtime || !publisher) return null;
    const stats = publisher.packager?.stats();
    const seconds = runtime.recent.reduce((sum, segment) => sum + segment.duration, 0);
    return {
      protocol: publisher.protocol,
      bitrateKbps: bitrateKbps(runtime),
      framesPerSecond: stats?.framesPerSecond ?? null,
      // ffmpeg cuts a segment at the first keyframe after each second: their length is the interval.
      keyframeIntervalSeconds:
        runtime.recent.length > 0 ? Math.round((seconds / runtime.recent.length) * 100) / 100 : null,
      droppedFrames: stats?.droppedFrames ?? 0,
      videoPassthrough: publisher.input.videoCodec === 'h264',
      since: publisher.since,
    };
  }

  /** The recordings disk for the studio: free space, minutes left at the incoming bitrate, warnings. */
  async function disk(runtime: StreamRuntime | undefined): Promise<LiveStreamView['disk']> {
    const full = runtime?.publisher?.spilling ?? false;
    const free = await freeDiskBytes(config.dir);
    if (free === null) return { freeBytes: null, minutesLeft: null, low: full, full };
    const outlook = diskOutlook(free, runtime ? bitrateKbps(runtime) : null);
    return { freeBytes: free, minutesLeft: outlook.minutesLeft, low: outlook.low || full, full };
  }

  async function view(record: LiveStreamRecord, origin: string): Promise<LiveStreamView> {
    const paths = livePaths(record.eventId);
    const host = new URL(origin).hostname;
    return {
      eventId: record.eventId,
      state: record.state,
      streamKey: record.streamKey,
      rtmpUrl: ingest.rtmpPort === null ? null : `rtmp://${host}:${ingest.rtmpPort}/live`,
      whipUrl: ingest.whipPath === null ? null : `${origin}${ingest.whipPath}`,
      liveUrl: paths.live,
      replayUrl: paths.replay,
      previewUrl: `${paths.live}?preview=${previewToken(record)}`,
      liveStartTime: record.liveStartTime,
      liveEndTime: record.liveEndTime,
      health: await health(runtimes.get(record.eventId)),
      packager: ffmpeg.available
        ? { available: true, ffmpeg: ffmpeg.path, missing: null }
        : { available: false, ffmpeg: null, missing: ffmpeg.missing },
      disk: await disk(runtimes.get(record.eventId)),
      refusal: runtimes.get(record.eventId)?.refusal ?? null,
    };
  }

  relay?.onCommand(({ eventId }) => {
    const runtime = runtimes.get(eventId);
    if (!holdsRecording(runtime)) return;
    void serialized(runtime, async () => {
      const record = await requireRecord(eventId);
      if (record.state === 'live' || record.state === 'reconnecting')
        await finishShow(runtime, record, 'end');
    }).catch((error) => log.error({ err: error, eventId }, 'ending a live show for another node failed'));
  });

  return {
    beginPublish,

    /**
     * Whether a publish with this key would be taken, before the protocol answers it (RTMP
     * answers the publish command before any media says which codec it carries).
     */
    async checkKey(streamKey: string): Promise<{ ok: true } | { ok: false; message: string }> {
      if (!ffmpeg.available) return { ok: false, message: ffmpeg.missing };
      const record = await store.byKey(streamKey);
      if (!record) return { ok: false, message: 'No show has this stream key.' };
      if (runtimes.get(record.eventId)?.publisher)
        return { ok: false, message: 'This show already has a publisher.' };
      const next = nextLiveStreamState(record.state, 'publish');
      return next.ok ? { ok: true } : { ok: false, message: refusalMessage(next.reason) };
    },

    /** The ports the ingests listen on (tests publish to them). */
    ingestPorts: () => ({ ...ingest }),

    /** Where publishers reach this node, as the ingests listen (the studio shows them). */
    offerIngest(offer: { rtmpPort?: number | null; whipPath?: string | null }) {
      if (offer.rtmpPort !== undefined) ingest.rtmpPort = offer.rtmpPort;
      if (offer.whipPath !== undefined) ingest.whipPath = offer.whipPath;
    },

    ffmpeg,

    /** The show's stream for the studio, made with a fresh key the first time. */
    async stream(pageUid: string, eventId: string, origin: string): Promise<LiveStreamView> {
      await requireShow(pageUid, eventId);
      return view(await store.ensure(eventId, pageUid, now()), origin);
    },

    async rotateKey(pageUid: string, eventId: string, origin: string): Promise<LiveStreamView> {
      await requireShow(pageUid, eventId);
      await store.ensure(eventId, pageUid, now());
      await store.rotateKey(eventId, now());
      log.info({ eventId }, 'stream key rotated');
      return view(await requireRecord(eventId), origin);
    },

    /**
     * `liveStartTime` is now, unless the show started at a set moment (a premiere goes live at
     * its scheduled time, so its stamps and the replay share that clock).
     */
    async goLive(
      pageUid: string,
      eventId: string,
      origin: string,
      options: { liveStartTime?: number } = {},
    ): Promise<LiveStreamView> {
      await requireShow(pageUid, eventId);
      await store.ensure(eventId, pageUid, now());
      const runtime = await runtimeOf(eventId);
      await serialized(runtime, async () => {
        const record = await requireRecord(eventId);
        if (record.state === 'live') return;
        const liveStartTime = options.liveStartTime ?? now();
        await transition(eventId, 'go-live', { liveStartTime });
        await events.setStreamVideo(eventId, {
          currentStatus: 'live',
          liveStartTime,
          liveEndTime: null,
          videoUrl: livePaths(eventId).live,
          videoStartTime: liveStartTime,
        });
        log.info({ eventId }, 'live show went live');
      });
      return view(await requireRecord(eventId), origin);
    },

    async endLive(pageUid: string, eventId: string, origin: string): Promise<LiveStreamView> {
      await requireShow(pageUid, eventId);
      await store.ensure(eventId, pageUid, now());
      if (relay && !holdsRecording(runtimes.get(eventId))) {
        // The show is ingested on another node: it ends it there (its recording is there).
        const before = await requireRecord(eventId);
        if (before.state === 'live' || before.state === 'reconnecting') {
          await relay.send({ eventId, command: 'end' });
          const deadline = Date.now() + REMOTE_END_WAIT_MS;
          while (Date.now() < deadline) {
            const record = await requireRecord(eventId);
            if (record.state === 'ended') return view(record, origin);
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          log.warn({ eventId }, 'no node answered End; ending the show here');
        }
      }
      const runtime = await runtimeOf(eventId);
      await serialized(runtime, async () => finishShow(runtime, await requireRecord(eventId), 'end'));
      return view(await requireRecord(eventId), origin);
    },

    /**
     * A playlist for viewers: the live window (only once live, or with the studio's preview
     * token), or the replay (growing while live, VOD once ended). Null when there is none here.
     */
    async playlist(eventId: string, name: 'live' | 'replay', preview: string | null): Promise<string | null> {
      const record = await viewerRecord(eventId);
      if (!record) return null;
      const previewing = preview !== null && safeEqual(preview, previewToken(record));
      if (name === 'live' && (record.state === 'idle' || (record.state === 'receiving' && !previewing)))
        return null;
      if (name === 'replay' && record.liveStartTime === null) return null;
      let runtime = runtimes.get(eventId);
      if (!runtime && record.state === 'ended') runtime = await runtimeOf(eventId);
      // The studio's preview names its segments with the token, which they need before Go live.
      const signed = (text: string | null) =>
        text !== null && previewing && preview
          ? text.replace(/^(r\d+-\d+\.m4s)$/gm, `$1?preview=${encodeURIComponent(preview)}`)
          : text;
      if (!holdsRecording(runtime)) {
        // Ingested on another node (or nowhere yet): its live edge comes over the relay.
        return relay ? signed(await relay.playlist(eventId, name)) : null;
      }
      if (name === 'live') {
        return signed(runtime.recording.livePlaylist(record.state === 'ended', record.liveStartTime));
      }
      if (record.state === 'ended') {
        let file = await runtime.recording.file(PLAYLIST_NAMES.replay);
        if (!file) {
          // Ended on a full disk, then restarted: the replay is composed again (and written when it fits).
          await runtime.recording.finish(record.liveStartTime);
          file = await runtime.recording.file(PLAYLIST_NAMES.replay);
        }
        return file ? file.bytes.toString('utf8') : null;
      }
      return runtime.recording.replayPlaylist(record.liveStartTime);
    },

    /**
     * A segment or init segment of a show's recording, or null. Segments from before Go live
     * (the studio's preview) need the preview token: viewers never see the show before it starts.
     */
    async file(eventId: string, name: string, preview: string | null = null): Promise<RecordingFile | null> {
      const record = await viewerRecord(eventId);
      if (!record) return null;
      const previewing = preview !== null && safeEqual(preview, previewToken(record));
      const runtime = runtimes.get(eventId) ?? (await runtimeOf(eventId));
      const segment = runtime.recording.segment(name);
      const beforeLive =
        record.liveStartTime === null ||
        (segment !== null && segment.programDateTime + segment.duration * 1000 <= record.liveStartTime);
      if (name.endsWith('.m4s') && beforeLive && !previewing) return null;
      const local = await runtime.recording.file(name);
      if (local || !relay) return local;
      const shared = await relay.file(eventId, name);
      return shared ? { bytes: shared, contentType: contentTypeOf(name) } : null;
    },

    /**
     * After a restart: a show left receiving forgets its preview; one left live waits for its
     * encoder as after a drop (and ends after the grace). Only on a single node: with several,
     * the stream may be ingested on another.
     */
    async recover(): Promise<void> {
      for (const record of await store.unfinished()) {
        const runtime = await runtimeOf(record.eventId);
        if (record.state === 'receiving') await store.transition(record.eventId, 'receiving', 'idle');
        if (record.state === 'live') await store.transition(record.eventId, 'live', 'reconnecting');
        if (record.state !== 'receiving') waitForReconnect(runtime);
      }
    },

    /**
     * Keeps a show live while its encoder is away, however long: the reconnect grace does not
     * end it. For the demo's show, whose encoder runs only while someone watches.
     */
    holdForEncoder(eventId: string): void {
      heldShows.add(eventId);
      const runtime = runtimes.get(eventId);
      if (runtime?.graceTimer) clearTimeout(runtime.graceTimer);
      if (runtime) runtime.graceTimer = null;
    },

    /**
     * Deletes all but the newest `keep` segments of a show's recording while no encoder feeds it
     * (the demo's, between viewers); answers how many went, 0 while one is publishing.
     */
    async dropOldestSegments(eventId: string, keep: number): Promise<number> {
      const runtime = await runtimeOf(eventId);
      return serialized(runtime, async () => (runtime.publisher ? 0 : runtime.recording.dropOldest(keep)));
    },

    /** Stops every packager (the server is closing); streams resume after a restart through `recover`. */
    async close(): Promise<void> {
      closed = true;
      await relay?.close();
      await Promise.all(
        [...runtimes.values()].map(async (runtime) => {
          if (runtime.graceTimer) clearTimeout(runtime.graceTimer);
          const publisher = runtime.publisher;
          runtime.publisher = null;
          publisher?.session.finish('show-ended');
          if (publisher) await stopPackaging(runtime, publisher);
        }),
      );
    },
  };
}

function safeEqual(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function refusalMessage(reason: string): string {
  switch (reason) {
    case 'no-publisher':
      return 'No stream is arriving: start the encoder (or the browser go-live) first.';
    case 'already-publishing':
      return 'This show already has a publisher.';
    case 'ended':
      return 'This show has ended.';
    default:
      return 'The show is not live.';
  }
}

export type LiveService = ReturnType<typeof createLiveService>;
