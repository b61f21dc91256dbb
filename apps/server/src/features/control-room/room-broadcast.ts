import type { ControlRoomLiveDoc, LiveChange } from '@vitrine/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { ChangeBus } from '../../realtime/change-bus.ts';
import type { ControlRoomService } from './control-room-service.ts';
import { controlRoomTopic } from './live-queries.ts';

/** How often the shows someone watches in a control room are read again for changed figures. */
export const ROOM_BROADCAST_TICK_MS = 1000;
/** How often the control rooms' subscribers are checked against their role again (removed staff). */
export const ROOM_RECHECK_MS = 30_000;

/** What changed since the last publish: everything but the time of the figures. */
const sameFigures = (a: ControlRoomLiveDoc, b: ControlRoomLiveDoc) =>
  JSON.stringify({ ...a, at: 0 }) === JSON.stringify({ ...b, at: 0 });

export interface RoomBroadcaster {
  /** Where this node's watched rooms come from (the gateway's `controlRoom` subscriptions). */
  watchRoomsOf(audience: () => Array<{ pageUid: string; showUid: string }>): void;
  /** Where the room's subscribers are checked against their roles again. */
  recheckWith(recheck: () => Promise<void>): void;
  /** Reads the show's room now and publishes it if it changed (after a change made through the room). */
  nudge(pageUid: string, showUid: string): Promise<void>;
  /** One round over the watched rooms; the timer calls it every tick. */
  tick(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Pushes each watched control room's figures on its topic when they change. The figures come
 * from several features (presence, tracking, orders, presentations, the stream, moderation), so
 * the node reads them once a tick for the shows someone on it watches (one read per show, shared
 * with the GET call's cache), instead of every staff page asking every second; a change made in
 * the room itself (`nudge`) goes out at once.
 */
export function createRoomBroadcaster(options: {
  room: Pick<ControlRoomService, 'liveDoc' | 'invalidate'>;
  bus: ChangeBus;
  log: FastifyBaseLogger;
  tickMs?: number;
  recheckMs?: number;
}): RoomBroadcaster {
  const { room, bus, log } = options;
  let audience = (): Array<{ pageUid: string; showUid: string }> => [];
  let recheck = async () => {};
  const published = new Map<string, ControlRoomLiveDoc>();
  /** Each show's reads and publishes one after another, so an older read never goes out last. */
  const queues = new Map<string, Promise<void>>();
  let running: Promise<void> | null = null;
  let failing = false;

  function publishRoom(pageUid: string, showUid: string): Promise<void> {
    const key = `${pageUid}:${showUid}`;
    const run = (queues.get(key) ?? Promise.resolve()).then(() => readAndPublish(pageUid, showUid));
    const settled = run.catch(() => {});
    queues.set(key, settled);
    void settled.then(() => {
      if (queues.get(key) === settled) queues.delete(key);
    });
    return run;
  }

  async function readAndPublish(pageUid: string, showUid: string) {
    const key = `${pageUid}:${showUid}`;
    const doc = await room.liveDoc(pageUid, showUid);
    const before = published.get(key);
    if (before && sameFigures(before, doc)) return;
    published.set(key, doc);
    const change: LiveChange = { type: 'modified', docId: showUid, doc };
    await bus.publish(controlRoomTopic(pageUid, showUid), [change]);
  }

  async function tickOnce() {
    const watched = new Map(audience().map((entry) => [`${entry.pageUid}:${entry.showUid}`, entry]));
    for (const key of published.keys()) if (!watched.has(key)) published.delete(key);
    const results = await Promise.allSettled(
      [...watched.values()].map(({ pageUid, showUid }) => publishRoom(pageUid, showUid)),
    );
    // A show of another store (refused by its snapshot already) or a passing failure: next tick.
    const failed = results.find((result) => result.status === 'rejected');
    if (failed && !failing) log.warn({ err: failed.reason }, 'reading a control room failed');
    failing = failed !== undefined;
  }

  const tick = () => {
    // A slow database skips ticks rather than piling them up.
    running ??= tickOnce()
      .catch((error: unknown) => log.warn({ err: error }, 'control room tick failed'))
      .finally(() => {
        running = null;
      });
    return running;
  };
  const timer = setInterval(() => void tick(), options.tickMs ?? ROOM_BROADCAST_TICK_MS);
  timer.unref();
  const recheckTimer = setInterval(
    () => void recheck().catch((error: unknown) => log.warn({ err: error }, 'control room recheck failed')),
    options.recheckMs ?? ROOM_RECHECK_MS,
  );
  recheckTimer.unref();

  return {
    watchRoomsOf(source) {
      audience = source;
    },
    recheckWith(source) {
      recheck = source;
    },
    async nudge(pageUid, showUid) {
      if (!audience().some((entry) => entry.pageUid === pageUid && entry.showUid === showUid)) return;
      room.invalidate(pageUid, showUid);
      try {
        await publishRoom(pageUid, showUid);
      } catch (error) {
        // The next tick publishes it.
        log.warn({ err: error }, 'publishing a control room failed');
      }
    },
    tick,
    async close() {
      clearInterval(timer);
      clearInterval(recheckTimer);
      await running;
    },
  };
}
