import { hostname } from 'node:os';
import { join } from 'node:path';
import {
  blockingReloadState,
  type LiveProfile,
  LL_BLOCKING_TARGET_DURATIONS,
  parseBlockingReload,
} from '@vitrine/domain';
import type {
  LiveStreamView,
  MediaAuthorizeRequest,
  MediaCheckKeyAnswer,
  MediaEndAnswer,
  MediaPublishAnswer,
  MediaReadContext,
  MediaShow,
} from '@vitrine/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { FfmpegDiscovery } from './ffmpeg-binary.ts';
import { diskView, LiveSession } from './live-session.ts';
import { createProcessRegistry } from './packager-processes.ts';
import type { PublishEndReason, PublishRequest, PublishResult } from './publish-session.ts';
import { createByteCache } from './read-cache.ts';
import { type SegmentReceiver, startSegmentReceiver } from './segment-receiver.ts';
import type { SegmentStore } from './segment-store.ts';
import {
  isPartName,
  LOW_LATENCY_FILE,
  MASTER_PLAYLISTS,
  openShowRecording,
  PLAYLIST_CONTENT_TYPE,
  REPLAY_PLAYLIST,
  type ShowRecording,
} from './show-recording.ts';

/**
 * The media side of live shows (issue 29): ingest hand-off, packaging, recording and each show's
 * live edge. It never reads or writes the database and never decides a show's state: it asks
 * its controller (the live service, which holds the stream keys and the transitions) whether a
 * publisher may publish, and tells it what happens (a publisher gone, a file played out, a
 * segment). The same engine runs inside the web server (`LIVE_MEDIA=inline`) or in the media
 * worker process (`media-worker.ts`), where the controller is reached over the media channel.
 */
export interface MediaController {
  /** May this publisher publish? The controller checks the key and moves the show's state. */
  authorize(request: MediaAuthorizeRequest): Promise<MediaPublishAnswer>;
  /** Whether a publish with this key would be taken, before the protocol answers it. */
  checkKey(streamKey: string): Promise<MediaCheckKeyAnswer>;
  /** A publish ended for another reason than the show ending (the engine let go of it already). */
  publisherGone(eventId: string, reason: PublishEndReason): void;
  /** A finite input (a premiere's file) played out. */
  playedOut(eventId: string): void;
  /** A segment of rendition `rendition` (0: the main one) was recorded. */
  segment(eventId: string, rendition: number): void;
}

/**
 * A read of a show's live edge or recording on the engine: `held: false` when the engine holds
 * nothing of the show (the caller looks in the store or on the relay).
 */
export type MediaRead =
  | { held: false }
  | { held: true; status: 200; bytes: Buffer; contentType: string }
  | { held: true; status: 404 }
  | { held: true; status: 400 | 503; message: string };

/** The engine as the live service uses it, in this process or in the media worker. */
export interface MediaEngine {
  /** `inline` in this process; `worker` over the media channel. */
  readonly kind: 'inline' | 'worker';
  /** Where publishers reach the engine's ingests (null: not offered). */
  ingest(): { rtmpPort: number | null; whipPath: string | null };
  /** Starts a publish: the engine asks its controller, then packages the input. */
  beginPublish(request: PublishRequest): Promise<PublishResult>;
  /**
   * A file of the show under `/live/<eventId>/`: a playlist (live, replay, LL with its blocking
   * `query`, master), an init segment, a segment or a part.
   */
  read(eventId: string, file: string, context: MediaReadContext, query?: URLSearchParams): Promise<MediaRead>;
  /** The show's stream as the engine sees it (publisher health, disk, last refusal). */
  describe(eventId: string): Promise<MediaShow>;
  /** Ends the show's stream: the publisher stops and the recording is finished into the replay. */
  end(eventId: string, liveStartTime: number | null): Promise<MediaEndAnswer>;
  /** Deletes all but the newest `keep` segments while no encoder feeds the show. */
  dropOldest(eventId: string, keep: number): Promise<number>;
  /** Ends the show's current publish as if its publisher went (a premiere played out before Go live). */
  stopPublisher(eventId: string): Promise<void>;
  /** The playlists other nodes serve from the relay (several nodes, inline engines only). */
  sharedPlaylists(
    eventId: string,
    liveStartTime: number | null,
    ended: boolean,
  ): Promise<Record<string, string>>;
  /** Kills the ffmpeg runs an earlier process left (called at start, before any publish). */
  reapOrphans(): Promise<number[]>;
  /** The engine's ingests say where they listen (RTMP port, WHIP path): inline engines only. */
  offerIngest(offer: { rtmpPort?: number | null; whipPath?: string | null }): void;
  /** Whether a publish with this key would be taken (the controller's answer and the engine's). */
  checkKey(streamKey: string): Promise<MediaCheckKeyAnswer>;
  /** Whether the engine can be reached (inline: always; a worker: while its channel is open). */
  reachable(): boolean;
  /**
   * `listener` runs whenever the engine (re)starts with no memory of running shows (a media
   * worker that was restarted): the controller recovers their state then.
   */
  onRestart?(listener: () => void): void;
  /** Resolves once the engine can take commands (a worker: once it said hello). */
  ready(): Promise<void>;
  /** Where the worker listens (its WHIP endpoint is proxied there); null inline or while it is down. */
  workerUrl(): string | null;
  /** The token the worker checks on every request. */
  workerHeaders(): Record<string, string>;
  close(): Promise<void>;
}

/** What an engine keeps of the files its recordings read back from the store. */
const STORE_READ_CACHE_BYTES = 64 * 1024 ** 2;

export interface LocalMediaEngineDeps {
  log: FastifyBaseLogger;
  now: () => number;
  config: Pick<Config['live'], 'dir' | 'transcodeBudget' | 'profile'>;
  ffmpeg: FfmpegDiscovery;
  segments: SegmentStore;
  controller: MediaController;
  /**
   * Who runs ffmpeg here, recorded in its data folder under this name (per machine and role: a
   * worker and a web node on one machine reap only their own runs).
   */
  processOwner?: string;
}

/** The engine in this process: the shows' sessions, the packagers' receiver, their ffmpeg runs. */
export function createLocalMediaEngine(deps: LocalMediaEngineDeps): MediaEngine & {
  /** Ends a show's current publish from the protocol's side (as if its publisher went). */
  endPublish(eventId: string): void;
} {
  const { log, now, config, ffmpeg, segments, controller } = deps;
  const profile: LiveProfile = config.profile;
  const processes = createProcessRegistry({
    dir: join(config.dir, '.packagers', deps.processOwner ?? hostname()),
  });
  let receiver: Promise<SegmentReceiver> | null = null;
  let startedReceiver: SegmentReceiver | null = null;
  const segmentReceiver = () => {
    receiver ??= startSegmentReceiver().then((started) => {
      startedReceiver = started;
      return started;
    });
    return receiver;
  };
  /** Files the recordings read back from the store, for the next viewers asking. */
  const reads = createByteCache<Buffer>(STORE_READ_CACHE_BYTES);
  const sessions = new Map<string, LiveSession>();
  const opening = new Map<string, Promise<LiveSession>>();
  const ingest: { rtmpPort: number | null; whipPath: string | null } = { rtmpPort: null, whipPath: null };
  let closed = false;

  /** The show's session here, opened (with its recording) the first time it is needed. */
  function sessionOf(eventId: string): Promise<LiveSession> {
    const existing = sessions.get(eventId);
    if (existing) return Promise.resolve(existing);
    let pending = opening.get(eventId);
    if (!pending) {
      pending = openRecordings(eventId).then((recordings) => {
        const session = new LiveSession({
          eventId,
          recordings,
          profile,
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
    return Promise.all(
      profile.renditions.map((rendition, index) =>
        openShowRecording(
          index === 0 ? join(config.dir, eventId) : join(config.dir, eventId, rendition.name),
          {
            store: segments,
            prefix: `${eventId}/`,
            profile,
            reads,
            ...(index === 0 ? {} : { replayName: `${rendition.name}-${REPLAY_PLAYLIST}` }),
          },
        ),
      ),
    );
  }

  /** What a session tells goes to the controller; a publisher gone is let go of first. */
  function follow(session: LiveSession) {
    const { eventId } = session;
    session.on('segment', ({ rendition }) => controller.segment(eventId, rendition));
    session.on('publisher-gone', ({ publisher, reason }) => {
      void session
        .serialized(async () => {
          if (!(await session.release(publisher)) || reason === 'show-ended') return;
          controller.publisherGone(eventId, reason);
        })
        .catch((error) => log.error({ err: error, eventId }, 'ending a live publish failed'));
    });
    session.on('played-out', () => controller.playedOut(eventId));
  }

  /**
   * The session of a show this engine holds (it ingested it, or its recording is here); else
   * null. A show that started (or ended) is opened from its recording's journal when it is not in
   * memory: a worker started again after a crash serves what the one before recorded.
   */
  async function heldSession(eventId: string, context: MediaReadContext): Promise<LiveSession | null> {
    const started = context.ended || context.liveStartTime !== null || context.previewing;
    const session = sessions.get(eventId) ?? (started ? await sessionOf(eventId) : undefined);
    return session?.holdsRecording() ? session : null;
  }

  /** The index in the profile of a rendition's prefix (`360p-`); 0 for none; -1 for an unknown one. */
  function renditionIndex(prefix: string | undefined): number {
    if (!prefix) return 0;
    return profile.renditions.findIndex((rendition, index) => index > 0 && rendition.name === prefix);
  }

  const text = (body: string) =>
    ({ held: true, status: 200, bytes: Buffer.from(body), contentType: PLAYLIST_CONTENT_TYPE }) as const;
  const missing = { held: true, status: 404 } as const;

  async function readPlaylist(
    session: LiveSession,
    file: string,
    context: MediaReadContext,
    query: URLSearchParams,
  ): Promise<MediaRead> {
    if (file === MASTER_PLAYLISTS.live || file === MASTER_PLAYLISTS.replay) {
      if (!session.adaptive()) return missing;
      return text(await session.masterPlaylist(file === MASTER_PLAYLISTS.live ? 'live' : 'replay'));
    }
    const lowLatency = LOW_LATENCY_FILE.exec(file);
    if (lowLatency) {
      if (lowLatency[2] !== undefined) {
        if (lowLatency[1] !== undefined || !session.adaptive()) return missing;
        return text(await session.masterPlaylist('ll'));
      }
      const recording = session.recordings[renditionIndex(lowLatency[1])];
      if (!recording) return missing;
      return lowLatencyPlaylist(recording, context, query);
    }
    const match = /^(?:([0-9]{3,4}p)-)?(live|replay)\.m3u8$/.exec(file);
    const recording = match ? session.recordings[renditionIndex(match[1])] : undefined;
    if (!match || !recording) return missing;
    if (match[2] === 'live') return text(recording.livePlaylist(context.ended, context.liveStartTime));
    if (!context.ended) return text(recording.replayPlaylist(context.liveStartTime));
    let replay = await recording.file(file);
    if (!replay) {
      // Ended on a full disk, then restarted: the replay is composed again (and written when it fits).
      await recording.finish(context.liveStartTime);
      replay = await recording.file(file);
    }
    return replay ? text(replay.bytes.toString('utf8')) : missing;
  }

  /**
   * The LL-HLS playlist, answering a blocking request (`_HLS_msn`, `_HLS_part`, `_HLS_skip`) once
   * the asked part is listed, or 503 after LL_BLOCKING_TARGET_DURATIONS target durations; 400 for
   * a malformed or too-far request.
   */
  async function lowLatencyPlaylist(
    recording: ShowRecording,
    context: MediaReadContext,
    query: URLSearchParams,
  ): Promise<MediaRead> {
    const parsed = parseBlockingReload(query);
    if (!parsed.ok) return { held: true, status: 400, message: parsed.message };
    const { reload } = parsed;
    const deadline =
      performance.now() +
      LL_BLOCKING_TARGET_DURATIONS * Math.max(1, Math.ceil(profile.segmentSeconds)) * 1000;
    for (;;) {
      const state = blockingReloadState(reload, recording.liveEdgePosition(context.ended));
      if (state === 'too-far')
        return { held: true, status: 400, message: '_HLS_msn is more than two segments past the live edge.' };
      if (state === 'ready') break;
      const left = deadline - performance.now();
      if (left <= 0)
        return {
          held: true,
          status: 503,
          message: 'The asked part did not come in time; ask for the playlist again.',
        };
      await recording.liveEdgeChange(left);
    }
    return text(recording.lowLatencyPlaylist(context.ended, context.liveStartTime, reload.skip));
  }

  /**
   * A segment, part or init segment. Segments from before Go live (the studio's preview) need the
   * preview token (`previewing`): viewers never see the show before it starts.
   */
  async function readMedia(
    session: LiveSession,
    name: string,
    context: MediaReadContext,
  ): Promise<MediaRead> {
    const recording = session.recordingFor(name);
    if (!recording) return missing;
    const segment = recording.segment(name);
    const beforeLive =
      context.liveStartTime === null ||
      (segment !== null && segment.programDateTime + segment.duration * 1000 <= context.liveStartTime);
    if (name.endsWith('.m4s') && beforeLive && !context.previewing) return missing;
    let found = await recording.file(name);
    // A hinted part (EXT-X-PRELOAD-HINT) is answered once it is whole, within a bound; at once
    // (404) when its segment closed without it (a keyframe started the next segment instead).
    const deadline = performance.now() + LL_BLOCKING_TARGET_DURATIONS * 1000;
    while (!found && isPartName(name) && recording.partMayStillCome(name) && performance.now() < deadline) {
      await recording.liveEdgeChange(deadline - performance.now());
      found = await recording.file(name);
    }
    return found ? { held: true, status: 200, bytes: found.bytes, contentType: found.contentType } : missing;
  }

  const engine = {
    kind: 'inline' as const,

    ingest: () => ({ ...ingest }),

    offerIngest(offer: { rtmpPort?: number | null; whipPath?: string | null }) {
      if (offer.rtmpPort !== undefined) ingest.rtmpPort = offer.rtmpPort;
      if (offer.whipPath !== undefined) ingest.whipPath = offer.whipPath;
    },

    async checkKey(streamKey: string): Promise<MediaCheckKeyAnswer> {
      if (closed || !ffmpeg.available)
        return {
          ok: false,
          reason: 'no-ffmpeg',
          message: ffmpeg.available ? 'This node is closing.' : ffmpeg.missing,
        };
      const answer = await controller.checkKey(streamKey);
      if (answer.ok && sessions.get(answer.eventId)?.publisher)
        return { ok: false, reason: 'already-publishing', message: 'This show already has a publisher.' };
      return answer;
    },

    async beginPublish(request: PublishRequest): Promise<PublishResult> {
      if (closed || !ffmpeg.available) {
        const message = ffmpeg.available ? 'This node is closing.' : ffmpeg.missing;
        log.warn({ protocol: request.protocol, reason: 'no-ffmpeg' }, `live publish refused: ${message}`);
        return { ok: false, reason: 'no-ffmpeg', message };
      }
      await segmentReceiver();
      const answer = await controller.authorize({
        streamKey: request.streamKey,
        protocol: request.protocol,
        videoCodec: request.input.videoCodec,
        videoFormat: request.input.videoFormat ?? null,
        remoteAddress: request.remoteAddress ?? null,
      });
      if (!answer.ok) {
        if (answer.reason === 'beyond-transcode-budget' && answer.eventId)
          (await sessionOf(answer.eventId)).refusal = { message: answer.message, at: now() };
        return { ok: false, reason: answer.reason, message: answer.message };
      }
      const session = await sessionOf(answer.eventId);
      return session.serialized(async (): Promise<PublishResult> => {
        if (session.publisher) {
          // The stored state let it publish, yet a publisher is still attached here: never two.
          log.error({ eventId: answer.eventId }, 'a publish was authorized while one is attached; refused');
          return { ok: false, reason: 'already-publishing', message: 'This show already has a publisher.' };
        }
        return { ok: true, session: await session.attach(request) };
      });
    },

    async read(
      eventId: string,
      file: string,
      context: MediaReadContext,
      query: URLSearchParams = new URLSearchParams(),
    ): Promise<MediaRead> {
      const session = await heldSession(eventId, context);
      if (!session) return { held: false };
      return file.endsWith('.m3u8')
        ? readPlaylist(session, file, context, query)
        : readMedia(session, file, context);
    },

    async describe(eventId: string): Promise<MediaShow> {
      const session = sessions.get(eventId);
      const disk: LiveStreamView['disk'] = await diskView(config.dir, session);
      return {
        holds: session?.holdsRecording() ?? false,
        publishing: session?.publisher !== null && session?.publisher !== undefined,
        health: session?.health() ?? null,
        refusal: session?.refusal ?? null,
        disk,
        segments: session?.recording.segments().length ?? 0,
      };
    },

    async end(eventId: string, liveStartTime: number | null): Promise<MediaEndAnswer> {
      const session = await sessionOf(eventId);
      const { firstFrame, notWritten } = await session.serialized(() => session.end(liveStartTime));
      return {
        firstFrame,
        notWritten: notWritten ? String(notWritten instanceof Error ? notWritten.message : notWritten) : null,
        segments: session.recording.segments().length,
      };
    },

    async dropOldest(eventId: string, keep: number): Promise<number> {
      return (await sessionOf(eventId)).dropOldest(keep);
    },

    async stopPublisher(eventId: string): Promise<void> {
      sessions.get(eventId)?.publisher?.session.finish('publisher-gone');
    },

    endPublish(eventId: string): void {
      sessions.get(eventId)?.publisher?.session.end();
    },

    async sharedPlaylists(
      eventId: string,
      liveStartTime: number | null,
      ended: boolean,
    ): Promise<Record<string, string>> {
      const session = sessions.get(eventId);
      const texts: Record<string, string> = {};
      if (!session) return texts;
      for (const [index, recording] of session.recordings.entries()) {
        const prefix = index === 0 ? '' : `${profile.renditions[index]?.name}-`;
        texts[`${prefix}live`] = recording.livePlaylist(ended, liveStartTime);
        if (ended) {
          const replay = await recording.file(`${prefix}${REPLAY_PLAYLIST}`);
          if (replay) texts[`${prefix}replay`] = replay.bytes.toString('utf8');
        } else if (liveStartTime) texts[`${prefix}replay`] = recording.replayPlaylist(liveStartTime);
      }
      if (session.adaptive())
        texts[ended ? 'replay-master' : 'master'] = await session.masterPlaylist(ended ? 'replay' : 'live');
      return texts;
    },

    reapOrphans: () => processes.reap(),

    reachable: () => true,

    ready: async () => undefined,

    workerUrl: () => null,

    workerHeaders: () => ({}),

    async close(): Promise<void> {
      closed = true;
      await Promise.all([...sessions.values()].map((session) => session.close()));
      await startedReceiver?.close();
      segments.close();
    },
  };
  return engine;
}
