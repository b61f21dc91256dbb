import { createHash } from 'node:crypto';
import type { LiveChange } from '@vitrine/protocol';
import type { Database, Queryable } from '../db/database.ts';
import type { ChangeBus } from './change-bus.ts';

/** A database transaction that can also stage live changes for the outbox. */
export interface Transaction extends Queryable {
  /**
   * Stages `changes` for `topic`: they reach the bus after COMMIT, after every change committed
   * before on the topic, and never when the transaction rolls back. Build `changes` from what
   * this transaction wrote or read, so they carry the committed document.
   */
  publish(topic: string, changes: LiveChange[]): void;
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

/** How long the outbox waits before each retry of a failed publish; after the last it drops the changes. */
export const OUTBOX_RETRY_DELAYS_MS: readonly number[] = [100, 250, 500, 1000, 2000, 5000];

export interface OutboxOptions {
  bus: ChangeBus;
  log: OutboxLog;
  /**
   * Whether a transaction returns only once its changes reached the bus (a viewer then sees a
   * change shortly after the HTTP response, as tests expect). Never while the topic's publishes
   * are failing: a write does not wait on a failing bus. Off, writes never wait on the bus (issue 18).
   */
  writesAwaitPublish?: boolean;
  retryDelaysMs?: readonly number[];
}

interface StagedBatch {
  topic: string;
  changes: LiveChange[];
}

interface QueuedBatch {
  changes: LiveChange[];
  /** Whether its transaction committed; unsettled while the transaction is at its COMMIT. */
  committed: Promise<boolean>;
  /** Tells the writer its changes were tried once (or need not be waited for). */
  release: () => void;
}

interface TopicQueue {
  batches: QueuedBatch[];
  /** True while the head batch waits for a retry. */
  failing: boolean;
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
 * one batch on the bus at a time, a failed publish retried with backoff while later batches of
 * the topic wait behind it (so a viewer never sees an older document after a newer one).
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
}

export function createOutbox({
  bus,
  log,
  writesAwaitPublish = true,
  retryDelaysMs = OUTBOX_RETRY_DELAYS_MS,
}: OutboxOptions): Outbox {
  const queues = new Map<string, TopicQueue>();
  const running = new Set<Promise<void>>();
  let stopping = false;
  /** Cuts retry waits short when the server stops. */
  const wakeups = new Set<() => void>();

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        wakeups.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      timer.unref?.();
      wakeups.add(wake);
    });

  async function publishHead(topic: string, queue: TopicQueue, head: QueuedBatch): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await bus.publish(topic, head.changes);
        queue.failing = false;
        return;
      } catch (error) {
        // Writers waiting on this topic return now; their changes stay queued behind this one.
        queue.failing = true;
        for (const batch of queue.batches) batch.release();
        const delay = retryDelaysMs[attempt];
        if (delay === undefined || stopping) {
          log.error(
            { err: error, topic, changes: head.changes.length, attempts: attempt + 1 },
            'publishing changes failed; dropped them (viewers catch up from a snapshot)',
          );
          return;
        }
        log.warn({ err: error, topic, attempt: attempt + 1 }, 'publishing changes failed; retrying');
        await pause(delay);
      }
    }
  }

  async function run(topic: string, queue: TopicQueue): Promise<void> {
    for (let head = queue.batches[0]; head; head = queue.batches[0]) {
      if (await head.committed) await publishHead(topic, queue, head);
      head.release();
      queue.batches.shift();
    }
    queues.delete(topic);
  }

  return {
    reserve(batches) {
      let decide: (committed: boolean) => void = () => {};
      const committed = new Promise<boolean>((resolve) => {
        decide = resolve;
      });
      const tried: Promise<void>[] = [];
      for (const { topic, changes } of batches) {
        if (changes.length === 0) continue;
        let release = () => {};
        tried.push(
          new Promise<void>((resolve) => {
            release = resolve;
          }),
        );
        const queued: QueuedBatch = { changes, committed, release };
        const queue = queues.get(topic);
        if (queue) {
          queue.batches.push(queued);
          if (queue.failing) release();
          continue;
        }
        const fresh: TopicQueue = { batches: [queued], failing: false };
        queues.set(topic, fresh);
        const runner = run(topic, fresh).finally(() => running.delete(runner));
        running.add(runner);
      }
      return {
        committed() {
          decide(true);
          return writesAwaitPublish ? Promise.all(tried).then(() => undefined) : Promise.resolve();
        },
        rolledBack() {
          decide(false);
        },
      };
    },

    async drain({ stop = false } = {}) {
      if (stop) {
        stopping = true;
        for (const wake of [...wakeups]) wake();
      }
      while (running.size > 0) await Promise.all([...running]);
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
      try {
        const result = await db.transaction(async (tx) => {
          const result = await work({
            query: <Row>(sql: string, params?: readonly unknown[]) => tx.query<Row>(sql, params),
            publish(topic, changes) {
              if (!open) throw new Error(`publish on "${topic}" after its transaction ended`);
              if (changes.length > 0) staged.push({ topic, changes });
            },
          });
          open = false;
          if (staged.length === 0) return result;
          if (db.kind === 'postgres') {
            // Sorted, so two transactions sharing topics take their locks in one order (no deadlock).
            const keys = [...new Set(staged.map((batch) => topicLockKey(batch.topic)))].sort((a, b) => a - b);
            await tx.query('SELECT pg_advisory_xact_lock($1, key) FROM unnest($2::int[]) AS key', [
              TOPIC_COMMIT_LOCK_CLASS,
              keys,
            ]);
          }
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
