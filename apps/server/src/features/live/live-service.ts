import { createHmac, timingSafeEqual } from 'node:crypto';
import { type LiveStreamState, nextLiveStreamState, transcodeRefusal } from '@vitrine/domain';
import {
  type LiveStreamView,
  livePlaylistPaths,
  type MediaAuthorizeRequest,
  type MediaCheckKeyAnswer,
  type MediaPublishAnswer,
} from '@vitrine/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import type { EventService } from '../events/event-service.ts';
import type { FfmpegDiscovery } from './ffmpeg-binary.ts';
import type { LiveRelay } from './live-relay.ts';
import { createLiveStore, type LiveStreamRecord } from './live-store.ts';
import type { MediaController, MediaEngine } from './media-engine.ts';
import type { PublishEndReason, PublishRefusalReason, PublishRequest } from './publish-session.ts';
import { createBoundedCache, createByteCache } from './read-cache.ts';
import type { SegmentStore } from './segment-store.ts';
import {
  contentTypeOf,
  MASTER_PLAYLISTS,
  REPLAY_PLAYLIST,
  type RecordingFile,
  renditionOf,
} from './show-recording.ts';

/** The public paths of a show's playlists (a CDN in front caches them as docs/operations.md says). */
export const livePaths = livePlaylistPaths;

/** A playlist viewers ask for: a rendition's (null: the main one's) live or replay, or a master playlist. */
export type LivePlaylistName = 'live' | 'replay' | 'master' | 'replay-master';

/** The server_secrets row of the key that signs preview links. */
export const LIVE_PREVIEW_SECRET = 'live_preview_key';

export interface LiveServiceDeps {
  db: Database;
  events: EventService;
  now: () => number;
  log: FastifyBaseLogger;
  config: Config['live'];
  ffmpeg: FfmpegDiscovery;
  /**
   * The key that signs the studio's preview links: a secret of its own (server_secrets), not
   * the admin key, so rotating the automation key does not break the previews (issue 33 §7).
   */
  previewSecret: () => Promise<Buffer>;
  /**
   * Where recordings go (segments, init segments, replay playlists): a folder, or a bucket every
   * node reads, so that any node serves any show's segments and replay.
   */
  segments: SegmentStore;
  /** With several nodes (REDIS_URL): shares the live playlists so any node serves any show. */
  relay?: LiveRelay | null;
  /** Told when a show ended and its replay is in the store (clips are cut from it). */
  onShowEnded?: (eventId: string) => void;
  /**
   * The media engine, made with this service as its controller: in this process
   * (`createLocalMediaEngine`) or the media worker's (`connectMediaWorker`).
   */
  media: (controller: MediaController) => MediaEngine;
}

/**
 * How long viewers' requests reuse a stream's stored state: thousands of viewers polling the
 * playlist each second cost one database read per show and interval.
 */
const VIEWER_STATE_CACHE_MS = 500;
/** Streams whose state viewers' requests remember at once. */
const VIEWER_STATES_MAX = 10_000;
/** What a node keeps of the files it read from the store for shows it does not hold. */
const STORE_READ_CACHE_BYTES = 64 * 1024 ** 2;
/** How long End on a node that does not hold the show waits for the node that does. */
const REMOTE_END_WAIT_MS = 10_000;

/**
 * Live shows: stream keys, the show's lifecycle — Go live and End change the event (through the
 * events feature) so viewers get the live video, then the replay — and viewers' reads. The media
 * (ingest, packaging, recording, the live edge) is the engine's (`media-engine.ts`), in this
 * process or in the media worker; this service is its controller: it answers whether a publisher
 * may publish and moves the show's state on what the engine tells.
 */
export function createLiveService(deps: LiveServiceDeps) {
  const { events, now, log, config, ffmpeg, segments } = deps;
  /** Guessed ids push out the least recently asked, never a show's whole audience's entry. */
  const viewerState = createBoundedCache<{ record: LiveStreamRecord | null; at: number }>(VIEWER_STATES_MAX);
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
  /** What this service keeps of each show it runs: its transitions' queue, the relay's, the grace. */
  const controls = new Map<string, ShowControl>();
  const controlOf = (eventId: string): ShowControl => {
    let control = controls.get(eventId);
    if (!control) {
      control = { queue: Promise.resolve(), relayQueue: Promise.resolve(), sharedEnd: false, grace: null };
      controls.set(eventId, control);
    }
    return control;
  };
  /** Runs `task` after the show's earlier transitions. */
  function serialized<T>(eventId: string, task: () => Promise<T>): Promise<T> {
    const control = controlOf(eventId);
    const result = control.queue.then(task);
    control.queue = result.catch(() => undefined);
    return result;
  }
  let closed = false;

  const controller: MediaController = {
    authorize: (request) => authorize(request),
    checkKey: (streamKey) => checkKey(streamKey),
    publisherGone(eventId, reason) {
      void serialized(eventId, () => publisherGone(eventId, reason)).catch(
        failed(eventId, 'ending a live publish failed'),
      );
    },
    playedOut(eventId) {
      void serialized(eventId, async () => {
        const record = await requireRecord(eventId);
        if (record.state === 'live' || record.state === 'reconnecting')
          await finishShow(eventId, record, 'end');
        else await engine.stopPublisher(eventId);
      }).catch(failed(eventId, 'ending a live show failed'));
    },
    segment(eventId, rendition) {
      // Once per segment of the main rendition: the further ones' playlists go along.
      if (relay && rendition === 0)
        void share(eventId).catch(failed(eventId, 'sharing a live segment failed'));
    },
  };
  const engine: MediaEngine = deps.media(controller);
  /** The relay shares live edges between web nodes that ingest themselves; a worker serves its own. */
  const relay = engine.kind === 'inline' ? (deps.relay ?? null) : null;
  const failed = (eventId: string, what: string) => (error: unknown) =>
    log.error({ err: error, eventId }, what);

  /** The stream's state as viewers' requests see it: read at most every VIEWER_STATE_CACHE_MS. */
  async function viewerRecord(eventId: string): Promise<LiveStreamRecord | null> {
    const cached = viewerState.get(eventId);
    if (cached && now() - cached.at < VIEWER_STATE_CACHE_MS) return cached.record;
    const record = await store.byEvent(eventId);
    viewerState.set(eventId, { record, at: now() });
    return record;
  }

  /**
   * The playlist viewers play from Go live: the master with several renditions; the LL-HLS one
   * with `ll=on` where the live edge is served whole (one node, or a media worker).
   */
  const viewerPlaylist = (eventId: string) => {
    const paths = livePaths(eventId);
    const adaptive = config.profile.renditions.length > 1;
    if (config.profile.lowLatency && !relay) return adaptive ? paths.lowLatencyMaster : paths.lowLatency;
    return adaptive ? paths.liveMaster : paths.live;
  };

  /** The index in the profile of a further rendition (`360p`); -1 for none of them. */
  const furtherRendition = (name: string) =>
    config.profile.renditions.findIndex((rendition, index) => index > 0 && rendition.name === name);

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

  /**
   * Puts the playlists on the relay after a new segment (the segment itself is in the store,
   * where the other nodes read it).
   */
  function share(eventId: string): Promise<void> {
    const control = controlOf(eventId);
    const shared = control.relayQueue.then(async () => {
      if (!relay || control.sharedEnd) return;
      const record = await store.byEvent(eventId);
      await relay.putPlaylists(
        eventId,
        await engine.sharedPlaylists(eventId, record?.liveStartTime ?? null, false),
        false,
      );
    });
    control.relayQueue = shared.catch(() => undefined);
    return shared;
  }

  /** Whether the engine holds the show's recording (it ingested it). */
  const holds = async (eventId: string) => (await engine.describe(eventId)).holds;

  async function publisherGone(eventId: string, reason: PublishEndReason) {
    const record = await store.byEvent(eventId);
    if (!record) return;
    const next = nextLiveStreamState(record.state, 'publisher-gone');
    if (!next.ok) return;
    await store.transition(eventId, record.state, next.state);
    log.info({ eventId, state: next.state, reason }, 'live publisher gone');
    if (next.state === 'reconnecting' && !heldShows.has(eventId)) waitForReconnect(eventId);
  }

  /** Shows that wait for their encoder without end (holdForEncoder): the demo's. */
  const heldShows = new Set<string>();

  function cancelGrace(eventId: string) {
    const control = controls.get(eventId);
    if (control?.grace) clearTimeout(control.grace);
    if (control) control.grace = null;
  }

  /** The reconnect grace: the show ends when no publisher came back within it. */
  function waitForReconnect(eventId: string) {
    cancelGrace(eventId);
    const control = controlOf(eventId);
    control.grace = setTimeout(() => {
      control.grace = null;
      void serialized(eventId, async () => {
        const record = await store.byEvent(eventId);
        if (record?.state !== 'reconnecting') return;
        log.info({ eventId }, 'live encoder did not come back within the grace; the show ends');
        await finishShow(eventId, record, 'grace-expired');
      }).catch(failed(eventId, 'ending a live show failed'));
    }, config.reconnectGraceMs);
    control.grace.unref();
  }

  /** Ends the show: the publisher stops, the replay is written, the event becomes vod. */
  async function finishShow(eventId: string, record: LiveStreamRecord, event: 'end' | 'grace-expired') {
    cancelGrace(eventId);
    const endTime = now();
    const { to } = await transition(eventId, event, { liveEndTime: endTime });
    if (to !== 'ended') return;
    const liveStartTime = record.liveStartTime ?? endTime;
    const ended = await engine.end(eventId, record.liveStartTime);
    if (ended.notWritten) {
      log.error(
        { err: ended.notWritten, eventId },
        'the replay playlist could not be written (is the recordings disk full?): it is served from memory until a restart',
      );
    }
    if (relay) {
      const texts = await engine.sharedPlaylists(eventId, record.liveStartTime, true);
      const control = controlOf(eventId);
      // After every segment shared before (their playlists are older).
      await control.relayQueue;
      control.sharedEnd = true;
      await relay.putPlaylists(eventId, texts, true).catch(failed(eventId, 'sharing the replay failed'));
    }
    const paths = livePaths(eventId);
    await events.setStreamVideo(eventId, {
      currentStatus: 'vod',
      liveStartTime,
      liveEndTime: endTime,
      videoUrl: config.profile.renditions.length > 1 ? paths.replayMaster : paths.replay,
      videoStartTime: ended.firstFrame ?? liveStartTime,
    });
    log.info({ eventId, segments: ended.segments }, 'live show ended');
    deps.onShowEnded?.(eventId);
  }

  function refusal(
    reason: PublishRefusalReason,
    request: MediaAuthorizeRequest,
    detail?: { eventId: string; message: string },
  ): MediaPublishAnswer & { ok: false } {
    const messages = {
      'unknown-key': 'No show has this stream key.',
      'already-publishing': 'This show already has a publisher.',
      ended: 'This show has ended.',
      'no-ffmpeg': ffmpeg.available ? 'This node is closing.' : ffmpeg.missing,
      'beyond-transcode-budget': detail?.message ?? '',
    };
    log.warn(
      {
        protocol: request.protocol,
        remoteAddress: request.remoteAddress ?? undefined,
        reason,
        ...(detail ? { eventId: detail.eventId } : {}),
      },
      `live publish refused: ${messages[reason]}`,
    );
    return { ok: false, reason, message: messages[reason], eventId: detail?.eventId ?? null };
  }

  /** Whether the publisher may publish: its key, the show's state, the transcode budget. */
  async function authorize(request: MediaAuthorizeRequest): Promise<MediaPublishAnswer> {
    if (closed) return refusal('no-ffmpeg', request);
    const found = await store.byKey(request.streamKey);
    if (!found) return refusal('unknown-key', request);
    return serialized(found.eventId, async (): Promise<MediaPublishAnswer> => {
      const record = await store.byEvent(found.eventId);
      if (!record || record.streamKey !== request.streamKey) return refusal('unknown-key', request);
      // Video to transcode beyond the node's budget would take every core: refused, with why.
      const beyond =
        request.videoCodec === 'h264' ? null : transcodeRefusal(request.videoFormat, config.transcodeBudget);
      if (beyond)
        return refusal('beyond-transcode-budget', request, { eventId: record.eventId, message: beyond });
      const next = nextLiveStreamState(record.state, 'publish');
      if (!next.ok) return refusal(next.reason === 'ended' ? 'ended' : 'already-publishing', request);
      if (!(await store.transition(record.eventId, record.state, next.state))) {
        return refusal('already-publishing', request);
      }
      cancelGrace(record.eventId);
      log.info(
        {
          eventId: record.eventId,
          protocol: request.protocol,
          remoteAddress: request.remoteAddress ?? undefined,
          state: next.state,
        },
        'live publish started',
      );
      return { ok: true, eventId: record.eventId };
    });
  }

  /**
   * Whether a publish with this key would be taken, before the protocol answers it (RTMP
   * answers the publish command before any media says which codec it carries).
   */
  async function checkKey(streamKey: string): Promise<MediaCheckKeyAnswer> {
    const record = await store.byKey(streamKey);
    if (!record) return { ok: false, reason: 'unknown-key', message: 'No show has this stream key.' };
    const next = nextLiveStreamState(record.state, 'publish');
    if (next.ok) return { ok: true, eventId: record.eventId };
    return {
      ok: false,
      reason: next.reason === 'ended' ? 'ended' : 'already-publishing',
      message: refusalMessage(next.reason),
    };
  }

  async function requireShow(pageUid: string, eventId: string) {
    const event = await events.streamEvent(eventId);
    if (!event || event.pageUid !== pageUid) throw notFound('No such show in this store.');
    return event;
  }

  let previewKey: Promise<Buffer> | null = null;
  async function previewToken(record: LiveStreamRecord): Promise<string> {
    // Read once; a failed read is retried by the next link rather than kept.
    previewKey ??= deps.previewSecret().catch((error: unknown) => {
      previewKey = null;
      throw error;
    });
    // Bound to the stream key: a new stream key also retires preview links.
    return createHmac('sha256', await previewKey)
      .update(`preview:${record.eventId}:${record.streamKey}`)
      .digest('base64url')
      .slice(0, 32);
  }

  /** Whether `preview` is the show's preview token. */
  async function isPreview(record: LiveStreamRecord, preview: string | null): Promise<boolean> {
    return preview !== null && safeEqual(preview, await previewToken(record));
  }

  async function view(record: LiveStreamRecord, origin: string): Promise<LiveStreamView> {
    const paths = livePaths(record.eventId);
    const host = new URL(origin).hostname;
    const ingest = engine.ingest();
    const media = await engine.describe(record.eventId).catch((error: unknown) => {
      log.warn({ err: error, eventId: record.eventId }, 'the media worker did not describe the show');
      return null;
    });
    return {
      eventId: record.eventId,
      state: record.state,
      streamKey: record.streamKey,
      rtmpUrl: ingest.rtmpPort === null ? null : `rtmp://${host}:${ingest.rtmpPort}/live`,
      whipUrl: ingest.whipPath === null ? null : `${origin}${ingest.whipPath}`,
      liveUrl: paths.live,
      lowLatencyUrl: config.profile.renditions.length > 1 ? paths.lowLatencyMaster : paths.lowLatency,
      replayUrl: paths.replay,
      previewUrl: `${paths.live}?preview=${await previewToken(record)}`,
      liveStartTime: record.liveStartTime,
      liveEndTime: record.liveEndTime,
      health: media?.health ?? null,
      packager: ffmpeg.available
        ? { available: true, ffmpeg: ffmpeg.path, missing: null }
        : { available: false, ffmpeg: null, missing: ffmpeg.missing },
      disk: media?.disk ?? { freeBytes: null, minutesLeft: null, low: false, full: false },
      refusal: media?.refusal ?? null,
    };
  }

  /**
   * A file of a recording the engine does not hold, read from the store: a segment or init
   * segment never changes and a replay playlist is final, so what was read is kept a while.
   */
  const storeReads = createByteCache<Buffer>(STORE_READ_CACHE_BYTES);
  async function storedFile(eventId: string, name: string): Promise<Buffer | null> {
    const key = `${eventId}/${name}`;
    const cached = storeReads.get(key);
    if (cached) return cached;
    const bytes = await segments.get(key);
    if (bytes) storeReads.set(key, bytes);
    return bytes;
  }

  /**
   * Whether a segment of a show the engine does not hold is in a playlist viewers get: the
   * finished replay in the store, or the live and replay playlists on the relay.
   */
  async function listedForViewers(record: LiveStreamRecord, name: string): Promise<boolean> {
    const rendition = renditionOf(name);
    const prefix = rendition ? `${rendition}-` : '';
    const texts = [
      record.state === 'ended'
        ? ((await storedFile(record.eventId, `${prefix}${REPLAY_PLAYLIST}`))?.toString('utf8') ?? null)
        : null,
      (await relay?.playlist(record.eventId, `${prefix}replay`)) ?? null,
      (await relay?.playlist(record.eventId, `${prefix}live`)) ?? null,
    ];
    return texts.some((text) => text?.split('\n').includes(name) ?? false);
  }

  /** Whether the node that recorded the show has put its finished replay where this one reads it. */
  async function replayFinished(eventId: string): Promise<boolean> {
    if (await storedFile(eventId, REPLAY_PLAYLIST)) return true;
    return (await relay?.playlist(eventId, 'replay'))?.includes('#EXT-X-ENDLIST') ?? false;
  }

  relay?.onCommand(({ eventId }) => {
    void holds(eventId)
      .then((held) =>
        held
          ? serialized(eventId, async () => {
              const record = await requireRecord(eventId);
              if (record.state === 'live' || record.state === 'reconnecting')
                await finishShow(eventId, record, 'end');
            })
          : undefined,
      )
      .catch(failed(eventId, 'ending a live show for another node failed'));
  });

  /** The studio's preview names its segments with the token, which they need before Go live. */
  const signedFor = (preview: string | null, previewing: boolean) => (text: string) =>
    previewing && preview
      ? text.replace(/^((?:[0-9]{3,4}p-)?r\d+-\d+\.m4s)$/gm, `$1?preview=${encodeURIComponent(preview)}`)
      : text;

  /**
   * After the engine (re)started: a show left receiving forgets its preview; one left live
   * whose publisher the engine does not have waits for its encoder as after a drop (and ends
   * after the grace).
   */
  async function recover(): Promise<void> {
    for (const record of await store.unfinished()) {
      if (record.state !== 'receiving' && record.state !== 'live' && record.state !== 'reconnecting')
        continue;
      if ((await engine.describe(record.eventId)).publishing) continue;
      await serialized(record.eventId, async () => {
        const now_ = await store.byEvent(record.eventId);
        if (now_?.state === 'receiving') await store.transition(record.eventId, 'receiving', 'idle');
        if (now_?.state === 'live') await store.transition(record.eventId, 'live', 'reconnecting');
        if (now_ && now_.state !== 'receiving' && !heldShows.has(record.eventId))
          waitForReconnect(record.eventId);
      });
    }
  }
  engine.onRestart?.(() => {
    void recover().catch((error) =>
      log.error({ err: error }, 'recovering the shows after a media worker start failed'),
    );
  });

  return {
    /**
     * Starts a publish on the engine (the ingests of an inline engine, and premieres'
     * files, which a media worker plays from the path they have on its machine).
     */
    beginPublish: (request: PublishRequest) => engine.beginPublish(request),

    /** Whether a publish with this key would be taken (the inline ingests ask before answering). */
    checkKey: (streamKey: string) => engine.checkKey(streamKey),

    /** The ports the ingests listen on (tests publish to them). */
    ingestPorts: () => engine.ingest(),

    /** Where publishers reach this node, as an inline engine's ingests listen (the studio shows them). */
    offerIngest(offer: { rtmpPort?: number | null; whipPath?: string | null }) {
      engine.offerIngest(offer);
    },

    /** Whether video runs in a media worker (its ingests and live edge are there). */
    mediaKind: engine.kind,

    /** Whether the engine can be reached (an inline one always; a worker while its channel is open). */
    mediaReachable: () => engine.reachable(),

    /** Resolves once the engine takes commands (a media worker: once it said hello). */
    mediaReady: () => engine.ready(),

    /** The media worker's URL and the headers its requests need (null inline, or while it is down). */
    mediaWorker: () => {
      const url = engine.workerUrl();
      return url ? { url, headers: engine.workerHeaders() } : null;
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
      await serialized(eventId, async () => {
        const record = await requireRecord(eventId);
        if (record.state === 'live') return;
        const liveStartTime = options.liveStartTime ?? now();
        await transition(eventId, 'go-live', { liveStartTime });
        await events.setStreamVideo(eventId, {
          currentStatus: 'live',
          liveStartTime,
          liveEndTime: null,
          videoUrl: viewerPlaylist(eventId),
          videoStartTime: liveStartTime,
        });
        log.info({ eventId }, 'live show went live');
      });
      return view(await requireRecord(eventId), origin);
    },

    async endLive(pageUid: string, eventId: string, origin: string): Promise<LiveStreamView> {
      await requireShow(pageUid, eventId);
      await store.ensure(eventId, pageUid, now());
      if (relay && !(await holds(eventId))) {
        // The show is ingested on another node: it ends it there (its recording is there).
        const before = await requireRecord(eventId);
        if (before.state === 'live' || before.state === 'reconnecting') {
          await relay.send({ eventId, command: 'end' });
          const deadline = Date.now() + REMOTE_END_WAIT_MS;
          while (Date.now() < deadline) {
            const record = await requireRecord(eventId);
            // Ended there, and its replay finished: viewers of this node get it from now on.
            if (record.state === 'ended') {
              viewerState.delete(eventId);
              if (await replayFinished(eventId)) return view(record, origin);
            }
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          log.warn({ eventId }, 'no node answered End; ending the show here');
        }
      }
      await serialized(eventId, async () => finishShow(eventId, await requireRecord(eventId), 'end'));
      return view(await requireRecord(eventId), origin);
    },

    /**
     * A playlist for viewers: the live window (only once live, or with the studio's preview
     * token), or the replay (growing while live, VOD once ended), of the main rendition or of a
     * further one (`rendition`: `360p`); or a master playlist of them. Null when there is none here.
     */
    async playlist(
      eventId: string,
      name: LivePlaylistName,
      preview: string | null,
      rendition: string | null = null,
    ): Promise<string | null> {
      const record = await viewerRecord(eventId);
      if (!record) return null;
      const previewing = await isPreview(record, preview);
      const index = rendition === null ? 0 : furtherRendition(rendition);
      if (index < 0) return null;
      const live = name === 'live' || name === 'master';
      if (live && (record.state === 'idle' || (record.state === 'receiving' && !previewing))) return null;
      if (!live && record.liveStartTime === null) return null;
      const master = name === 'master' || name === 'replay-master';
      if (master && (rendition !== null || config.profile.renditions.length < 2)) return null;
      const prefix = index === 0 ? '' : `${rendition}-`;
      const file = master ? MASTER_PLAYLISTS[name === 'master' ? 'live' : 'replay'] : `${prefix}${name}.m3u8`;
      const ended = record.state === 'ended';
      // An ended show's replay is in the store, for every node (and for a worker that restarted).
      if (ended && (name === 'replay' || name === 'replay-master')) {
        const replay = await storedFile(eventId, file);
        if (replay) return replay.toString('utf8');
      }
      const signed = signedFor(preview, previewing);
      const read = await engine.read(eventId, file, {
        ended,
        liveStartTime: record.liveStartTime,
        previewing,
      });
      if (read.held) {
        if (read.status !== 200) return null;
        const text = read.bytes.toString('utf8');
        return name === 'live' ? signed(text) : text;
      }
      // Ingested on another node (or nowhere yet): its live edge comes over the relay.
      const text = relay ? await relay.playlist(eventId, master ? name : `${prefix}${name}`) : null;
      return text === null ? null : signed(text);
    },

    /**
     * The LL-HLS playlist of a rendition (null: the main one), or the LL master playlist
     * (`master`), answering a blocking request (`_HLS_msn`, `_HLS_part`, `_HLS_skip`) once the
     * asked part is listed, or 503 after LL_BLOCKING_TARGET_DURATIONS target durations; 400 for a
     * malformed or too-far request. Only the engine that packages the show has its live edge (the
     * relay shares the regular playlists): elsewhere null (404), and players use `live.m3u8`.
     */
    async lowLatencyPlaylist(
      eventId: string,
      rendition: string | null,
      master: boolean,
      preview: string | null,
      query: URLSearchParams,
    ): Promise<{ status: 200; text: string } | { status: 400 | 503; message: string } | null> {
      const record = await viewerRecord(eventId);
      if (!record) return null;
      const previewing = await isPreview(record, preview);
      if (record.state === 'idle' || (record.state === 'receiving' && !previewing)) return null;
      if (rendition !== null && furtherRendition(rendition) < 0) return null;
      const file = master
        ? `${rendition === null ? '' : `${rendition}-`}ll-master.m3u8`
        : `${rendition === null ? '' : `${rendition}-`}ll.m3u8`;
      const read = await engine.read(
        eventId,
        file,
        { ended: record.state === 'ended', liveStartTime: record.liveStartTime, previewing },
        query,
      );
      if (!read.held || read.status === 404) return null;
      if (read.status !== 200) return { status: read.status, message: read.message };
      return { status: 200, text: signedFor(preview, previewing)(read.bytes.toString('utf8')) };
    },

    /**
     * A segment or init segment of a show's recording, or null. Segments from before Go live
     * (the studio's preview) need the preview token: viewers never see the show before it starts.
     */
    async file(
      eventId: string,
      name: string,
      preview: string | null = null,
    ): Promise<RecordingFile | { location: string } | null> {
      const record = await viewerRecord(eventId);
      if (!record) return null;
      const previewing = await isPreview(record, preview);
      const read = await engine.read(eventId, name, {
        ended: record.state === 'ended',
        liveStartTime: record.liveStartTime,
        previewing,
      });
      if (read.held) return read.status === 200 ? { bytes: read.bytes, contentType: read.contentType } : null;
      if (name.endsWith('.m4s') && record.liveStartTime === null && !previewing) return null;
      // Recorded on another node (or by an earlier process): a segment is given to viewers only
      // when a playlist of theirs lists it (the preview before Go live is listed in none).
      if (name.endsWith('.m4s') && !previewing && !(await listedForViewers(record, name))) return null;
      // The store has what was recorded, and a public bucket serves it to the viewer itself.
      const location = previewing ? null : segments.url(`${eventId}/${name}`);
      if (location) return { location };
      const bytes = await storedFile(eventId, name);
      return bytes ? { bytes, contentType: contentTypeOf(name) } : null;
    },

    /**
     * Kills the ffmpeg runs an earlier process of this node left running (it was killed before
     * it could stop them); called at start, before any publish.
     */
    async reapOrphans(): Promise<void> {
      const reaped = await engine.reapOrphans();
      if (reaped.length > 0)
        log.warn({ pids: reaped }, 'killed ffmpeg runs a previous server process left running');
    },

    /**
     * After a restart: a show left receiving forgets its preview; one left live waits for its
     * encoder as after a drop (and ends after the grace). Only on a single node: with several,
     * the stream may be ingested on another.
     */
    recover,

    /**
     * The running shows (live or reconnecting) whose live edge this node serves only through the
     * bus (the relay) — ingested on another node — so without the bus it cannot (/readyz).
     */
    async runningShowsHeldElsewhere(): Promise<string[]> {
      const running = (await store.unfinished()).filter(
        (record) => record.state === 'live' || record.state === 'reconnecting',
      );
      // A worker serves its live edges to every web node itself: none goes through the bus.
      if (engine.kind === 'worker') return [];
      const elsewhere: string[] = [];
      for (const record of running) if (!(await holds(record.eventId))) elsewhere.push(record.eventId);
      return elsewhere;
    },

    /**
     * Keeps a show live while its encoder is away, however long: the reconnect grace does not
     * end it. For the demo's show, whose encoder runs only while someone watches.
     */
    holdForEncoder(eventId: string): void {
      heldShows.add(eventId);
      cancelGrace(eventId);
    },

    /**
     * Deletes all but the newest `keep` segments of a show's recording while no encoder feeds it
     * (the demo's, between viewers); answers how many went, 0 while one is publishing.
     */
    dropOldestSegments(eventId: string, keep: number): Promise<number> {
      return engine.dropOldest(eventId, keep);
    },

    /** Stops every packager (the server is closing); streams resume after a restart through `recover`. */
    async close(): Promise<void> {
      closed = true;
      for (const eventId of controls.keys()) cancelGrace(eventId);
      await relay?.close();
      await engine.close();
    },
  };
}

/** What the live service keeps of a show it runs. */
interface ShowControl {
  /** Its transitions run one after another. */
  queue: Promise<unknown>;
  /**
   * What goes to the relay, in order: a segment's playlists shared late must not overwrite the
   * ended show's (the replay with ENDLIST), so once `sharedEnd` later ones keep theirs.
   */
  relayQueue: Promise<void>;
  sharedEnd: boolean;
  /** The reconnect grace's timer while the show waits for its encoder. */
  grace: NodeJS.Timeout | null;
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
