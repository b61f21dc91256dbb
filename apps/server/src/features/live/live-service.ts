import { createHmac, timingSafeEqual } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import {
  blockingReloadState,
  type LiveStreamState,
  LL_BLOCKING_TARGET_DURATIONS,
  nextLiveStreamState,
  parseBlockingReload,
  transcodeRefusal,
} from '@vitrine/domain';
import { type LiveStreamView, livePlaylistPaths } from '@vitrine/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import type { EventService } from '../events/event-service.ts';
import type { FfmpegDiscovery } from './ffmpeg-binary.ts';
import type { LiveRelay } from './live-relay.ts';
import { diskView, type LivePublisher, LiveSession } from './live-session.ts';
import { createLiveStore, type LiveStreamRecord } from './live-store.ts';
import { createProcessRegistry } from './packager-processes.ts';
import type {
  PublishEndReason,
  PublishRefusalReason,
  PublishRequest,
  PublishResult,
} from './publish-session.ts';
import { type SegmentReceiver, startSegmentReceiver } from './segment-receiver.ts';
import type { SegmentStore } from './segment-store.ts';
import {
  contentTypeOf,
  isPartName,
  MASTER_PLAYLISTS,
  openShowRecording,
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
}

/**
 * How long viewers' requests reuse a stream's stored state: thousands of viewers polling the
 * playlist each second cost one database read per show and interval.
 */
const VIEWER_STATE_CACHE_MS = 500;
/** What a node keeps of the files it read from the store for shows it does not hold. */
const STORE_READ_CACHE_BYTES = 64 * 1024 ** 2;
/** How long End on a node that does not hold the show waits for the node that does. */
const REMOTE_END_WAIT_MS = 10_000;

/**
 * Live shows: stream keys, the publishers of every protocol (`beginPublish`), the packager (one
 * ffmpeg per show), the recording and its playlists, and the show's lifecycle — Go live and End
 * change the event (through the events feature) so viewers get the live video, then the replay.
 */
export function createLiveService(deps: LiveServiceDeps) {
  const { events, now, log, config, ffmpeg, segments } = deps;
  const relay = deps.relay ?? null;
  /** This node's ffmpeg runs, recorded in its data folder (per machine: the folder may be shared). */
  const processes = createProcessRegistry({ dir: join(config.dir, '.packagers', hostname()) });
  /** The loopback listener packagers hand their files to, started with the first publish. */
  let receiver: Promise<SegmentReceiver> | null = null;
  let startedReceiver: SegmentReceiver | null = null;
  const segmentReceiver = () => {
    receiver ??= startSegmentReceiver().then((started) => {
      startedReceiver = started;
      return started;
    });
    return receiver;
  };
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
  /** The shows this node holds: their sessions (recording, publisher, packager runs). */
  const sessions = new Map<string, LiveSession>();
  const opening = new Map<string, Promise<LiveSession>>();
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

  /** The show's session on this node, opened (with its recording) the first time it is needed. */
  function sessionOf(eventId: string): Promise<LiveSession> {
    const existing = sessions.get(eventId);
    if (existing) return Promise.resolve(existing);
    let pending = opening.get(eventId);
    if (!pending) {
      pending = openRecordings(eventId).then((recordings) => {
        const session = new LiveSession({
          eventId,
          recordings,
          profile: config.profile,
          log,
          now,
          config,
          ffmpeg,
          store: segments,
          processes,
          receiver: () => startedReceiver,
          closed: () => closed,
        });
        follow(session);
        sessions.set(eventId, session);
        opening.delete(eventId);
        return session;
      });
      opening.set(eventId, pending);
    }
    return pending;
  }

  /**
   * A show's recording of each rendition: the main one's journal in the show's folder, a further
   * one's in a folder of its name; all files in the store under the show's id.
   */
  function openRecordings(eventId: string) {
    const { profile } = config;
    return Promise.all(
      profile.renditions.map((rendition, index) =>
        openShowRecording(
          index === 0 ? join(config.dir, eventId) : join(config.dir, eventId, rendition.name),
          {
            store: segments,
            prefix: `${eventId}/`,
            profile,
            ...(index === 0 ? {} : { replayName: `${rendition.name}-${REPLAY_PLAYLIST}` }),
          },
        ),
      ),
    );
  }

  /**
   * The playlist viewers play from Go live: the master with several renditions; the LL-HLS one
   * with `ll=on` on a single node (the parts are only on the node that packages the show).
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

  /** The show's lifecycle (the stored state, the event, the relay) follows what its session tells. */
  function follow(session: LiveSession) {
    const { eventId } = session;
    const failed = (what: string) => (error: unknown) => log.error({ err: error, eventId }, what);
    session.on('segment', ({ rendition }) => {
      // Once per segment of the main rendition: the further ones' playlists go along.
      if (relay && rendition === 0) void share(session).catch(failed('sharing a live segment failed'));
    });
    session.on('publisher-gone', ({ publisher, reason }) => {
      void session
        .serialized(() => publisherGone(session, publisher, reason))
        .catch(failed('ending a live publish failed'));
    });
    session.on('played-out', ({ publisher }) => {
      void session
        .serialized(async () => {
          const record = await requireRecord(eventId);
          if (record.state === 'live' || record.state === 'reconnecting')
            await finishShow(session, record, 'end');
          else publisher.session.finish('publisher-gone');
        })
        .catch(failed('ending a live show failed'));
    });
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

  /**
   * Puts the playlists on the relay after a new segment (the segment itself is in the store,
   * where the other nodes read it).
   */
  function share(session: LiveSession): Promise<void> {
    const shared = session.relayQueue.then(() => shareNow(session));
    session.relayQueue = shared.catch(() => undefined);
    return shared;
  }

  async function shareNow(session: LiveSession) {
    if (!relay || session.sharedEnd) return;
    const record = await store.byEvent(session.eventId);
    const liveStartTime = record?.liveStartTime ?? null;
    const texts: Record<string, string> = {};
    for (const [index, recording] of session.recordings.entries()) {
      const prefix = index === 0 ? '' : `${config.profile.renditions[index]?.name}-`;
      texts[`${prefix}live`] = recording.livePlaylist(false, liveStartTime);
      if (liveStartTime) texts[`${prefix}replay`] = recording.replayPlaylist(liveStartTime);
    }
    if (session.adaptive()) texts.master = await session.masterPlaylist('live');
    await relay.putPlaylists(session.eventId, texts, false);
  }

  /** Whether this node holds the show's recording (it ingested it). */
  const holdsRecording = (session: LiveSession | undefined): session is LiveSession =>
    session?.holdsRecording() ?? false;

  async function publisherGone(session: LiveSession, publisher: LivePublisher, reason: PublishEndReason) {
    if (!(await session.release(publisher))) return;
    if (reason === 'show-ended') return;
    const record = await store.byEvent(session.eventId);
    if (!record) return;
    const next = nextLiveStreamState(record.state, 'publisher-gone');
    if (!next.ok) return;
    await store.transition(session.eventId, record.state, next.state);
    log.info({ eventId: session.eventId, state: next.state, reason }, 'live publisher gone');
    if (next.state === 'reconnecting' && !heldShows.has(session.eventId)) waitForReconnect(session);
  }

  /** Shows that wait for their encoder without end (holdForEncoder): the demo's. */
  const heldShows = new Set<string>();

  function waitForReconnect(session: LiveSession) {
    session.startGrace(config.reconnectGraceMs, () => {
      void session
        .serialized(async () => {
          const record = await store.byEvent(session.eventId);
          if (record?.state !== 'reconnecting') return;
          log.info(
            { eventId: session.eventId },
            'live encoder did not come back within the grace; the show ends',
          );
          await finishShow(session, record, 'grace-expired');
        })
        .catch((error) => log.error({ err: error, eventId: session.eventId }, 'ending a live show failed'));
    });
  }

  /** Ends the show: the publisher stops, the replay is written, the event becomes vod. */
  async function finishShow(session: LiveSession, record: LiveStreamRecord, event: 'end' | 'grace-expired') {
    const endTime = now();
    const { to } = await transition(session.eventId, event, { liveEndTime: endTime });
    if (to !== 'ended') return;
    const liveStartTime = record.liveStartTime ?? endTime;
    const { firstFrame, notWritten } = await session.end(record.liveStartTime);
    if (notWritten) {
      log.error(
        { err: notWritten, eventId: session.eventId },
        'the replay playlist could not be written (is the recordings disk full?): it is served from memory until a restart',
      );
    }
    if (relay) {
      const texts: Record<string, string> = {};
      for (const [index, recording] of session.recordings.entries()) {
        const prefix = index === 0 ? '' : `${config.profile.renditions[index]?.name}-`;
        const replay = await recording.file(`${prefix}${REPLAY_PLAYLIST}`);
        texts[`${prefix}live`] = recording.livePlaylist(true, record.liveStartTime);
        if (replay) texts[`${prefix}replay`] = replay.bytes.toString('utf8');
      }
      if (session.adaptive()) texts['replay-master'] = await session.masterPlaylist('replay');
      // After every segment shared before (their playlists are older).
      await session.relayQueue;
      session.sharedEnd = true;
      await relay
        .putPlaylists(session.eventId, texts, true)
        .catch((error) => log.error({ err: error, eventId: session.eventId }, 'sharing the replay failed'));
    }
    await events.setStreamVideo(session.eventId, {
      currentStatus: 'vod',
      liveStartTime,
      liveEndTime: endTime,
      videoUrl: session.adaptive()
        ? livePaths(session.eventId).replayMaster
        : livePaths(session.eventId).replay,
      videoStartTime: firstFrame ?? liveStartTime,
    });
    log.info({ eventId: session.eventId, segments: session.recording.segments().length }, 'live show ended');
    deps.onShowEnded?.(session.eventId);
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
    await segmentReceiver();
    const found = await store.byKey(request.streamKey);
    if (!found) return refusal('unknown-key', request);
    const session = await sessionOf(found.eventId);
    return session.serialized(async (): Promise<PublishResult> => {
      const record = await store.byEvent(found.eventId);
      if (!record || record.streamKey !== request.streamKey) return refusal('unknown-key', request);
      if (session.publisher) return refusal('already-publishing', request);
      // Video to transcode beyond the node's budget would take every core: refused, with why.
      const beyond =
        request.input.videoCodec === 'h264'
          ? null
          : transcodeRefusal(request.input.videoFormat ?? null, config.transcodeBudget);
      if (beyond) {
        session.refusal = { message: beyond, at: now() };
        return refusal('beyond-transcode-budget', request, { eventId: record.eventId, message: beyond });
      }
      const next = nextLiveStreamState(record.state, 'publish');
      if (!next.ok) return refusal(next.reason === 'ended' ? 'ended' : 'already-publishing', request);
      if (!(await store.transition(record.eventId, record.state, next.state))) {
        return refusal('already-publishing', request);
      }
      const publish = await session.attach(request);
      log.info(
        {
          eventId: record.eventId,
          protocol: request.protocol,
          remoteAddress: request.remoteAddress,
          state: next.state,
        },
        'live publish started',
      );
      return { ok: true, session: publish };
    });
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
      lowLatencyUrl: config.profile.renditions.length > 1 ? paths.lowLatencyMaster : paths.lowLatency,
      replayUrl: paths.replay,
      previewUrl: `${paths.live}?preview=${await previewToken(record)}`,
      liveStartTime: record.liveStartTime,
      liveEndTime: record.liveEndTime,
      health: sessions.get(record.eventId)?.health() ?? null,
      packager: ffmpeg.available
        ? { available: true, ffmpeg: ffmpeg.path, missing: null }
        : { available: false, ffmpeg: null, missing: ffmpeg.missing },
      disk: await diskView(config.dir, sessions.get(record.eventId)),
      refusal: sessions.get(record.eventId)?.refusal ?? null,
    };
  }

  /**
   * A file of a recording this node does not hold, read from the store: a segment or init
   * segment never changes and a replay playlist is final, so what was read is kept a while.
   */
  const storeReads = new Map<string, Buffer>();
  let storeReadBytes = 0;
  async function storedFile(eventId: string, name: string): Promise<Buffer | null> {
    const key = `${eventId}/${name}`;
    const cached = storeReads.get(key);
    if (cached) return cached;
    const bytes = await segments.get(key);
    if (bytes && bytes.length <= STORE_READ_CACHE_BYTES / 16) {
      storeReads.set(key, bytes);
      storeReadBytes += bytes.length;
      for (const [oldest, old] of storeReads) {
        if (storeReadBytes <= STORE_READ_CACHE_BYTES) break;
        storeReads.delete(oldest);
        storeReadBytes -= old.length;
      }
    }
    return bytes;
  }

  /**
   * Whether a segment of a show this node does not hold is in a playlist viewers get: the
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
    const session = sessions.get(eventId);
    if (!holdsRecording(session)) return;
    void session
      .serialized(async () => {
        const record = await requireRecord(eventId);
        if (record.state === 'live' || record.state === 'reconnecting')
          await finishShow(session, record, 'end');
      })
      .catch((error) => log.error({ err: error, eventId }, 'ending a live show for another node failed'));
  });

  return {
    beginPublish,

    /**
     * Whether a publish with this key would be taken, before the protocol answers it (RTMP
     * answers the publish command before any media says which codec it carries).
     */
    async checkKey(
      streamKey: string,
    ): Promise<{ ok: true } | { ok: false; reason: PublishRefusalReason; message: string }> {
      if (!ffmpeg.available) return { ok: false, reason: 'no-ffmpeg', message: ffmpeg.missing };
      const record = await store.byKey(streamKey);
      if (!record) return { ok: false, reason: 'unknown-key', message: 'No show has this stream key.' };
      if (sessions.get(record.eventId)?.publisher)
        return { ok: false, reason: 'already-publishing', message: 'This show already has a publisher.' };
      const next = nextLiveStreamState(record.state, 'publish');
      if (next.ok) return { ok: true };
      return {
        ok: false,
        reason: next.reason === 'ended' ? 'ended' : 'already-publishing',
        message: refusalMessage(next.reason),
      };
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
      const session = await sessionOf(eventId);
      await session.serialized(async () => {
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
      if (relay && !holdsRecording(sessions.get(eventId))) {
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
      const session = await sessionOf(eventId);
      await session.serialized(async () => finishShow(session, await requireRecord(eventId), 'end'));
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
      const previewing = preview !== null && safeEqual(preview, await previewToken(record));
      const index = rendition === null ? 0 : furtherRendition(rendition);
      if (index < 0) return null;
      const live = name === 'live' || name === 'master';
      if (live && (record.state === 'idle' || (record.state === 'receiving' && !previewing))) return null;
      if (!live && record.liveStartTime === null) return null;
      if (name === 'master' || name === 'replay-master') {
        if (rendition !== null || config.profile.renditions.length < 2) return null;
        // Ended: the replay's master playlist is in the store, for every node.
        const stored = name === 'replay-master' ? await storedFile(eventId, MASTER_PLAYLISTS.replay) : null;
        if (stored) return stored.toString('utf8');
        const session =
          sessions.get(eventId) ?? (record.state === 'ended' ? await sessionOf(eventId) : undefined);
        if (holdsRecording(session)) return session.masterPlaylist(name === 'master' ? 'live' : 'replay');
        return relay ? relay.playlist(eventId, name) : null;
      }
      const prefix = index === 0 ? '' : `${rendition}-`;
      const replayFile = `${prefix}${REPLAY_PLAYLIST}`;
      let session = sessions.get(eventId);
      if (!session && record.state === 'ended') {
        // An ended show's replay is in the store, for every node; the recording is opened only
        // when it is not (the show ended on a full disk, so its replay is composed again).
        if (name === 'replay') {
          const replay = await storedFile(eventId, replayFile);
          if (replay) return replay.toString('utf8');
        }
        session = await sessionOf(eventId);
      }
      // The studio's preview names its segments with the token, which they need before Go live.
      const signed = (text: string | null) =>
        text !== null && previewing && preview
          ? text.replace(/^((?:[0-9]{3,4}p-)?r\d+-\d+\.m4s)$/gm, `$1?preview=${encodeURIComponent(preview)}`)
          : text;
      if (!holdsRecording(session)) {
        // Recorded on another node: its replay, once ended, is in the store.
        if (name === 'replay' && record.state === 'ended') {
          const replay = await storedFile(eventId, replayFile);
          if (replay) return replay.toString('utf8');
        }
        // Ingested on another node (or nowhere yet): its live edge comes over the relay.
        return relay ? signed(await relay.playlist(eventId, `${prefix}${name}`)) : null;
      }
      const recording = session.recordings[index];
      if (!recording) return null;
      if (name === 'live') {
        return signed(recording.livePlaylist(record.state === 'ended', record.liveStartTime));
      }
      if (record.state === 'ended') {
        let file = await recording.file(replayFile);
        if (!file) {
          // Ended on a full disk, then restarted: the replay is composed again (and written when it fits).
          await recording.finish(record.liveStartTime);
          file = await recording.file(replayFile);
        }
        return file ? file.bytes.toString('utf8') : null;
      }
      return recording.replayPlaylist(record.liveStartTime);
    },

    /**
     * The LL-HLS playlist of a rendition (null: the main one), or the LL master playlist
     * (`master`), answering a blocking request (`_HLS_msn`, `_HLS_part`, `_HLS_skip`) once the
     * asked part is listed, or 503 after LL_BLOCKING_TARGET_DURATIONS target durations; 400 for a
     * malformed or too-far request. Only the node that packages the show has its live edge (the
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
      const previewing = preview !== null && safeEqual(preview, await previewToken(record));
      if (record.state === 'idle' || (record.state === 'receiving' && !previewing)) return null;
      const session = sessions.get(eventId);
      if (!holdsRecording(session)) return null;
      if (master) {
        if (rendition !== null || config.profile.renditions.length < 2) return null;
        return { status: 200, text: await session.masterPlaylist('ll') };
      }
      const index = rendition === null ? 0 : furtherRendition(rendition);
      const recording = index < 0 ? undefined : session.recordings[index];
      if (!recording) return null;
      const parsed = parseBlockingReload(query);
      if (!parsed.ok) return { status: 400, message: parsed.message };
      const { reload } = parsed;
      const ended = record.state === 'ended';
      const deadline =
        performance.now() +
        LL_BLOCKING_TARGET_DURATIONS * Math.max(1, Math.ceil(config.profile.segmentSeconds)) * 1000;
      for (;;) {
        const state = blockingReloadState(reload, recording.liveEdgePosition(ended));
        if (state === 'too-far')
          return { status: 400, message: '_HLS_msn is more than two segments past the live edge.' };
        if (state === 'ready') break;
        const left = deadline - performance.now();
        if (left <= 0)
          return { status: 503, message: 'The asked part did not come in time; ask for the playlist again.' };
        await recording.liveEdgeChange(left);
      }
      const text = recording.lowLatencyPlaylist(ended, record.liveStartTime, reload.skip);
      const signed =
        previewing && preview
          ? text.replace(/^((?:[0-9]{3,4}p-)?r\d+-\d+\.m4s)$/gm, `$1?preview=${encodeURIComponent(preview)}`)
          : text;
      return { status: 200, text: signed };
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
      const previewing = preview !== null && safeEqual(preview, await previewToken(record));
      const session = sessions.get(eventId);
      const segment = session?.recordingFor(name)?.segment(name) ?? null;
      const beforeLive =
        record.liveStartTime === null ||
        (segment !== null && segment.programDateTime + segment.duration * 1000 <= record.liveStartTime);
      if (name.endsWith('.m4s') && beforeLive && !previewing) return null;
      if (session && holdsRecording(session)) {
        const recording = session.recordingFor(name);
        if (!recording) return null;
        let found = await recording.file(name);
        // A hinted part (EXT-X-PRELOAD-HINT) is answered once it is whole, within a bound; at once
        // (404) when its segment closed without it (a keyframe started the next segment instead).
        const deadline = performance.now() + LL_BLOCKING_TARGET_DURATIONS * 1000;
        while (
          !found &&
          isPartName(name) &&
          recording.partMayStillCome(name) &&
          performance.now() < deadline
        ) {
          await recording.liveEdgeChange(deadline - performance.now());
          found = await recording.file(name);
        }
        return found;
      }
      // Recorded on another node (or by an earlier process): a segment is given to viewers only
      // when a playlist of theirs lists it (the preview before Go live is listed in none).
      if (name.endsWith('.m4s') && !previewing && !(await listedForViewers(record, name))) return null;
      // The store has what was recorded, and a public bucket serves it to the viewer itself.
      const location = previewing ? null : segments.url(`${eventId}/${name}`);
      if (location) return { location };
      const stored = await storedFile(eventId, name);
      return stored ? { bytes: stored, contentType: contentTypeOf(name) } : null;
    },

    /**
     * Kills the ffmpeg runs an earlier process of this node left running (it was killed before
     * it could stop them); called at start, before any publish.
     */
    async reapOrphans(): Promise<void> {
      const reaped = await processes.reap();
      if (reaped.length > 0)
        log.warn({ pids: reaped }, 'killed ffmpeg runs a previous server process left running');
    },

    /**
     * After a restart: a show left receiving forgets its preview; one left live waits for its
     * encoder as after a drop (and ends after the grace). Only on a single node: with several,
     * the stream may be ingested on another.
     */
    async recover(): Promise<void> {
      for (const record of await store.unfinished()) {
        const session = await sessionOf(record.eventId);
        if (record.state === 'receiving') await store.transition(record.eventId, 'receiving', 'idle');
        if (record.state === 'live') await store.transition(record.eventId, 'live', 'reconnecting');
        if (record.state !== 'receiving') waitForReconnect(session);
      }
    },

    /**
     * The running shows (live or reconnecting) whose live edge this node does not hold: it serves
     * their viewers only through the bus (the relay), so without the bus it cannot (/readyz).
     */
    async runningShowsHeldElsewhere(): Promise<string[]> {
      const running = (await store.unfinished()).filter(
        (record) => record.state === 'live' || record.state === 'reconnecting',
      );
      return running
        .filter((record) => !holdsRecording(sessions.get(record.eventId)))
        .map((record) => record.eventId);
    },

    /**
     * Keeps a show live while its encoder is away, however long: the reconnect grace does not
     * end it. For the demo's show, whose encoder runs only while someone watches.
     */
    holdForEncoder(eventId: string): void {
      heldShows.add(eventId);
      sessions.get(eventId)?.cancelGrace();
    },

    /**
     * Deletes all but the newest `keep` segments of a show's recording while no encoder feeds it
     * (the demo's, between viewers); answers how many went, 0 while one is publishing.
     */
    async dropOldestSegments(eventId: string, keep: number): Promise<number> {
      return (await sessionOf(eventId)).dropOldest(keep);
    },

    /** Stops every packager (the server is closing); streams resume after a restart through `recover`. */
    async close(): Promise<void> {
      closed = true;
      await relay?.close();
      await Promise.all([...sessions.values()].map((session) => session.close()));
      await startedReceiver?.close();
      segments.close();
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
