import { randomBytes, randomUUID } from 'node:crypto';
import { maskStreamKey, RESTREAM_MAX_DESTINATIONS, restreamPublishUrl } from '@vitrine/domain';
import type { RestreamDestination, RestreamDestinationInput, RestreamList } from '@vitrine/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import type { EventService } from '../events/event-service.ts';
import type { FfmpegDiscovery } from '../live/ffmpeg-binary.ts';
import { type RestreamRun, startRestreamRun } from './restream-run.ts';
import { createRestreamStore, type RestreamHealth, type RestreamRecord } from './restream-store.ts';
import { createStreamKeySeal } from './stream-key-seal.ts';

/** How often a node looks for started destinations, renews its leases and writes their health. */
export const RESTREAM_SUPERVISE_MS = 2000;
/** A runner's lease: another node takes a destination over when its runner stayed silent this long. */
const LEASE_MS = 10_000;

export interface RestreamServiceDeps {
  db: Database;
  events: Pick<EventService, 'streamEvent'>;
  now: () => number;
  log: FastifyBaseLogger;
  ffmpeg: FfmpegDiscovery;
  /** This process among the nodes (leases name it); random by default. */
  nodeId?: string;
}

interface LocalRun {
  eventId: string;
  run: RestreamRun;
}

/**
 * Restreaming (issue 29 item 8): a show sent on to RTMP/RTMPS destinations. The host's start and
 * stop are stored; every node supervises the started destinations of live shows, each run by
 * the one node holding its lease (one ffmpeg per destination, reading the show's live playlist
 * over loopback, `-c copy` to the destination), and writes its health for the studio. A show
 * that ends stops its destinations.
 */
export function createRestreamService(deps: RestreamServiceDeps) {
  const { db, events, now, log, ffmpeg } = deps;
  const nodeId = deps.nodeId ?? randomUUID();
  const store = createRestreamStore(db);
  const seal = createStreamKeySeal(db);
  const runs = new Map<string, LocalRun>();
  let liveOrigin: () => string | null = () => null;
  let supervising: Promise<void> = Promise.resolve();
  let again = false;
  let running = false;
  let closed = false;
  let timer: NodeJS.Timeout | null = null;

  async function requireShow(pageUid: string, eventId: string) {
    const event = await events.streamEvent(eventId);
    if (!event || event.pageUid !== pageUid) throw notFound('No such show in this store.');
    return event;
  }

  async function requireDestination(pageUid: string, eventId: string, id: string): Promise<RestreamRecord> {
    await requireShow(pageUid, eventId);
    const record = await store.byId(eventId, id);
    if (!record) throw notFound('No such restream destination.');
    return record;
  }

  /** What the studio sees: the key only masked, the health of the node running it. */
  function view(record: RestreamRecord): RestreamDestination {
    const local = runs.get(record.id);
    const health: RestreamHealth = local
      ? local.run.health()
      : {
          state: record.state,
          reason: record.reason,
          bytesSent: record.bytesSent,
          bitrateKbps: record.bitrateKbps,
          stateSince: record.stateSince,
        };
    return {
      id: record.id,
      label: record.label,
      serverUrl: record.serverUrl,
      streamKeyMasked: record.streamKeyMasked,
      started: record.started,
      state: record.started || health.state === 'stopped' ? health.state : 'stopped',
      reason: health.reason,
      bytesSent: health.bytesSent,
      bitrateKbps: health.bitrateKbps,
      since: health.stateSince,
    };
  }

  /** Runs a supervision pass now (or right after the one under way). */
  function supervise(): Promise<void> {
    if (running) {
      again = true;
      return supervising;
    }
    running = true;
    supervising = (async () => {
      try {
        do {
          again = false;
          await superviseOnce();
        } while (again && !closed);
      } catch (error) {
        log.error({ err: error }, 'supervising restreams failed');
      } finally {
        running = false;
      }
    })();
    return supervising;
  }

  async function superviseOnce(): Promise<void> {
    if (closed) return;
    const time = now();
    const claimed = ffmpeg.available ? await store.claimStarted(nodeId, time, time + LEASE_MS) : [];
    const held = new Set(claimed.map((record) => record.id));
    // Stopped by the host (on any node), removed, or taken over: this node lets go.
    for (const [id, local] of runs) {
      if (held.has(id)) continue;
      runs.delete(id);
      await local.run.stop();
    }
    const statusOf = new Map<string, Awaited<ReturnType<typeof events.streamEvent>>>();
    for (const record of claimed) {
      if (!statusOf.has(record.eventId))
        statusOf.set(record.eventId, await events.streamEvent(record.eventId));
      const event = statusOf.get(record.eventId);
      if (!event || event.currentStatus === 'vod') {
        await stopRuns(record.eventId);
        await store.stopAllOfEvent(record.eventId, 'The show ended.', time);
        continue;
      }
      if (event.currentStatus !== 'live') {
        await stopRun(record.id);
        await writeHealth(record, { ...idleHealth(record, 'waiting', time), reason: null });
        continue;
      }
      const origin = liveOrigin();
      if (!origin) {
        await writeHealth(record, {
          ...idleHealth(record, 'failed', time),
          reason: 'This server does not listen for HTTP yet.',
        });
        continue;
      }
      if (!runs.has(record.id)) await startRun(record, origin);
      const local = runs.get(record.id);
      if (local) await writeHealth(record, local.run.health());
    }
  }

  /** The stored health moved to `state` (since now unless it is in it already). */
  const idleHealth = (
    record: RestreamRecord,
    state: RestreamHealth['state'],
    time: number,
  ): RestreamHealth => ({
    state,
    reason: record.reason,
    bytesSent: 0,
    bitrateKbps: null,
    stateSince: record.state === state ? record.stateSince : time,
  });

  async function writeHealth(record: RestreamRecord, health: RestreamHealth) {
    await store.writeHealth(record.id, nodeId, health);
  }

  async function startRun(record: RestreamRecord, origin: string) {
    if (!ffmpeg.available) return;
    let streamKey: string;
    try {
      streamKey = await seal.open(record.streamKeySealed, record.id);
    } catch (error) {
      log.error({ err: error, destination: record.id }, 'a restream stream key could not be opened');
      await writeHealth(record, {
        ...idleHealth(record, 'failed', now()),
        reason: 'The saved stream key cannot be read: remove this destination and add it again.',
      });
      return;
    }
    const run = startRestreamRun({
      ffmpegPath: ffmpeg.path,
      inputUrl: `${origin}/live/${encodeURIComponent(record.eventId)}/live.m3u8`,
      publishUrl: restreamPublishUrl(record.serverUrl, streamKey),
      streamKey,
      now,
      onChange: (health) => {
        void store
          .writeHealth(record.id, nodeId, health)
          .catch((error) =>
            log.error({ err: error, destination: record.id }, 'writing restream health failed'),
          );
      },
      onExit: ({ code, stderr }) => {
        if (code !== 0 && code !== 255)
          log.warn({ eventId: record.eventId, destination: record.id, code, stderr }, 'restream run ended');
      },
    });
    runs.set(record.id, { eventId: record.eventId, run });
    log.info(
      { eventId: record.eventId, destination: record.id, server: record.serverUrl },
      'restream started',
    );
  }

  async function stopRun(id: string) {
    const local = runs.get(id);
    if (!local) return;
    runs.delete(id);
    await local.run.stop();
    log.info({ eventId: local.eventId, destination: id }, 'restream stopped');
  }

  async function stopRuns(eventId: string) {
    for (const [id, local] of runs) if (local.eventId === eventId) await stopRun(id);
  }

  return {
    /** A show's destinations with their health. */
    async list(pageUid: string, eventId: string): Promise<RestreamList> {
      await requireShow(pageUid, eventId);
      const records = await store.listOfEvent(eventId);
      return {
        destinations: records.map(view),
        max: RESTREAM_MAX_DESTINATIONS,
        available: ffmpeg.available,
        missing: ffmpeg.available ? null : ffmpeg.missing,
      };
    },

    async add(
      pageUid: string,
      eventId: string,
      input: RestreamDestinationInput,
    ): Promise<RestreamDestination> {
      const event = await requireShow(pageUid, eventId);
      if (event.currentStatus === 'vod') throw new HttpError(409, 'show_ended', 'This show has ended.');
      const id = randomBytes(12).toString('base64url');
      const added = await store.add(
        {
          id,
          eventId,
          pageUid,
          label: input.label,
          serverUrl: input.serverUrl,
          streamKeySealed: await seal.seal(input.streamKey, id),
          streamKeyMasked: maskStreamKey(input.streamKey),
        },
        RESTREAM_MAX_DESTINATIONS,
      );
      if (!added)
        throw new HttpError(
          409,
          'too_many_destinations',
          `A show can be sent to at most ${RESTREAM_MAX_DESTINATIONS} destinations.`,
        );
      return view(await requireDestination(pageUid, eventId, id));
    },

    async remove(pageUid: string, eventId: string, id: string): Promise<void> {
      await requireDestination(pageUid, eventId, id);
      await stopRun(id);
      await store.remove(eventId, id);
      // A run on another node stops at its next pass (its lease is gone with the row).
    },

    async start(pageUid: string, eventId: string, id: string): Promise<RestreamDestination> {
      const event = await requireShow(pageUid, eventId);
      if (event.currentStatus === 'vod') throw new HttpError(409, 'show_ended', 'This show has ended.');
      if (!ffmpeg.available) throw new HttpError(503, 'unavailable', ffmpeg.missing);
      await requireDestination(pageUid, eventId, id);
      await store.setStarted(eventId, id, true, now());
      await supervise();
      return view(await requireDestination(pageUid, eventId, id));
    },

    async stop(pageUid: string, eventId: string, id: string): Promise<RestreamDestination> {
      await requireDestination(pageUid, eventId, id);
      await store.setStarted(eventId, id, false, now());
      await supervise();
      return view(await requireDestination(pageUid, eventId, id));
    },

    /**
     * Where this node's own HTTP server answers (the loopback origin its ffmpeg reads the live
     * playlists from), once it listens.
     */
    serveFrom(origin: () => string | null) {
      liveOrigin = origin;
    },

    /** Starts the periodic supervision (leases, health, shows that went live or ended). */
    startSupervising() {
      if (timer || closed) return;
      timer = setInterval(() => void supervise(), RESTREAM_SUPERVISE_MS);
      timer.unref();
      void supervise();
    },

    /** A supervision pass now (tests, and after the host's calls). */
    supervise,

    /** The destinations this node sends now (ids). */
    localRuns: () => [...runs.keys()],

    /** Stops every run of this node and lets go of its leases, so another node takes over at once. */
    async close(): Promise<void> {
      closed = true;
      if (timer) clearInterval(timer);
      await supervising;
      await Promise.all(
        [...runs.entries()].map(async ([id, local]) => {
          runs.delete(id);
          await local.run.stop();
          await store.release(id, nodeId).catch(() => undefined);
        }),
      );
    },
  };
}

export type RestreamService = ReturnType<typeof createRestreamService>;
