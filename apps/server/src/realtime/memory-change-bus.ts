import type { LiveChange } from '@vitrine/protocol';
import {
  type BatchListener,
  type ChangeBatch,
  type ChangeBus,
  REPLAY_LOG_BATCHES,
  timeBasedSeqBase,
} from './change-bus.ts';

interface TopicState {
  seq: number;
  /** Recent batches, oldest first, at most `logLength`. */
  log: ChangeBatch[];
  listeners: Set<BatchListener>;
}

/** The single-process bus: topics, sequence numbers and the replay log live in this process. */
export function createMemoryChangeBus(
  logLength = REPLAY_LOG_BATCHES,
  seqBase: () => number = timeBasedSeqBase,
): ChangeBus {
  const topics = new Map<string, TopicState>();
  const topicState = (topic: string): TopicState => {
    let state = topics.get(topic);
    if (!state) {
      state = { seq: 0, log: [], listeners: new Set() };
      topics.set(topic, state);
    }
    return state;
  };

  return {
    kind: 'memory',
    reachable: () => true,
    async publish(topic: string, changes: LiveChange[]) {
      const state = topicState(topic);
      if (state.seq === 0) state.seq = seqBase();
      state.seq += 1;
      const batch: ChangeBatch = { topic, seq: state.seq, changes };
      state.log.push(batch);
      if (state.log.length > logLength) state.log.shift();
      for (const listener of state.listeners) listener(batch);
      return state.seq;
    },
    async listen(topic: string, listener: BatchListener) {
      const state = topicState(topic);
      state.listeners.add(listener);
      return async () => {
        state.listeners.delete(listener);
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
      const oldest = log[0]?.seq;
      if (oldest === undefined || oldest > afterSeq + 1) return null;
      return log.filter((batch) => batch.seq > afterSeq);
    },
    async close() {
      topics.clear();
    },
  };
}
