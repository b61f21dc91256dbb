import { randomUUID } from 'node:crypto';
import { LiveQueryParams, type ViewerCountDoc } from '@vitrine/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { ChangeBus } from './change-bus.ts';
import { everyone, type LiveQueryCatalogue } from './live-query.ts';

/** How often each node counts its viewers and the totals are announced (when they changed). */
export const PRESENCE_TICK_MS = 1000;
/** A node's count not refreshed for this long is from a node that stopped: it no longer counts. */
export const PRESENCE_STALE_MS = 5000;
/**
 * A report that claimed a new total but whose node never confirmed announcing it (the publish
 * failed, or the report timed out on the node after the store had taken it) lets the next report
 * claim it again after this long, so a lost announcement delays the viewers' count, never freezes it.
 */
export const PRESENCE_ANNOUNCE_LEASE_MS = 3000;

export interface ViewerCount {
  viewers: number;
  peak: number;
}

/** A show's totals after a report, and whether this report is the one that should announce them. */
export interface ReportedCount extends ViewerCount {
  announce: boolean;
  /** These totals were announced already (a node confirmed publishing them): nothing is owed. */
  confirmed: boolean;
}

/**
 * Where the nodes' counts meet: in process (one node) or in Redis (every node). One interface,
 * two implementations, like the change bus.
 */
export interface PresenceStore {
  /**
   * Records this node's viewers per show (0 for a show it just stopped seeing) and answers each
   * show's totals across the nodes whose counts are fresh. `announce` is true for one report per
   * new total (so the nodes do not each publish the same change), and again for a later report
   * when the one that claimed it did not confirm with `announced` within PRESENCE_ANNOUNCE_LEASE_MS.
   * `confirmed` is true once a node confirmed these totals went out.
   */
  report(node: string, counts: ReadonlyMap<string, number>): Promise<Map<string, ReportedCount>>;
  /** Confirms that these totals of the show were published: no report announces them again. */
  announced(eventId: string, count: ViewerCount): Promise<void>;
  read(eventId: string): Promise<ViewerCount>;
  close(): Promise<void>;
}

/** The bus topic of a show's viewer count. */
export const presenceTopic = (eventId: string) => `presence:${eventId}`;

/** The single-node store: this process's counts are all there is. */
export function createMemoryPresenceStore(
  staleMs = PRESENCE_STALE_MS,
  now: () => number = Date.now,
  announceLeaseMs = PRESENCE_ANNOUNCE_LEASE_MS,
): PresenceStore {
  interface Show {
    nodes: Map<string, { viewers: number; at: number }>;
    peak: number;
    announced: string;
    /** The totals a report claimed to announce, and when. */
    claim: { state: string; at: number } | null;
  }
  const shows = new Map<string, Show>();
  const totalOf = (show: Show) => {
    let total = 0;
    for (const [node, entry] of show.nodes) {
      if (now() - entry.at > staleMs) show.nodes.delete(node);
      else total += entry.viewers;
    }
    return total;
  };
  return {
    async report(node, counts) {
      const answer = new Map<string, ReportedCount>();
      for (const [eventId, viewers] of counts) {
        let show = shows.get(eventId);
        if (!show) {
          show = { nodes: new Map(), peak: 0, announced: '', claim: null };
          shows.set(eventId, show);
        }
        show.nodes.set(node, { viewers, at: now() });
        const total = totalOf(show);
        show.peak = Math.max(show.peak, total);
        const state = `${total}:${show.peak}`;
        const claimHeld = show.claim?.state === state && now() - show.claim.at <= announceLeaseMs;
        const confirmed = state === show.announced;
        const announce = !confirmed && !claimHeld;
        if (announce) show.claim = { state, at: now() };
        answer.set(eventId, { viewers: total, peak: show.peak, announce, confirmed });
      }
      return answer;
    },
    async announced(eventId, { viewers, peak }) {
      const show = shows.get(eventId);
      if (show) show.announced = `${viewers}:${peak}`;
    },
    async read(eventId) {
      const show = shows.get(eventId);
      return show ? { viewers: totalOf(show), peak: show.peak } : { viewers: 0, peak: 0 };
    },
    async close() {
      shows.clear();
    },
  };
}

export interface Presence {
  /** How many watch the show now, across nodes (as of the last tick, at most a second or two old). */
  viewerCount(eventId: string): Promise<number>;
  /** The most that watched the show at once. */
  peak(eventId: string): Promise<number>;
  read(eventId: string): Promise<ViewerCount>;
  /** Where this node's viewers per show come from (the realtime gateway, once it exists). */
  countViewersWith(count: () => Map<string, number>): void;
  /** Counts, reports and announces once; the timer calls it every PRESENCE_TICK_MS. */
  tick(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Concurrent viewers per show. Each node counts its own viewers each tick (a walk over its live
 * query instances, not over the viewers, so 20,000 viewers cost the same as 20) and reports the
 * counts in one round trip; the node whose report changed a show's total publishes it on the
 * show's presence topic, which the `viewerCount` live query follows.
 */
export function createPresence(options: {
  store: PresenceStore;
  bus: ChangeBus;
  log: FastifyBaseLogger;
  tickMs?: number;
  node?: string;
}): Presence {
  const { store, bus, log } = options;
  const node = options.node ?? randomUUID();
  let countLocal = () => new Map<string, number>();
  /**
   * Shows this node reports again next tick even with no viewers of its own there: those it had
   * viewers of, until its 0 is reported and the totals after it are confirmed announced (by this
   * node or another). A tick that fails keeps them all: a departure whose report timed out on a
   * busy machine, or whose announcement was lost, is reported again rather than never, and the
   * viewers' count does not freeze at the viewers who left.
   */
  let owed = new Set<string>();
  let failing = false;
  let running: Promise<void> | null = null;

  const tickOnce = async () => {
    const counts = countLocal();
    for (const eventId of owed) if (!counts.has(eventId)) counts.set(eventId, 0);
    if (counts.size === 0) return;
    owed = new Set(counts.keys());
    const totals = await store.report(node, counts);
    const stillOwed = new Set<string>();
    for (const [eventId, { viewers, peak, announce, confirmed }] of totals) {
      if ((counts.get(eventId) ?? 0) > 0) stillOwed.add(eventId);
      if (!announce) {
        // A claim on these totals not confirmed yet (another node's, or this node's own whose
        // answer was lost): report again until it is, so that the claim is taken over after its
        // lease if its node never confirms it.
        if (!confirmed) stillOwed.add(eventId);
        continue;
      }
      const doc: ViewerCountDoc = { eventId, viewers, peak };
      await bus.publish(presenceTopic(eventId), [{ type: 'modified', docId: eventId, doc }]);
      // Only once it went out: an announcement lost on the way is claimed again after the lease.
      await store.announced(eventId, { viewers, peak });
    }
    owed = stillOwed;
  };
  const tick = async () => {
    // A slow store (Redis under load) skips ticks rather than piling them up.
    if (running) return running;
    running = tickOnce()
      .then(() => {
        failing = false;
      })
      .catch((error: unknown) => {
        // Logged once per outage: the count comes back with the store.
        if (!failing) log.warn({ err: error }, 'counting viewers failed');
        failing = true;
      })
      .finally(() => {
        running = null;
      });
    return running;
  };
  const timer = setInterval(() => void tick(), options.tickMs ?? PRESENCE_TICK_MS);
  timer.unref();

  return {
    async viewerCount(eventId) {
      return (await store.read(eventId)).viewers;
    },
    async peak(eventId) {
      return (await store.read(eventId)).peak;
    },
    read: (eventId) => store.read(eventId),
    countViewersWith(count) {
      countLocal = count;
    },
    tick,
    async close() {
      clearInterval(timer);
      await running;
      await store.close();
    },
  };
}

/** The `viewerCount` live query: public, like the count a player may show beside the video. */
export function presenceLiveQueries(presence: Presence): Pick<LiveQueryCatalogue, 'viewerCount'> {
  return {
    viewerCount: {
      params: LiveQueryParams.viewerCount,
      authorize: everyone,
      topic: ({ eventId }) => presenceTopic(eventId),
      snapshot: async ({ eventId }) => {
        const doc: ViewerCountDoc = { eventId, ...(await presence.read(eventId)) };
        return [{ docId: eventId, doc }];
      },
    },
  };
}
