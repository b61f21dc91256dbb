import { createHash, randomUUID } from 'node:crypto';
import type { LiveChange } from '@vitrine/protocol';
import type { Database, Queryable } from '../db/database.ts';
import type { ScheduleTimer } from '../schedule-timer.ts';
import type { ChangeBus } from './change-bus.ts';

/** A database transaction that can also stage live changes for the outbox. */
export interface Transaction extends Queryable {
  /**
   * Stages `changes` for `topic`: they reach the bus after COMMIT, after every change committed
   * before on the topic, and never when the transaction rolls back. Build `changes` from what
   * this transaction wrote or read, so they carry the committed document.
   */
  publish(topic: string, changes: LiveChange[]): void;
  /**
   * Counts the commit-order locks of the topics staged so far (which the transaction otherwise
   * takes just before COMMIT) as taken and returns them: the caller's next statement takes them, as
   * `pg_advisory_xact_lock(lockClass, key)` for each key in the order given (sorted), before any
   * contended row, which is then held for its statement and COMMIT only (a flash sale's product).
   * No keys on PGlite (one transaction at a time needs no commit-order locks).
   */
  claimTopicLocks(): TopicLocks;
}

/** Advisory locks a statement takes for the outbox (Transaction.claimTopicLocks). */
export interface TopicLocks {
  lockClass: number;
  keys: number[];
}

/**
 * The database as services write to it: the only way to publish a change is to stage it in one
 * of its transactions. Plain `query` writes publish nothing.
 */
export interface OutboxDatabase extends Queryable {
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
}

/** Where the outbox reports publishes that failed (the server's logger). */
export interface OutboxLog {
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

/** Retries of a failed publish: exponential from `firstDelayMs`, capped, each jittered. */
export interface OutboxRetry {
  firstDelayMs: number;
  maxDelayMs: number;
}

/**
 * The outbox retries a topic's failed publish for as long as the bus is down (issue 18): from
 * 100 ms, doubling, up to 5 s between tries, each delay between half and all of that.
 */
export const OUTBOX_RETRY: OutboxRetry = { firstDelayMs: 100, maxDelayMs: 5000 };

/** How much the outbox keeps while the bus is down: per topic and in total, in batches and bytes. */
export interface OutboxLimits {
  topicBatches: number;
  topicBytes: number;
  totalBatches: number;
  totalBytes: number;
}

/**
 * Bounds of what waits for the bus (a batch counts as its changes' JSON). Past one, the oldest
 * waiting batch is dropped with an error log; viewers recover it from a snapshot on reconnect.
 * A topic's 10,000 batches are a flash sale's minute or two of adds on one product.
 */
export const OUTBOX_LIMITS: OutboxLimits = {
  topicBatches: 10_000,
  topicBytes: 8 * 1024 * 1024,
  totalBatches: 100_000,
  totalBytes: 64 * 1024 * 1024,
};

/** At most one "dropped" error line per this long; the others are counted into the next one. */
const DROP_LOG_INTERVAL_MS = 5000;

export interface OutboxOptions {
  bus: ChangeBus;
  log: OutboxLog;
  /**
   * Whether a transaction returns only once its changes reached the bus (a viewer then sees a
   * change shortly after the HTTP response, as tests expect). Never while the bus is failing or
   * unreachable: a write does not wait on a failing bus. Off, writes never wait on the bus.
   */
  writesAwaitPublish?: boolean;
  retry?: OutboxRetry;
  limits?: Partial<OutboxLimits>;
  /** Timers of the retry waits; tests drive them (test-support/manual-timers.ts). */
  scheduleTimer?: ScheduleTimer;
  /** In [0, 1): the retry jitter. */
  random?: () => number;
  now?: () => number;
}

/** What the outbox holds now, for /readyz. */
export interface OutboxStats {
  /** Batches reserved and not yet published (or given up): committing, on their way, or waiting. */
  waitingBatches: number;
  waitingBytes: number;
  /** Topics whose publishes fail and are being retried. */
  failingTopics: number;
  /** Batches dropped since start because a bound was hit (or the server stopped during an outage). */
  dropped: number;
}

interface StagedBatch {
  topic: string;
  changes: LiveChange[];
}

interface QueuedBatch {
  topic: string;
  /** Its number among this outbox's batches: a retry of it says so to the bus (RetryKey). */
  number: number;
  changes: LiveChange[];
  bytes: number;
  /** `pending` while its transaction is at its COMMIT. */
  state: 'pending' | 'committed' | 'rolledBack';
  /** Settles when the state leaves `pending`: whether the transaction committed. */
  committed: Promise<boolean>;
  /** Tells the writer its changes were tried once (or need not be waited for). */
  release: () => void;
}

interface TopicQueue {
  batches: QueuedBatch[];
  bytes: number;
  /** True from a failed publish until the next one succeeds. */
  failing: boolean;
  /** Failed publishes in a row. */
  attempts: number;
  /** The batch on its way to the bus now (it cannot be dropped). */
  inFlight: QueuedBatch | null;
  /** Ends the current retry wait early; set while waiting. */
  wake: (() => void) | null;
}

/** A transaction's places in its topics' queues, taken just before its COMMIT. */
export interface Reservation {
  /** The transaction committed: its batches go out in turn. Resolves when the writer may return. */
  committed(): Promise<void>;
  /** The transaction rolled back (or its COMMIT failed): its places are given up, nothing is published. */
  rolledBack(): void;
}

/**
 * Publishes committed transactions' changes on the bus: per topic one queue, in commit order,
 * one batch on the bus at a time, a failed publish retried with capped backoff while later
 * batches of the topic wait behind it (so a viewer never sees an older document after a newer
 * one). While the bus is down the queues keep growing, within OUTBOX_LIMITS, and writers do not
 * wait; when it returns, every topic publishes what it kept, in order.
 *
 * The queue is in memory, not an outbox table: writing each change to a table inside the
 * transaction would cost every write on the hot path (comments, carts in a flash sale) another
 * row and a cleanup. What a crash loses is the changes committed but not yet published; viewers
 * recover them with a fresh snapshot when their socket reconnects to another node.
 */
export interface Outbox {
  /**
   * Takes a place in each topic's queue for a transaction about to COMMIT. Call in commit order:
   * withOutbox does, from inside the transaction after it has serialised its topics' commits.
   */
  reserve(batches: readonly StagedBatch[]): Reservation;
  /** Resolves when every queued batch was published or given up; stops retrying when `stop`. */
  drain(options?: { stop?: boolean }): Promise<void>;
  stats(): OutboxStats;
}

/** The real clock's timer, not keeping the process alive for a retry. */
const unrefTimer: ScheduleTimer = (callback, delayMs) => {
  const timer = setTimeout(() => void callback(), delayMs);
  timer.unref();
  return () => clearTimeout(timer);
};

export function createOutbox({
  bus,
  log,
  writesAwaitPublish = true,
  retry = OUTBOX_RETRY,
  limits: givenLimits,
  scheduleTimer = unrefTimer,
  random = Math.random,
  now = Date.now,
}: OutboxOptions): Outbox {
  const limits = { ...OUTBOX_LIMITS, ...givenLimits };
  /** Names this outbox's publishes on the bus, so a retry of one that went through is not doubled. */
  const source = randomUUID();
  let batchCount = 0;
  const queues = new Map<string, TopicQueue>();
  /** Every queued batch of every topic, oldest first (reservation order). */
  const all = new Set<QueuedBatch>();
  let totalBytes = 0;
  const running = new Set<Promise<void>>();
  let stopping = false;
  /** True from a failed publish on any topic until a publish succeeds. */
  let busFailing = false;
  let dropped = 0;
  let droppedUnlogged = { batches: 0, changes: 0 };
  let lastDropLogAt = Number.NEGATIVE_INFINITY;

  const retryDelay = (attempt: number) => {
    const ceiling = Math.min(retry.maxDelayMs, retry.firstDelayMs * 2 ** Math.min(attempt, 30));
    return ceiling / 2 + (random() * ceiling) / 2;
  };

  /** Waits `ms`, or less when woken (a publish succeeded elsewhere, or the server stops). */
  const pause = (queue: TopicQueue, ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        if (queue.wake !== wake) return;
        queue.wake = null;
        cancel();
        resolve();
      };
      queue.wake = wake;
      const cancel = scheduleTimer(wake, ms);
    });

  const wakeAll = () => {
    for (const queue of queues.values()) queue.wake?.();
  };

  /** Takes `batch` out of its queue and the totals; the writer, if waiting, returns. */
  const remove = (queue: TopicQueue, batch: QueuedBatch) => {
    const index = queue.batches.indexOf(batch);
    if (index === -1) return;
    queue.batches.splice(index, 1);
    queue.bytes -= batch.bytes;
    all.delete(batch);
    totalBytes -= batch.bytes;
    batch.release();
  };

  const reportDrops = (reason: 'limit' | 'stopping', force = false, fields: Record<string, unknown> = {}) => {
    const at = now();
    if (droppedUnlogged.batches === 0 || (!force && at - lastDropLogAt < DROP_LOG_INTERVAL_MS)) return;
    log.error(
      { ...fields, droppedBatches: droppedUnlogged.batches, droppedChanges: droppedUnlogged.changes, reason },
      reason === 'limit'
        ? 'the change bus is unreachable and the outbox is full; dropped the oldest changes (viewers catch up from a snapshot)'
        : 'stopping while the change bus is unreachable; dropped the changes still waiting (viewers catch up from a snapshot)',
    );
    lastDropLogAt = at;
    droppedUnlogged = { batches: 0, changes: 0 };
  };

  const drop = (batch: QueuedBatch) => {
    const queue = queues.get(batch.topic);
    if (!queue) return;
    remove(queue, batch);
    dropped += 1;
    droppedUnlogged.batches += 1;
    droppedUnlogged.changes += batch.changes.length;
  };

  /** The oldest batch that may be dropped: committed, and not on its way to the bus. */
  const oldestDroppable = (batches: Iterable<QueuedBatch>) => {
    for (const batch of batches) {
      if (batch.state === 'committed' && queues.get(batch.topic)?.inFlight !== batch) return batch;
    }
    return undefined;
  };

  const enforceLimits = (queue: TopicQueue) => {
    while (queue.batches.length > limits.topicBatches || queue.bytes > limits.topicBytes) {
      const oldest = oldestDroppable(queue.batches);
      if (!oldest) break;
      drop(oldest);
    }
    while (all.size > limits.totalBatches || totalBytes > limits.totalBytes) {
      const oldest = oldestDroppable(all);
      if (!oldest) break;
      drop(oldest);
    }
    reportDrops('limit');
  };

  async function run(topic: string, queue: TopicQueue): Promise<void> {
    for (let head = queue.batches[0]; head; head = queue.batches[0]) {
      const committed = await head.committed;
      // Dropped (or given up) while its COMMIT finished: the next one is the head now.
      if (queue.batches[0] !== head) continue;
      if (!committed) {
        remove(queue, head);
        continue;
      }
      queue.inFlight = head;
      let failure: { error: unknown } | null = null;
      try {
        await bus.publish(topic, head.changes, { source, batch: head.number });
      } catch (error) {
        failure = { error };
      } finally {
        queue.inFlight = null;
      }
      if (!failure) {
        remove(queue, head);
        if (queue.failing)
          log.warn({ topic, attempts: queue.attempts + 1 }, 'publishing changes works again');
        queue.failing = false;
        queue.attempts = 0;
        if (busFailing) {
          busFailing = false;
          // The bus is back: the other failing topics try now instead of at their next retry.
          wakeAll();
        }
        continue;
      }
      // Writers waiting on this topic return now; their changes stay queued behind this one.
      queue.failing = true;
      busFailing = true;
      for (const batch of queue.batches) batch.release();
      if (stopping) {
        for (const batch of [...queue.batches]) if (batch.state === 'committed') drop(batch);
        reportDrops('stopping', true, { err: failure.error, topic });
        continue;
      }
      const attempt = queue.attempts;
      queue.attempts += 1;
      // The first failure, then every power of two: an outage of minutes is a few lines per topic.
      if ((attempt & (attempt - 1)) === 0) {
        log.warn(
          { err: failure.error, topic, attempts: attempt + 1, waiting: queue.batches.length },
          'publishing changes failed; keeping them and retrying',
        );
      }
      await pause(queue, retryDelay(attempt));
    }
    queues.delete(topic);
  }

  return {
    reserve(batches) {
      let decide: (committed: boolean) => void = () => {};
      const committed = new Promise<boolean>((resolve) => {
        decide = resolve;
      });
      const queued: QueuedBatch[] = [];
      const tried: Promise<void>[] = [];
      // Writers wait only on a healthy bus.
      const waitForBus = writesAwaitPublish && !busFailing && bus.reachable();
      for (const { topic, changes } of batches) {
        if (changes.length === 0) continue;
        let release = () => {};
        tried.push(
          new Promise<void>((resolve) => {
            release = resolve;
          }),
        );
        batchCount += 1;
        const batch: QueuedBatch = {
          topic,
          number: batchCount,
          changes,
          bytes: Buffer.byteLength(JSON.stringify(changes)),
          state: 'pending',
          committed,
          release,
        };
        if (!waitForBus) release();
        queued.push(batch);
        all.add(batch);
        totalBytes += batch.bytes;
        let queue = queues.get(topic);
        if (queue) {
          queue.batches.push(batch);
          queue.bytes += batch.bytes;
          if (queue.failing) release();
        } else {
          queue = {
            batches: [batch],
            bytes: batch.bytes,
            failing: false,
            attempts: 0,
            inFlight: null,
            wake: null,
          };
          queues.set(topic, queue);
          const fresh = queue;
          const runner = run(topic, fresh).finally(() => running.delete(runner));
          running.add(runner);
        }
      }
      const settle = (state: 'committed' | 'rolledBack') => {
        for (const batch of queued) batch.state = state;
        decide(state === 'committed');
      };
      return {
        committed() {
          settle('committed');
          for (const batch of queued) {
            const queue = queues.get(batch.topic);
            if (queue) enforceLimits(queue);
          }
          return writesAwaitPublish ? Promise.all(tried).then(() => undefined) : Promise.resolve();
        },
        rolledBack() {
          settle('rolledBack');
        },
      };
    },

    async drain({ stop = false } = {}) {
      if (stop) {
        stopping = true;
        wakeAll();
      }
      while (running.size > 0) await Promise.all([...running]);
      reportDrops('stopping', true);
    },

    stats() {
      let failingTopics = 0;
      for (const queue of queues.values()) if (queue.failing) failingTopics += 1;
      return { waitingBatches: all.size, waitingBytes: totalBytes, failingTopics, dropped };
    },
  };
}

/** The class of the outbox's advisory locks (the first key of pg_advisory_xact_lock(int, int)). */
const TOPIC_COMMIT_LOCK_CLASS = 0x0b0c;

/** A topic's advisory lock key: 32 bits of its hash (a collision only serialises two topics). */
const topicLockKey = (topic: string) => createHash('sha1').update(topic).digest().readInt32BE(0);

/**
 * `db` with the outbox: each transaction collects what `tx.publish` stages and, just before its
 * COMMIT, takes its place in the topics' queues; the places are filled when COMMIT succeeded and
 * given up when it did not. Places are taken in commit order: PGlite runs one transaction at a
 * time, and on PostgreSQL each transaction first takes its topics' advisory locks, which it holds
 * until COMMIT, so a later transaction on a topic reserves only once the earlier one committed.
 * (That serialises only the COMMITs of transactions sharing a topic, not their work.)
 */
export function withOutbox(db: Database, outbox: Outbox): OutboxDatabase {
  return {
    query: <Row>(sql: string, params?: readonly unknown[]) => db.query<Row>(sql, params),
    async transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
      const staged: StagedBatch[] = [];
      let open = true;
      let reservation: Reservation | undefined;
      /** Topic lock keys this transaction holds already, or a statement of its caller takes (claimTopicLocks). */
      const locked = new Set<number>();
      try {
        const result = await db.transaction(async (tx) => {
          /** Keys of the staged topics not locked yet, sorted. */
          const unlocked = () =>
            [...new Set(staged.map((batch) => topicLockKey(batch.topic)))]
              .filter((key) => !locked.has(key))
              .sort((a, b) => a - b);
          const lockStaged = async () => {
            if (db.kind !== 'postgres') return;
            // Sorted, so two transactions sharing topics take their locks in one order (no deadlock).
            // Keys claimed early are not taken again. Topics staged after a claim are locked here,
            // which can break that order (PostgreSQL then aborts one as a deadlock), so claim after
            // the transaction's last publish.
            const keys = unlocked();
            if (keys.length === 0) return;
            await tx.query('SELECT pg_advisory_xact_lock($1, key) FROM unnest($2::int[]) AS key', [
              TOPIC_COMMIT_LOCK_CLASS,
              keys,
            ]);
            for (const key of keys) locked.add(key);
          };
          const result = await work({
            query: <Row>(sql: string, params?: readonly unknown[]) => tx.query<Row>(sql, params),
            publish(topic, changes) {
              if (!open) throw new Error(`publish on "${topic}" after its transaction ended`);
              if (changes.length > 0) staged.push({ topic, changes });
            },
            claimTopicLocks() {
              const keys = db.kind === 'postgres' ? unlocked() : [];
              for (const key of keys) locked.add(key);
              return { lockClass: TOPIC_COMMIT_LOCK_CLASS, keys };
            },
          });
          open = false;
          if (staged.length === 0) return result;
          await lockStaged();
          reservation = outbox.reserve(staged);
          return result;
        });
        await reservation?.committed();
        return result;
      } catch (error) {
        reservation?.rolledBack();
        throw error;
      } finally {
        open = false;
      }
    },
  };
}
