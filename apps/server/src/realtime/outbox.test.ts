import type { LiveChange } from '@vitrine/protocol';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { manualTimers } from '../test-support/manual-timers.ts';
import { openTestDatabase } from '../test-support/test-app.ts';
import type { ChangeBatch, ChangeBus, RetryKey } from './change-bus.ts';
import { createMemoryChangeBus } from './memory-change-bus.ts';
import { createOutbox, type OutboxDatabase, type OutboxOptions, withOutbox } from './outbox.ts';

type TestDatabase = Awaited<ReturnType<typeof openTestDatabase>>;

let db: TestDatabase;

beforeAll(async () => {
  db = await openTestDatabase();
  await db.exec(`
    CREATE TABLE outbox_test_counters (id TEXT PRIMARY KEY, value INTEGER NOT NULL);
    CREATE TABLE outbox_test_names (name TEXT, UNIQUE (name) DEFERRABLE INITIALLY DEFERRED);
  `);
});

afterAll(async () => {
  await db.dispose();
});

beforeEach(async () => {
  await db.query('DELETE FROM outbox_test_counters');
  await db.query(`INSERT INTO outbox_test_counters (id, value) VALUES ('a', 0), ('b', 0), ('c', 0)`);
});

const waitFor = <T>(check: () => T) => vi.waitFor(check, { timeout: 5000, interval: 5 });

/** A promise and the function that settles it. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

/**
 * The real memory bus behind a test peer of ChangeBus that can fail the next publishes or hold a
 * topic's publishes until released; what listeners receive is the memory bus's own delivery.
 */
function createTestBus() {
  const memory = createMemoryChangeBus(undefined, () => 0);
  const held = new Map<string, Promise<void>>();
  let failuresLeft = 0;
  let down = false;
  let reachable = true;
  let attempts = 0;
  const retryKeys: (RetryKey | undefined)[] = [];
  const bus: ChangeBus = {
    ...memory,
    reachable: () => reachable,
    async publish(topic, changes, retryKey) {
      attempts += 1;
      retryKeys.push(retryKey);
      if (down || failuresLeft > 0) {
        failuresLeft -= 1;
        throw new Error('bus unavailable');
      }
      await held.get(topic);
      return memory.publish(topic, changes);
    },
  };
  return {
    bus,
    attempts: () => attempts,
    /** The RetryKey of each publish attempt, in order. */
    retryKeys,
    failNext(count: number) {
      failuresLeft = count;
    },
    /** Fails every publish (and says it is unreachable) until called with false. */
    setDown(value: boolean) {
      down = value;
      reachable = !value;
    },
    /** What the bus says of its connections, publishes aside. */
    setReachable(value: boolean) {
      reachable = value;
    },
    /** Holds publishes on `topic` until the returned function is called. */
    hold(topic: string) {
      const { open, opened } = gate();
      held.set(topic, opened);
      return () => {
        held.delete(topic);
        open();
      };
    },
    /** The batches listeners of `topic` receive from now on. */
    async received(topic: string) {
      const batches: ChangeBatch[] = [];
      await bus.listen(topic, (batch) => batches.push(batch));
      return batches;
    },
  };
}

function createLog() {
  const warnings: string[] = [];
  const errors: string[] = [];
  return {
    warnings,
    errors,
    log: {
      warn: (_fields: Record<string, unknown>, message: string) => warnings.push(message),
      error: (_fields: Record<string, unknown>, message: string) => errors.push(message),
    },
  };
}

function setUp(options: Partial<OutboxOptions> = {}) {
  const testBus = createTestBus();
  const logged = createLog();
  const outbox = createOutbox({
    bus: testBus.bus,
    log: logged.log,
    retry: { firstDelayMs: 1, maxDelayMs: 1 },
    ...options,
  });
  return { ...testBus, ...logged, outbox, data: withOutbox(db, outbox) };
}

const modified = (id: string, value: number): LiveChange[] => [
  { type: 'modified', docId: id, doc: { id, value } },
];

const docsOf = (batches: ChangeBatch[]) =>
  batches.flatMap((batch) => batch.changes.map((change) => change.doc));

/** Adds one to a counter and stages its committed value on `topic`. */
async function increment(
  data: OutboxDatabase,
  id: string,
  topic: string,
  beforeCommit?: () => Promise<void>,
) {
  return data.transaction(async (tx) => {
    const [row] = await tx.query<{ value: number }>(
      'UPDATE outbox_test_counters SET value = value + 1 WHERE id = $1 RETURNING value',
      [id],
    );
    const value = row?.value ?? -1;
    tx.publish(topic, modified(id, value));
    await beforeCommit?.();
    return value;
  });
}

describe('the outbox', () => {
  it('publishes nothing for a rolled-back transaction', async () => {
    const { data, received } = setUp();
    const seen = await received('counters');
    await expect(
      data.transaction(async (tx) => {
        await tx.query(`UPDATE outbox_test_counters SET value = 99 WHERE id = 'a'`);
        tx.publish('counters', modified('a', 99));
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    // The next commit on the topic goes through, and it is all the topic ever saw.
    await increment(data, 'b', 'counters');
    expect(docsOf(seen)).toEqual([{ id: 'b', value: 1 }]);
    expect(await db.query(`SELECT value FROM outbox_test_counters WHERE id = 'a'`)).toEqual([{ value: 0 }]);
  });

  it('publishes nothing when COMMIT itself fails, and goes on with the topic', async () => {
    const { data, received } = setUp();
    const seen = await received('counters');
    await expect(
      data.transaction(async (tx) => {
        // The deferred unique check runs at COMMIT, after the transaction took its place in the queue.
        await tx.query(`INSERT INTO outbox_test_names (name) VALUES ('twice'), ('twice')`);
        tx.publish('counters', modified('a', 99));
      }),
    ).rejects.toThrow(/unique/);
    await increment(data, 'a', 'counters');
    expect(docsOf(seen)).toEqual([{ id: 'a', value: 1 }]);
  });

  it('publishes nothing before COMMIT', async () => {
    const { data, received, bus } = setUp();
    const seen = await received('counters');
    const staged = gate();
    const commit = gate();
    const writing = increment(data, 'a', 'counters', async () => {
      staged.open();
      await commit.opened;
    });
    await staged.opened;
    // The transaction is open with its change staged: the bus has not heard of it.
    expect(seen).toEqual([]);
    expect(await bus.currentSeq('counters')).toBe(0);
    commit.open();
    expect(await writing).toBe(1);
    // The write returned after its change reached the bus (today's behaviour).
    expect(docsOf(seen)).toEqual([{ id: 'a', value: 1 }]);
  });

  it('publishes concurrent transactions on one topic in commit order', async () => {
    const { data, received } = setUp();
    const seen = await received('counters');
    const first = gate();
    const firstStaged = gate();
    // A takes the row and stays open; B waits for A's lock (PostgreSQL) or A's turn (PGlite).
    const a = increment(data, 'a', 'counters', async () => {
      firstStaged.open();
      await first.opened;
    });
    await firstStaged.opened;
    const b = increment(data, 'a', 'counters');
    first.open();
    expect(await Promise.all([a, b])).toEqual([1, 2]);
    expect(docsOf(seen)).toEqual([
      { id: 'a', value: 1 },
      { id: 'a', value: 2 },
    ]);

    // Many at once: viewers see every committed value, in order, ending with the latest.
    const values = await Promise.all(Array.from({ length: 20 }, () => increment(data, 'a', 'counters')));
    expect(values.sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 3));
    expect(docsOf(seen).map((doc) => (doc as { value: number }).value)).toEqual(
      Array.from({ length: 22 }, (_, i) => i + 1),
    );
  });

  it('keeps a later commit behind an earlier one still on its way to the bus, on that topic only', async () => {
    const { data, received, hold, attempts } = setUp();
    const counters = await received('counters');
    const other = await received('other');
    const release = hold('counters');
    const a = increment(data, 'a', 'counters');
    // A committed and its publish is on its way (held); then B commits.
    await waitFor(() => expect(attempts()).toBe(1));
    const b = increment(data, 'b', 'counters');
    await waitFor(async () =>
      expect(await db.query(`SELECT value FROM outbox_test_counters WHERE id = 'b'`)).toEqual([{ value: 1 }]),
    );
    await increment(data, 'c', 'other');
    expect(docsOf(other)).toEqual([{ id: 'c', value: 1 }]);
    expect(counters).toEqual([]);
    release();
    await Promise.all([a, b]);
    expect(docsOf(counters)).toEqual([
      { id: 'a', value: 1 },
      { id: 'b', value: 1 },
    ]);
  });

  it('retries a failed publish, so a bus that recovers gets the change once, before later ones', async () => {
    const { data, received, failNext, attempts, retryKeys, warnings, errors } = setUp();
    const seen = await received('counters');
    failNext(2);
    // The write does not wait for the retries.
    expect(await increment(data, 'a', 'counters')).toBe(1);
    const later = increment(data, 'a', 'counters');
    await waitFor(() => expect(seen).toHaveLength(2));
    await later;
    expect(docsOf(seen)).toEqual([
      { id: 'a', value: 1 },
      { id: 'a', value: 2 },
    ]);
    expect(attempts()).toBe(4);
    // Each retry names the same batch, so a bus where a failed-looking attempt went through
    // publishes it once (see the Redis bus's contract test).
    const [first, second, third, fourth] = retryKeys;
    expect(second).toEqual(first);
    expect(third).toEqual(first);
    expect(fourth?.source).toBe(first?.source);
    expect(fourth?.batch).toBeGreaterThan(first?.batch ?? Number.POSITIVE_INFINITY);
    expect(warnings).toEqual([
      'publishing changes failed; keeping them and retrying',
      'publishing changes failed; keeping them and retrying',
      'publishing changes works again',
    ]);
    expect(errors).toEqual([]);
  });

  it('lets writes return without waiting for the bus when writesAwaitPublish is off', async () => {
    const { data, received, hold, outbox } = setUp({ writesAwaitPublish: false });
    const seen = await received('counters');
    const release = hold('counters');
    expect(await increment(data, 'a', 'counters')).toBe(1);
    expect(seen).toEqual([]);
    release();
    await outbox.drain();
    expect(docsOf(seen)).toEqual([{ id: 'a', value: 1 }]);
  });

  it("claimTopicLocks hands the staged topics' locks to a statement of the caller, once", async () => {
    const { data, received } = setUp();
    const seen = await received('counters');
    const claims: number[][] = [];
    await data.transaction(async (tx) => {
      tx.publish('counters', modified('a', 8));
      const locks = tx.claimTopicLocks();
      claims.push(locks.keys);
      await tx.query('SELECT pg_advisory_xact_lock($1, key) FROM unnest($2::int[]) AS key', [
        locks.lockClass,
        locks.keys,
      ]);
      // Claimed once: neither a second claim nor COMMIT takes them again.
      claims.push(tx.claimTopicLocks().keys);
    });
    expect(claims.map((keys) => keys.length)).toEqual(db.kind === 'postgres' ? [1, 0] : [0, 0]);
    expect(docsOf(seen)).toEqual([{ id: 'a', value: 8 }]);
  });

  it('refuses a publish after its transaction ended', async () => {
    const { data } = setUp();
    let escaped: Parameters<Parameters<OutboxDatabase['transaction']>[0]>[0] | undefined;
    await data.transaction(async (tx) => {
      escaped = tx;
    });
    expect(() => escaped?.publish('counters', modified('a', 1))).toThrow(
      'publish on "counters" after its transaction ended',
    );
  });
});

describe('the outbox while the bus is down', () => {
  /** An outbox whose retry waits the test fires; the jitter takes the whole delay. */
  function setUpDown(options: Partial<OutboxOptions> = {}) {
    const timers = manualTimers();
    const setup = setUp({
      retry: { firstDelayMs: 100, maxDelayMs: 5000 },
      scheduleTimer: timers.schedule,
      random: () => 0.999_999,
      ...options,
    });
    /** Waits until every failing topic waits for its retry, then fires them. */
    const retryAll = async (topics = 1) => {
      await waitFor(() => expect(timers.pendingDelays()).toHaveLength(topics));
      await timers.fireAll();
    };
    return { ...setup, timers, retryAll };
  }

  it('retries with capped, jittered exponential backoff for as long as it takes, then publishes in order', async () => {
    const { data, received, setDown, timers, retryAll, warnings, errors, outbox } = setUpDown();
    const seen = await received('counters');
    setDown(true);
    const started = performance.now();
    for (let i = 0; i < 3; i++) await increment(data, 'a', 'counters');
    // Writers never waited on the failing bus (no timer fired).
    expect(performance.now() - started).toBeLessThan(2000);
    expect(outbox.stats()).toMatchObject({ waitingBatches: 3, failingTopics: 1, dropped: 0 });
    const delays: number[] = [];
    for (let i = 0; i < 12; i++) {
      await waitFor(() => expect(timers.pendingDelays()).toHaveLength(1));
      delays.push(...timers.pendingDelays().map(Math.round));
      await timers.fireAll();
    }
    expect(delays).toEqual([100, 200, 400, 800, 1600, 3200, 5000, 5000, 5000, 5000, 5000, 5000]);
    expect(seen).toEqual([]);
    // A few lines for a long outage: the 1st, 2nd, 4th, 8th… failure.
    expect(warnings).toHaveLength(5);

    setDown(false);
    await retryAll();
    await outbox.drain();
    expect(docsOf(seen)).toEqual([1, 2, 3].map((value) => ({ id: 'a', value })));
    expect(outbox.stats()).toEqual({ waitingBatches: 0, waitingBytes: 0, failingTopics: 0, dropped: 0 });
    expect(errors).toEqual([]);
  });

  it('jitters each delay between half and all of its step', async () => {
    const { data, setDown, timers, retryAll } = setUpDown({ random: () => 0 });
    setDown(true);
    await increment(data, 'a', 'counters');
    await waitFor(() => expect(timers.pendingDelays()).toEqual([50]));
    await retryAll();
    await waitFor(() => expect(timers.pendingDelays()).toEqual([100]));
    setDown(false);
    await retryAll();
  });

  it('a writer does not wait for a publish while the bus is unreachable', async () => {
    const { data, received, setReachable, hold, outbox } = setUpDown();
    const seen = await received('counters');
    // The first write of a topic, its publish hanging: the bus says it is unreachable.
    setReachable(false);
    const release = hold('counters');
    expect(await increment(data, 'a', 'counters')).toBe(1);
    expect(seen).toEqual([]);
    release();
    setReachable(true);
    await outbox.drain();
    expect(docsOf(seen)).toEqual([{ id: 'a', value: 1 }]);
  });

  it('when the bus returns, a publish that works wakes the other topics waiting for a retry', async () => {
    const { data, received, setDown, timers, outbox } = setUpDown();
    const first = await received('first');
    const second = await received('second');
    setDown(true);
    await increment(data, 'a', 'first');
    await increment(data, 'b', 'second');
    await waitFor(() => expect(timers.pendingDelays()).toHaveLength(2));
    setDown(false);
    // A new topic publishes at once, and the waiting ones follow without their timers.
    await increment(data, 'c', 'third');
    await waitFor(() => expect(docsOf(first)).toEqual([{ id: 'a', value: 1 }]));
    await waitFor(() => expect(docsOf(second)).toEqual([{ id: 'b', value: 1 }]));
    expect(timers.pendingDelays()).toEqual([]);
    await outbox.drain();
  });

  it('keeps at most topicBatches per topic: the oldest go, with one error line, the rest in order', async () => {
    let clock = 0;
    const { data, received, setDown, retryAll, errors, outbox } = setUpDown({
      limits: { topicBatches: 3 },
      now: () => clock,
    });
    const seen = await received('counters');
    setDown(true);
    for (let i = 0; i < 6; i++) await increment(data, 'a', 'counters');
    expect(outbox.stats()).toMatchObject({ waitingBatches: 3, dropped: 3 });
    // Logged at the first drop, the next two counted into a later line.
    expect(errors).toEqual([
      'the change bus is unreachable and the outbox is full; dropped the oldest changes (viewers catch up from a snapshot)',
    ]);
    clock += 10_000;
    await increment(data, 'a', 'counters');
    expect(errors).toHaveLength(2);
    setDown(false);
    await retryAll();
    await outbox.drain();
    expect(docsOf(seen)).toEqual([5, 6, 7].map((value) => ({ id: 'a', value })));
  });

  it('bounds the bytes of a topic and of all topics together, dropping the oldest first', async () => {
    const oneBatch = Buffer.byteLength(JSON.stringify(modified('a', 1)));
    // Total bound: three batches' bytes across both topics.
    const bounded = setUpDown({ limits: { totalBytes: oneBatch * 3 } });
    const boundedCounters = await bounded.received('counters');
    const boundedOther = await bounded.received('other');
    bounded.setDown(true);
    await increment(bounded.data, 'a', 'counters');
    await increment(bounded.data, 'b', 'other');
    await increment(bounded.data, 'a', 'counters');
    await increment(bounded.data, 'b', 'other');
    expect(bounded.outbox.stats()).toMatchObject({
      waitingBatches: 3,
      waitingBytes: oneBatch * 3,
      dropped: 1,
    });
    bounded.setDown(false);
    await bounded.retryAll(2);
    await bounded.outbox.drain();
    // The oldest of all (counters' first) went.
    expect(docsOf(boundedCounters)).toEqual([{ id: 'a', value: 2 }]);
    expect(docsOf(boundedOther)).toEqual([
      { id: 'b', value: 1 },
      { id: 'b', value: 2 },
    ]);

    // Per-topic bytes: one topic's flood does not push out another's changes.
    const perTopic = setUpDown({ limits: { topicBytes: oneBatch * 2 } });
    const perCounters = await perTopic.received('counters');
    const perOther = await perTopic.received('other');
    perTopic.setDown(true);
    await increment(perTopic.data, 'b', 'other');
    for (let i = 0; i < 4; i++) await increment(perTopic.data, 'a', 'counters');
    expect(perTopic.outbox.stats()).toMatchObject({ waitingBatches: 3, dropped: 2 });
    perTopic.setDown(false);
    await perTopic.retryAll(2);
    await perTopic.outbox.drain();
    expect(docsOf(perCounters).map((doc) => (doc as { value: number }).value)).toEqual([5, 6]);
    expect(docsOf(perOther)).toEqual([{ id: 'b', value: 3 }]);
  });

  it('stopping while the bus is down gives up what waits, with an error', async () => {
    const { data, setDown, errors, outbox } = setUpDown();
    setDown(true);
    await increment(data, 'a', 'counters');
    await increment(data, 'a', 'counters');
    await outbox.drain({ stop: true });
    expect(outbox.stats()).toMatchObject({ waitingBatches: 0, dropped: 2 });
    expect(errors).toEqual([
      'stopping while the change bus is unreachable; dropped the changes still waiting (viewers catch up from a snapshot)',
    ]);
  });
});
