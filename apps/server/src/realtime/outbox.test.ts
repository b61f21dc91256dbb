import type { LiveChange } from '@vitrine/protocol';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { openTestDatabase } from '../test-support/test-app.ts';
import type { ChangeBatch, ChangeBus } from './change-bus.ts';
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
  let attempts = 0;
  const bus: ChangeBus = {
    ...memory,
    async publish(topic, changes) {
      attempts += 1;
      if (failuresLeft > 0) {
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
    failNext(count: number) {
      failuresLeft = count;
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
  const outbox = createOutbox({ bus: testBus.bus, log: logged.log, retryDelaysMs: [1, 1, 1], ...options });
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
    const { data, received, failNext, attempts, warnings, errors } = setUp();
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
    expect(warnings).toEqual(['publishing changes failed; retrying', 'publishing changes failed; retrying']);
    expect(errors).toEqual([]);
  });

  it('drops a change after its last retry and goes on with the topic', async () => {
    const { data, received, failNext, errors } = setUp({ retryDelaysMs: [1] });
    const seen = await received('counters');
    failNext(2);
    await increment(data, 'a', 'counters');
    await waitFor(() => expect(errors).toHaveLength(1));
    await increment(data, 'a', 'counters');
    expect(docsOf(seen)).toEqual([{ id: 'a', value: 2 }]);
    expect(errors).toEqual(['publishing changes failed; dropped them (viewers catch up from a snapshot)']);
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
