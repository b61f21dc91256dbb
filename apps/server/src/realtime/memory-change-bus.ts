import type { LiveChange } from '@vitrine/protocol';
import {
  type BatchListener,
  type ChangeBatch,
  type ChangeBus,
  IDLE_TOPIC_MS,
  REPLAY_LOG_BATCHES,
  REPLAY_LOG_BYTES,
  timeBasedSeqBase,
} from './change-bus.ts';

interface TopicState {
  seq: number;
  /** Recent batches, oldest first, at most `logLength` and `logBytes`. */
  log: Array<{ batch: ChangeBatch; bytes: number }>;
  logBytes: number;
  listeners: Set<BatchListener>;
  lastWriteAt: number;
}

export interface MemoryBusLimits {
  /** Bytes of batch JSON one topic's log keeps; default REPLAY_LOG_BYTES. */
  logBytes?: number;
  /** When a topic without listeners is forgotten after its last write; default IDLE_TOPIC_MS. */
  idleMs?: number;
  now?: () => number;
}

export interface MemoryChangeBus extends ChangeBus {
  /** Topics held now, and the bytes of all their logs: what the bounds keep bounded. */
  stats(): { topics: number; logBytes: number };
  /** Forgets the idle topics now (a timer does it every PRUNE_INTERVAL_MS). */
  prune(): void;
}

/** How often idle topics are looked for. */
const PRUNE_INTERVAL_MS = 15_000;

/**
 * The single-process bus: topics, sequence numbers and the replay log live in this process. Its
 * memory is bounded: a topic's log by batches and bytes, and a topic with no listener is dropped
 * at once if it never had a batch (subscribes to made-up ids), else once idle.
 */
export function createMemoryChangeBus(
  logLength = REPLAY_LOG_BATCHES,
  seqBase: () => number = timeBasedSeqBase,
  limits: MemoryBusLimits = {},
): MemoryChangeBus {
  const logBytesLimit = limits.logBytes ?? REPLAY_LOG_BYTES;
  const idleMs = limits.idleMs ?? IDLE_TOPIC_MS;
  const now = limits.now ?? Date.now;
  const topics = new Map<string, TopicState>();
  const topicState = (topic: string): TopicState => {
    let state = topics.get(topic);
    if (!state) {
      state = { seq: 0, log: [], logBytes: 0, listeners: new Set(), lastWriteAt: now() };
      topics.set(topic, state);
    }
    return state;
  };
  const prune = () => {
    const cutoff = now() - idleMs;
    for (const [topic, state] of topics)
      if (state.listeners.size === 0 && state.lastWriteAt <= cutoff) topics.delete(topic);
  };
  const pruner = setInterval(prune, PRUNE_INTERVAL_MS);
  pruner.unref();

  return {
    kind: 'memory',
    reachable: () => true,
    async publish(topic: string, changes: LiveChange[]) {
      const state = topicState(topic);
      if (state.seq === 0) state.seq = seqBase();
      state.seq += 1;
      state.lastWriteAt = now();
      const batch: ChangeBatch = { topic, seq: state.seq, changes };
      const bytes = JSON.stringify(changes).length;
      state.log.push({ batch, bytes });
      state.logBytes += bytes;
      // The newest batch stays even when alone it passes the byte bound: a resume just before it works.
      while (state.log.length > logLength || (state.logBytes > logBytesLimit && state.log.length > 1)) {
        state.logBytes -= state.log.shift()?.bytes ?? 0;
      }
      for (const listener of state.listeners) listener(batch);
      return state.seq;
    },
    async listen(topic: string, listener: BatchListener) {
      const state = topicState(topic);
      state.listeners.add(listener);
      return async () => {
        state.listeners.delete(listener);
        // Nothing to replay and nobody listening: nothing worth keeping (a made-up id's topic).
        if (state.listeners.size === 0 && state.seq === 0 && topics.get(topic) === state)
          topics.delete(topic);
      };
    },
    async currentSeq(topic: string) {
      return topics.get(topic)?.seq ?? 0;
    },
    async replay(topic: string, afterSeq: number) {
      const state = topics.get(topic);
      const current = state?.seq ?? 0;
      if (afterSeq > current) return null;
      if (afterSeq === current) return [];
      const log = state?.log ?? [];
      const oldest = log[0]?.batch.seq;
      if (oldest === undefined || oldest > afterSeq + 1) return null;
      return log.flatMap((entry) => (entry.batch.seq > afterSeq ? [entry.batch] : []));
    },
    async close() {
      clearInterval(pruner);
      topics.clear();
    },
    stats() {
      let logBytes = 0;
      for (const state of topics.values()) logBytes += state.logBytes;
      return { topics: topics.size, logBytes };
    },
    prune,
  };
}
