import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { access, mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  checkPremiereSchedule,
  PREMIERE_MAX_BYTES,
  PREMIERE_MAX_SECONDS,
  type PremiereScheduleRefusal,
  premiereOffsetSeconds,
  premierePlayedOut,
  premiereReplaceable,
  zonedLocalToUtc,
} from '@vitrine/domain';
import {
  PREMIERE_MEDIA_TYPES,
  type PremiereInfo,
  type PremiereScheduleInput,
  type PremiereView,
} from '@vitrine/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { HttpError, notFound } from '../../http/errors.ts';
import type { ScheduleTimer } from '../../schedule-timer.ts';
import type { EventService } from '../events/event-service.ts';
import type { ShowService } from '../events/show-service.ts';
import { filePublishInput } from '../live/file-input.ts';
import type { LiveService } from '../live/live-service.ts';
import type { PublishEndReason, PublishSession } from '../live/publish-session.ts';
import { type PremiereTools, probePremiereMedia } from './media-probe.ts';
import {
  PREMIERE_REPLAY_FILE_PATTERN,
  PREMIERE_REPLAY_PLAYLIST,
  packagePremiereReplay,
  premiereReplayPath,
} from './premiere-replay.ts';
import { createPremiereStore, type PremiereRecord } from './premiere-store.ts';

/** setTimeout's longest delay (about 24.8 days); a premiere further away is re-armed in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** How long the file's replay waits for the live service to have turned the show into its replay. */
const VOD_WAIT_MS = 60_000;
const VOD_POLL_MS = 250;

export interface PremiereServiceDeps {
  db: Parameters<typeof createPremiereStore>[0];
  events: EventService;
  shows: ShowService;
  live: LiveService;
  tools: PremiereTools;
  /** Where uploaded premieres are kept. */
  dir: string;
  now: () => number;
  log: FastifyBaseLogger;
  scheduleTimer: ScheduleTimer;
  /** The origin the live service's answers name (the runner has no request to take it from). */
  origin: string;
}

const refusals: Record<PremiereScheduleRefusal, HttpError> = {
  'not-uploaded': new HttpError(409, 'conflict', 'Upload the premiere video first.'),
  'in-the-past': new HttpError(400, 'invalid_request', 'startsAt: must be in the future'),
  'already-started': new HttpError(
    409,
    'conflict',
    'This show is already streaming (a premiere playing, or an encoder sending); it cannot be rescheduled now.',
  ),
  'show-over': new HttpError(409, 'conflict', 'This show has ended; its recording is the replay.'),
};

/**
 * Pre-recorded premieres: a host uploads a video (checked with ffprobe) and schedules it; at that
 * time the runner publishes the file into the show's live stream like any encoder (the live
 * service packages it, records it and runs the show), reading it from `now − startsAt`, so every
 * viewer, a restarted ffmpeg and a restarted server are at the same point of it. When the file
 * has played out the show ends into its replay.
 */
export function createPremiereService(deps: PremiereServiceDeps) {
  const { events, shows, live, tools, dir, now, log } = deps;
  const store = createPremiereStore(deps.db);
  const timers = new Map<string, () => void>();
  const sessions = new Map<string, PublishSession>();
  /** Starts of one premiere run one after another. */
  const queues = new Map<string, Promise<unknown>>();
  let closed = false;

  function serialized<T>(eventId: string, task: () => Promise<T>): Promise<T> {
    const result = (queues.get(eventId) ?? Promise.resolve()).then(task);
    const settled = result.catch(() => undefined);
    queues.set(eventId, settled);
    void settled.then(() => {
      if (queues.get(eventId) === settled) queues.delete(eventId);
    });
    return result;
  }

  const mediaPath = (record: Pick<PremiereRecord, 'mediaKey'>) => join(dir, record.mediaKey);
  /** The premiere's replay (the file packaged whole), apart from the uploads. */
  const replayDir = (eventId: string) => join(dir, 'replays', eventId);
  /** The replays being packaged, so a restart's resume and a settle never do one twice. */
  const packaging = new Map<string, Promise<void>>();

  async function requireShow(pageUid: string, eventId: string) {
    const event = await events.streamEvent(eventId);
    if (!event || event.pageUid !== pageUid) throw notFound('No such show in this store.');
    return event;
  }

  function requireTools(): Extract<PremiereTools, { available: true }> {
    if (!tools.available) throw new HttpError(503, 'unavailable', tools.missing);
    return tools;
  }

  function view(record: PremiereRecord): PremiereView {
    const durationSeconds = record.durationMs / 1000;
    return {
      eventId: record.eventId,
      state: record.state,
      media: {
        fileName: record.fileName,
        sizeBytes: record.sizeBytes,
        durationSeconds,
        width: record.width,
        height: record.height,
        videoCodec: record.videoCodec,
        audioCodec: record.audioCodec,
      },
      startsAt: record.startsAt,
      position:
        record.state === 'playing' && record.startsAt !== null
          ? premiereOffsetSeconds(record.startsAt, durationSeconds, now())
          : null,
      error: record.error,
    };
  }

  async function info(eventId: string): Promise<PremiereInfo> {
    const record = await store.byEvent(eventId);
    return {
      premiere: record ? view(record) : null,
      available: tools.available,
      missing: tools.available ? null : tools.missing,
      maxBytes: PREMIERE_MAX_BYTES,
      maxSeconds: PREMIERE_MAX_SECONDS,
      mediaTypes: [...PREMIERE_MEDIA_TYPES],
    };
  }

  /** Whether the show's stream has begun (someone publishing, live) or is over. */
  async function showStreaming(pageUid: string, eventId: string): Promise<boolean> {
    const event = await requireShow(pageUid, eventId);
    if (event.currentStatus === 'live' || event.currentStatus === 'vod') return true;
    return (await live.stream(pageUid, eventId, deps.origin)).state !== 'idle';
  }

  /** Arms the premiere's start at `startsAt` (at once when that has passed). */
  function arm(eventId: string, startsAt: number): void {
    timers.get(eventId)?.();
    const delay = startsAt - now();
    const cancel =
      delay > MAX_TIMER_MS
        ? deps.scheduleTimer(() => arm(eventId, startsAt), MAX_TIMER_MS)
        : deps.scheduleTimer(
            () =>
              start(eventId).catch((error) =>
                log.error({ err: error, eventId }, 'starting a premiere failed'),
              ),
            Math.max(0, delay),
          );
    timers.set(eventId, cancel);
  }

  async function fail(eventId: string, message: string) {
    log.warn({ eventId, reason: message }, 'premiere failed');
    await store.transition(eventId, ['scheduled', 'playing'], 'failed', message);
  }

  /** Plays the premiere from where it is now (its start, or later after a restart). */
  function start(eventId: string): Promise<void> {
    return serialized(eventId, async () => {
      timers.delete(eventId);
      if (closed || sessions.has(eventId)) return;
      const record = await store.byEvent(eventId);
      if (!record || (record.state !== 'scheduled' && record.state !== 'playing') || record.startsAt === null)
        return;
      const { startsAt, pageUid } = record;
      // Rescheduled meanwhile: the new time's timer runs it.
      if (startsAt > now()) return arm(eventId, startsAt);
      const durationSeconds = record.durationMs / 1000;
      const stream = await live.stream(pageUid, eventId, deps.origin);
      if (stream.state === 'ended') {
        await store.transition(eventId, ['scheduled', 'playing'], 'ended');
        return;
      }
      if (premierePlayedOut(startsAt, durationSeconds, now())) {
        // The server was down until after the premiere would have finished.
        if (stream.state === 'live' || stream.state === 'reconnecting') {
          await live.endLive(pageUid, eventId, deps.origin);
          await store.transition(eventId, ['scheduled', 'playing'], 'ended');
          void fileReplay(eventId);
        } else {
          await fail(eventId, 'The server was not running while the premiere should have played.');
        }
        return;
      }
      const path = mediaPath(record);
      log.info(
        { eventId, offset: premiereOffsetSeconds(startsAt, durationSeconds, now()) ?? 0 },
        'premiere plays from its current point',
      );
      const input = filePublishInput(
        { path, startsAt, durationSeconds, videoCodec: record.videoCodec === 'h264' ? 'h264' : 'other' },
        now,
      );
      const published = await live.beginPublish({ streamKey: stream.streamKey, protocol: 'premiere', input });
      if (!published.ok) return fail(eventId, published.message);
      sessions.set(eventId, published.session);
      published.session.onEnded((reason) => {
        void settle(eventId, published.session, reason).catch((error) =>
          log.error({ err: error, eventId }, 'recording the end of a premiere failed'),
        );
      });
      // A first start goes live at the scheduled time; after a restart the show was live already.
      if (stream.state === 'idle')
        await live.goLive(pageUid, eventId, deps.origin, { liveStartTime: startsAt });
      await store.transition(eventId, ['scheduled', 'playing'], 'playing');
      log.info({ eventId, startsAt }, 'premiere playing');
    });
  }

  /** The premiere's publish ended: played out (or ended by the host), or ffmpeg kept failing. */
  async function settle(eventId: string, session: PublishSession, reason: PublishEndReason) {
    if (sessions.get(eventId) === session) sessions.delete(eventId);
    if (closed) return;
    const record = await store.byEvent(eventId);
    if (!record) return;
    const stream = await live.stream(record.pageUid, eventId, deps.origin);
    if (stream.state === 'ended') {
      await store.transition(eventId, ['scheduled', 'playing'], 'ended');
      log.info({ eventId }, 'premiere ended; the file becomes its replay');
      void fileReplay(eventId);
    } else if (reason === 'packager-failed') {
      await fail(eventId, 'ffmpeg could not play the video; the show ends after the reconnect grace.');
    }
  }

  /**
   * Makes the whole file the ended premiere's replay: the live recording misses what played while
   * the server was down (a crash, a restart), the file does not. Failures are logged: the
   * recording stays the replay then.
   */
  function fileReplay(eventId: string): Promise<void> {
    const running = packaging.get(eventId);
    if (running) return running;
    const task = (async () => {
      const record = await store.byEvent(eventId);
      if (record?.state !== 'ended' || record.startsAt === null || !tools.available) return;
      const { seconds } = await packagePremiereReplay({
        ffmpeg: tools.ffmpeg,
        file: mediaPath(record),
        outDir: replayDir(eventId),
        startsAt: record.startsAt,
        durationMs: record.durationMs,
        videoCodec: record.videoCodec,
        audioCodec: record.audioCodec,
      });
      // The live service turns the show into its recording's replay when it has finished it; the
      // file's replay replaces that one, never the other way round.
      const deadline = now() + VOD_WAIT_MS;
      let event = await events.streamEvent(eventId);
      while (!closed && event?.currentStatus !== 'vod' && now() < deadline) {
        await sleep(VOD_POLL_MS);
        event = await events.streamEvent(eventId);
      }
      if (closed || event?.currentStatus !== 'vod') return;
      await events.setStreamVideo(eventId, {
        currentStatus: 'vod',
        liveStartTime: event.liveStartTime ?? record.startsAt,
        liveEndTime: event.liveEndTime,
        videoUrl: premiereReplayPath(eventId),
        videoStartTime: record.startsAt,
      });
      log.info({ eventId, seconds }, 'premiere replay is the whole file');
    })()
      .catch((error) => log.error({ err: error, eventId }, 'making the file the premiere replay failed'))
      .finally(() => packaging.delete(eventId));
    packaging.set(eventId, task);
    return task;
  }

  const hasFileReplay = (eventId: string) =>
    access(join(replayDir(eventId), PREMIERE_REPLAY_PLAYLIST)).then(
      () => true,
      () => false,
    );

  return {
    /**
     * A file of an ended premiere's replay (its playlist, init segment or a segment), or null.
     * Only names the replay folder can hold, so no path leaves it.
     */
    async replayFile(eventId: string, name: string): Promise<Buffer | null> {
      if (!PREMIERE_REPLAY_FILE_PATTERN.test(name)) return null;
      const record = await store.byEvent(eventId);
      if (record?.state !== 'ended') return null;
      return readFile(join(replayDir(eventId), name)).catch(() => null);
    },

    /** Waits for the replays being packaged (tests, and the server closing). */
    async replaysSettled(): Promise<void> {
      await Promise.all([...packaging.values()]);
    },

    info: async (pageUid: string, eventId: string) => {
      await requireShow(pageUid, eventId);
      return info(eventId);
    },

    /**
     * Stores an uploaded video as the show's premiere, streamed to disk and checked with ffprobe;
     * a scheduled premiere keeps its time with the new file.
     */
    async upload(
      pageUid: string,
      eventId: string,
      body: AsyncIterable<Uint8Array>,
      fileName: string | undefined,
    ): Promise<PremiereInfo> {
      await requireShow(pageUid, eventId);
      const { ffprobe } = requireTools();
      const before = await store.byEvent(eventId);
      if (!premiereReplaceable(before?.state ?? null))
        throw new HttpError(
          409,
          'conflict',
          'This premiere has started; its video can no longer be replaced.',
        );
      if (!before && (await showStreaming(pageUid, eventId)))
        throw new HttpError(409, 'conflict', 'This show is already streaming or has ended.');
      await mkdir(dir, { recursive: true });
      const mediaKey = `${eventId}-${randomBytes(8).toString('hex')}.mp4`;
      const partial = join(dir, `.${mediaKey}.part`);
      try {
        await pipeline(Readable.from(body), createWriteStream(partial, { flags: 'wx' }));
        const media = await probePremiereMedia(ffprobe, partial);
        const { size } = await stat(partial);
        await rename(partial, join(dir, mediaKey));
        const replaced = await store.putMedia({
          ...media,
          eventId,
          pageUid,
          mediaKey,
          fileName: (fileName ?? '').trim().slice(0, 255) || 'video.mp4',
          sizeBytes: size,
        });
        if (replaced && replaced !== mediaKey) await rm(join(dir, replaced), { force: true });
      } finally {
        await rm(partial, { force: true });
      }
      log.info({ eventId }, 'premiere video uploaded');
      return info(eventId);
    },

    /** Schedules the premiere (and moves the show's start to the same moment). */
    async schedule(
      pageUid: string,
      eventId: string,
      input: PremiereScheduleInput,
      origin: string,
    ): Promise<PremiereInfo> {
      await requireShow(pageUid, eventId);
      requireTools();
      // The show starts at the minute; the premiere at the second asked for.
      const minute = input.startsAt.slice(0, 16);
      const minuteInstant = zonedLocalToUtc(minute, input.timeZone);
      const startsAt =
        minuteInstant === null ? null : minuteInstant + Number(input.startsAt.slice(17) || 0) * 1000;
      if (startsAt === null)
        throw new HttpError(400, 'invalid_request', `startsAt: is not a date and time in ${input.timeZone}`);
      await serialized(eventId, async () => {
        const record = await store.byEvent(eventId);
        const checked = checkPremiereSchedule({
          state: record?.state ?? null,
          startsAt,
          now: now(),
          showStreaming: await showStreaming(pageUid, eventId),
        });
        if (!checked.ok) throw refusals[checked.reason];
        await shows.update(pageUid, eventId, { startsAt: minute, timeZone: input.timeZone }, origin);
        await store.schedule(eventId, startsAt);
        arm(eventId, startsAt);
      });
      log.info({ eventId, startsAt }, 'premiere scheduled');
      return info(eventId);
    },

    /** Arms every premiere still to play, and resumes those that were playing (the server started). */
    async resume(): Promise<void> {
      for (const record of await store.pending()) {
        if (record.startsAt !== null) arm(record.eventId, record.startsAt);
      }
      // Ended while the server was going down, before its file became the replay.
      for (const record of await store.ended()) {
        if (!(await hasFileReplay(record.eventId))) void fileReplay(record.eventId);
      }
    },

    /**
     * Disarms the timers (the server is closing; the live service stops the playing ones) and
     * lets a replay being packaged finish its ffmpeg run.
     */
    async close(): Promise<void> {
      closed = true;
      for (const cancel of timers.values()) cancel();
      timers.clear();
      await Promise.all([...packaging.values()]);
    },
  };
}

export type PremiereService = ReturnType<typeof createPremiereService>;
