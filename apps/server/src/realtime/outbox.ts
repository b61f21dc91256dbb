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
  /** Tells the writer its changes were tried once (or need not be waited for). */
  release: () => void;
}

interface TopicQueue {
  batches: QueuedBatch[];
  /** True while the head batch waits for a retry. */
  failing: boolean;
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
  /** Queues a committed transaction's batches; call in commit order. Resolves when the writer may return. */
  enqueue(batches: readonly StagedBatch[]): Promise<void>;
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
      await publishHead(topic, queue, head);
      head.release();
      queue.batches.shift();
    }
    queues.delete(topic);
  }

  return {
    enqueue(batches) {
      const tried: Promise<void>[] = [];
      for (const { topic, changes } of batches) {
        if (changes.length === 0) continue;
        let release = () => {};
        tried.push(
          new Promise<void>((resolve) => {
            release = resolve;
          }),
        );
        const queued = { changes, release };
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
      return writesAwaitPublish ? Promise.all(tried).then(() => undefined) : Promise.resolve();
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

/**
 * `db` with the outbox: each transaction collects what `tx.publish` stages and hands it to the
 * outbox in commit order (the database's afterCommit); a rollback drops it.
 */
export function withOutbox(db: Database, outbox: Outbox): OutboxDatabase {
  return {
    query: <Row>(sql: string, params?: readonly unknown[]) => db.query<Row>(sql, params),
    async transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
      const staged: StagedBatch[] = [];
      let open = true;
      let published: Promise<void> = Promise.resolve();
      try {
        const result = await db.transaction(
          (tx) =>
            work({
              query: <Row>(sql: string, params?: readonly unknown[]) => tx.query<Row>(sql, params),
              publish(topic, changes) {
                if (!open) throw new Error(`publish on "${topic}" after its transaction ended`);
                staged.push({ topic, changes });
              },
            }),
          () => {
            open = false;
            published = outbox.enqueue(staged);
          },
        );
        await published;
        return result;
      } finally {
        open = false;
      }
    },
  };
}
