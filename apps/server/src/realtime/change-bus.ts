import type { LiveChange } from '@vitrine/protocol';

/** Changes written to one topic in one publish, numbered by the topic's sequence. */
export interface ChangeBatch {
  topic: string;
  seq: number;
  changes: LiveChange[];
}

export type BatchListener = (batch: ChangeBatch) => void;

/** Who publishes (one outbox, one process) and the number of its batch on the topic. */
export interface RetryKey {
  source: string;
  batch: number;
}

/**
 * Carries document changes from the code that writes them to the live queries that follow the
 * topic, on this node and every other node. Each topic numbers its batches 1, 2, 3…; a short log
 * of recent batches lets a reconnecting client catch up. Listeners get a topic's batches in
 * sequence order.
 */
export interface ChangeBus {
  /**
   * `retryKey`, when given, makes a retry safe: a publish whose outcome is unknown (it timed out,
   * or the connection dropped after sending it) may have gone through; publishing again with the
   * same key then returns its seq instead of a second copy. One source publishes one batch of a
   * topic at a time, numbering them upwards.
   */
  publish(topic: string, changes: LiveChange[], retryKey?: RetryKey): Promise<number>;
  /** Delivers the topic's batches to `listener` from now on; the returned function stops that. */
  listen(topic: string, listener: BatchListener): Promise<() => Promise<void>>;
  /** The topic's latest sequence number; 0 before its first batch. */
  currentSeq(topic: string): Promise<number>;
  /**
   * The batches after `afterSeq`, oldest first, or null when the log no longer holds all of them
   * (or `afterSeq` is from a sequence this bus never issued), so the caller needs a snapshot.
   */
  replay(topic: string, afterSeq: number): Promise<ChangeBatch[] | null>;
  close(): Promise<void>;
  /**
   * Whether the bus's connections are up now (always, in process). While not, publishes fail
   * fast and the outbox keeps their changes; /readyz reports it.
   */
  reachable(): boolean;
  readonly kind: 'memory' | 'redis';
}

/**
 * Where a topic's numbering starts when it has none (first use, or after its keys expired or a
 * restart of the in-process bus): above every number issued before, so a client resuming with an
 * older number never gets another era's batches, only a fresh snapshot.
 */
export const timeBasedSeqBase = () => Date.now() * 1000;

/** How many batches per topic the replay log keeps. */
export const REPLAY_LOG_BATCHES = 1000;
/**
 * The most a topic's replay log holds, in bytes of its batches' JSON: a topic of large documents
 * (a checkout re-sent on every ping) keeps fewer batches; older resumes get a fresh snapshot.
 */
export const REPLAY_LOG_BYTES = 256 * 1024;
/**
 * A topic nobody listens to and nobody wrote for this long is forgotten by the in-process bus (its
 * numbering starts above the old one if it comes back, so old resumes get a snapshot).
 */
export const IDLE_TOPIC_MS = 60_000;
