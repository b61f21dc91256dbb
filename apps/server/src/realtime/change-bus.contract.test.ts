import { randomUUID } from 'node:crypto';
import type { LiveChange } from '@vitrine/protocol';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { redisReachable, requireRedis, TEST_REDIS_URL } from '../test-support/redis-prerequisite.ts';
import type { ChangeBatch, ChangeBus } from './change-bus.ts';
import { createMemoryChangeBus } from './memory-change-bus.ts';
import { createRedisChangeBus } from './redis-change-bus.ts';

const REDIS_URL = TEST_REDIS_URL;
/** Every Redis bus of this file shares it (like the nodes of one deployment); removed in afterAll. */
const PREFIX = `vitrine-test:${randomUUID()}:`;

const errors: Error[] = [];
const open: ChangeBus[] = [];

interface Implementation {
  name: 'memory' | 'redis';
  create(logLength?: number, logBytes?: number): Promise<ChangeBus>;
}

const createRedis = (options: { logLength?: number; logBytes?: number; connectionName?: string } = {}) =>
  createRedisChangeBus({
    url: REDIS_URL,
    keyPrefix: PREFIX,
    // Numbering from 1 keeps the expectations readable; the time base has its own test below.
    seqBase: () => 0,
    ...options,
    onError: (error) => errors.push(error),
  });

const implementations: Implementation[] = [
  {
    name: 'memory',
    create: async (logLength, logBytes) =>
      createMemoryChangeBus(logLength, () => 0, logBytes === undefined ? {} : { logBytes }),
  },
  { name: 'redis', create: (logLength, logBytes) => createRedis({ logLength, logBytes }) },
];

async function track(bus: Promise<ChangeBus>): Promise<ChangeBus> {
  const created = await bus;
  open.push(created);
  return created;
}

let topicCount = 0;
/** A topic no other test (or earlier run) has used. */
const newTopic = () => `topic-${++topicCount}-${randomUUID().slice(0, 8)}`;

const change = (i: number, doc: unknown = { i }): LiveChange => ({ type: 'added', docId: `doc-${i}`, doc });

async function collect(bus: ChangeBus, topic: string) {
  const batches: ChangeBatch[] = [];
  const stop = await bus.listen(topic, (batch) => batches.push(batch));
  return { batches, stop, seqs: () => batches.map((batch) => batch.seq) };
}

const waitFor = <T>(check: () => T) => vi.waitFor(check, { timeout: 5000, interval: 5 });

/** Resolves once the wall clock reads later than `ms` (time-based sequence numbers have moved on). */
const clockPassed = (ms: number) =>
  vi.waitFor(() => expect(Date.now()).toBeGreaterThan(ms), { timeout: 1000, interval: 1 });

beforeAll(requireRedis);

afterEach(async () => {
  await Promise.all(open.splice(0).map((bus) => bus.close()));
});

describe.each(implementations)('$name change bus', (implementation) => {
  afterEach(() => {
    expect(errors).toEqual([]);
  });

  it('bounds the replay log by bytes too, keeping the newest batch however large', async () => {
    const bus = await track(implementation.create(100, 3500));
    const topic = newTopic();
    for (let i = 1; i <= 10; i++) await bus.publish(topic, [change(i, { text: 'x'.repeat(1000) })]);
    expect((await bus.replay(topic, 7))?.map((batch) => batch.seq)).toEqual([8, 9, 10]);
    expect(await bus.replay(topic, 6)).toBeNull();
    await bus.publish(topic, [change(11, { text: 'x'.repeat(5000) })]);
    expect((await bus.replay(topic, 10))?.map((batch) => batch.seq)).toEqual([11]);
    expect(await bus.replay(topic, 9)).toBeNull();
    await bus.publish(topic, [change(12)]);
    expect((await bus.replay(topic, 11))?.map((batch) => batch.seq)).toEqual([12]);
    // Next to a newer batch the oversized one no longer fits.
    expect(await bus.replay(topic, 10)).toBeNull();
  });

  it('reports its kind', async () => {
    const bus = await track(implementation.create());
    expect(bus.kind).toBe(implementation.name);
  });

  it('numbers batches from 1 per topic, each topic independently', async () => {
    const bus = await track(implementation.create());
    const [a, b] = [newTopic(), newTopic()];
    expect(await bus.currentSeq(a)).toBe(0);
    expect(await bus.publish(a, [change(1)])).toBe(1);
    expect(await bus.publish(a, [change(2)])).toBe(2);
    expect(await bus.publish(b, [change(3)])).toBe(1);
    expect(await bus.publish(a, [change(4)])).toBe(3);
    expect(await bus.currentSeq(a)).toBe(3);
    expect(await bus.currentSeq(b)).toBe(1);
    expect(await bus.currentSeq(newTopic())).toBe(0);
  });

  it('delivers batches to a listener in order, with their seq, from right after listen()', async () => {
    const bus = await track(implementation.create());
    const [topic, other] = [newTopic(), newTopic()];
    const listener = await collect(bus, topic);
    const otherListener = await collect(bus, other);

    const sequential = [];
    for (let i = 1; i <= 3; i++) sequential.push(await bus.publish(topic, [change(i)]));
    const concurrent = await Promise.all(
      Array.from({ length: 10 }, (_, i) => bus.publish(topic, [change(100 + i), change(200 + i)])),
    );
    expect(sequential).toEqual([1, 2, 3]);
    expect([...concurrent].sort((x, y) => x - y)).toEqual([4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);

    await waitFor(() => expect(listener.batches).toHaveLength(13));
    expect(listener.seqs()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    expect(listener.batches.slice(0, 3)).toEqual([
      { topic, seq: 1, changes: [change(1)] },
      { topic, seq: 2, changes: [change(2)] },
      { topic, seq: 3, changes: [change(3)] },
    ]);
    concurrent.forEach((seq, i) => {
      expect(listener.batches[seq - 1]).toEqual({ topic, seq, changes: [change(100 + i), change(200 + i)] });
    });
    expect(otherListener.batches).toEqual([]);
  });

  it('delivers to every listener of a topic', async () => {
    const bus = await track(implementation.create());
    const topic = newTopic();
    const first = await collect(bus, topic);
    const second = await collect(bus, topic);
    await bus.publish(topic, [change(1)]);
    await bus.publish(topic, [change(2)]);
    await waitFor(() => {
      expect(first.seqs()).toEqual([1, 2]);
      expect(second.seqs()).toEqual([1, 2]);
    });
    expect(first.batches).toEqual(second.batches);
  });

  it('stops delivering to a listener once it unsubscribes', async () => {
    const bus = await track(implementation.create());
    const topic = newTopic();
    const stopped = await collect(bus, topic);
    const staying = await collect(bus, topic);
    await bus.publish(topic, [change(1)]);
    await waitFor(() => expect(stopped.seqs()).toEqual([1]));

    await stopped.stop();
    await bus.publish(topic, [change(2)]);
    await waitFor(() => expect(staying.seqs()).toEqual([1, 2]));

    // The last listener leaves; a later listener gets only what is published after it joined.
    await staying.stop();
    await staying.stop();
    await bus.publish(topic, [change(3)]);
    const later = await collect(bus, topic);
    await bus.publish(topic, [change(4)]);
    await waitFor(() => expect(later.seqs()).toEqual([4]));
    expect(stopped.seqs()).toEqual([1]);
    expect(staying.seqs()).toEqual([1, 2]);
  });

  it('replays the batches after a seq; [] when up to date, null beyond the current seq', async () => {
    const bus = await track(implementation.create());
    const topic = newTopic();
    expect(await bus.replay(topic, 0)).toEqual([]);
    expect(await bus.replay(topic, 1)).toBeNull();

    for (let i = 1; i <= 5; i++) await bus.publish(topic, [change(i)]);
    const all = await bus.replay(topic, 0);
    expect(all).toEqual([1, 2, 3, 4, 5].map((seq) => ({ topic, seq, changes: [change(seq)] })));
    expect(await bus.replay(topic, 2)).toEqual(all?.slice(2));
    expect(await bus.replay(topic, 4)).toEqual(all?.slice(4));
    expect(await bus.replay(topic, 5)).toEqual([]);
    expect(await bus.replay(topic, 6)).toBeNull();
    expect(await bus.replay(topic, 1000)).toBeNull();
  });

  it('replays only what the trimmed log still holds', async () => {
    const bus = await track(implementation.create(5));
    const topic = newTopic();
    for (let i = 1; i <= 8; i++) await bus.publish(topic, [change(i)]);
    expect(await bus.currentSeq(topic)).toBe(8);
    // The log holds 4..8.
    expect(await bus.replay(topic, 0)).toBeNull();
    expect(await bus.replay(topic, 2)).toBeNull();
    expect(await bus.replay(topic, 3)).toEqual(
      [4, 5, 6, 7, 8].map((seq) => ({ topic, seq, changes: [change(seq)] })),
    );
    expect(await bus.replay(topic, 7)).toEqual([{ topic, seq: 8, changes: [change(8)] }]);
    expect(await bus.replay(topic, 8)).toEqual([]);
    expect(await bus.replay(topic, 9)).toBeNull();
  });

  it('carries documents unchanged: numbers, strings, empty objects and arrays, empty batches', async () => {
    const bus = await track(implementation.create());
    const topic = newTopic();
    const doc = {
      maxSafe: 2 ** 53 - 1,
      minSafe: -(2 ** 53 - 1),
      price: 19.99,
      tenth: 0.1,
      tiny: 1e-7,
      huge: 1.5e300,
      ints: [0, 1, -1, 100000000000000, 12345678901234],
      text: 'é "quoted" \\ back\nslash 😀 \u0000 </script>',
      empty: {},
      none: [],
      nested: { a: [{ b: null, c: true, d: false }] },
    };
    const changes: LiveChange[] = [
      change(1, doc),
      { type: 'modified', docId: 'doc-2', doc: { title: 'x' } },
      { type: 'removed', docId: 'doc-3', doc: null },
    ];
    const listener = await collect(bus, topic);
    await bus.publish(topic, changes);
    await bus.publish(topic, []);
    const expected = [
      { topic, seq: 1, changes },
      { topic, seq: 2, changes: [] },
    ];
    await waitFor(() => expect(listener.batches).toHaveLength(2));
    expect(listener.batches).toEqual(expected);
    expect(await bus.replay(topic, 0)).toEqual(expected);
  });
});

describe('redis change bus across processes', () => {
  const admin = new Redis(REDIS_URL);
  admin.on('error', () => {});
  const numsub = async (topic: string) => {
    const reply = (await admin.pubsub('NUMSUB', `${PREFIX}topic:${topic}`)) as [string, number];
    return Number(reply[1]);
  };

  afterAll(async () => {
    if (!(await redisReachable())) {
      admin.disconnect();
      return;
    }
    const keys: string[] = [];
    for await (const batch of admin.scanStream({ match: `${PREFIX}*`, count: 1000 })) {
      keys.push(...(batch as string[]));
    }
    if (keys.length > 0) await admin.del(...keys);
    expect(await admin.keys(`${PREFIX}*`)).toEqual([]);
    await admin.quit();
  });

  it('delivers a batch published on one instance to a listener on another', async () => {
    const [a, b] = [await track(createRedis()), await track(createRedis())];
    const topic = newTopic();
    const listener = await collect(b, topic);
    expect(await a.publish(topic, [change(1)])).toBe(1);
    expect(await b.publish(topic, [change(2)])).toBe(2);
    await waitFor(() => expect(listener.seqs()).toEqual([1, 2]));
    expect(listener.batches[0]).toEqual({ topic, seq: 1, changes: [change(1)] });
    expect(await a.currentSeq(topic)).toBe(2);
    expect(await b.replay(topic, 0)).toEqual(await a.replay(topic, 0));
    expect(errors).toEqual([]);
  });

  it('answers a retry of a batch that went through with its seq, publishing it once', async () => {
    const [a, b] = [await track(createRedis()), await track(createRedis())];
    const topic = newTopic();
    const listener = await collect(b, topic);
    const source = randomUUID();
    expect(await a.publish(topic, [change(1)], { source, batch: 7 })).toBe(1);
    // The answer was lost (timeout, dropped connection): the outbox publishes the batch again.
    expect(await a.publish(topic, [change(1)], { source, batch: 7 })).toBe(1);
    // Another source's batch with the same number, and this source's next one, are new.
    expect(await b.publish(topic, [change(2)], { source: randomUUID(), batch: 7 })).toBe(2);
    expect(await a.publish(topic, [change(3)], { source, batch: 8 })).toBe(3);
    expect(await a.publish(topic, [change(3)], { source, batch: 8 })).toBe(3);
    await waitFor(() => expect(listener.seqs()).toEqual([1, 2, 3]));
    expect(await b.replay(topic, 0)).toHaveLength(3);
    expect(await a.currentSeq(topic)).toBe(3);
    expect(errors).toEqual([]);
  });

  it('orders concurrent publishers: 4 × 50 publishes give seqs 1..200, each delivered once, in order', async () => {
    const [a, b, c] = [await track(createRedis()), await track(createRedis()), await track(createRedis())];
    const topic = newTopic();
    const listener = await collect(c, topic);
    const PUBLISHERS = 4;
    const PUBLISHES = 50;

    const returned = await Promise.all(
      Array.from({ length: PUBLISHERS }, async (_, publisher) => {
        const bus = publisher % 2 === 0 ? a : b;
        const seqs: number[] = [];
        for (let i = 0; i < PUBLISHES; i++) {
          seqs.push(await bus.publish(topic, [change(i, { publisher, i })]));
        }
        return seqs;
      }),
    );
    const total = PUBLISHERS * PUBLISHES;
    const range = Array.from({ length: total }, (_, i) => i + 1);
    expect(returned.flat().sort((x, y) => x - y)).toEqual(range);
    for (const seqs of returned) expect(seqs).toEqual([...seqs].sort((x, y) => x - y));

    await waitFor(() => expect(listener.batches.length).toBeGreaterThanOrEqual(total));
    expect(listener.seqs()).toEqual(range);
    // Each batch is the one whose seq its publisher got back.
    returned.forEach((seqs, publisher) => {
      seqs.forEach((seq, i) => {
        expect(listener.batches[seq - 1]?.changes).toEqual([change(i, { publisher, i })]);
      });
    });
    expect(await c.replay(topic, 0)).toEqual(listener.batches);
    expect(await c.currentSeq(topic)).toBe(total);
    expect(errors).toEqual([]);
  });

  it('subscribes the channel with the first listener and unsubscribes it after the last', async () => {
    const bus = await track(createRedis());
    const topic = newTopic();
    expect(await numsub(topic)).toBe(0);
    const [first, second] = await Promise.all([collect(bus, topic), collect(bus, topic)]);
    expect(await numsub(topic)).toBe(1);
    await first.stop();
    expect(await numsub(topic)).toBe(1);
    await second.stop();
    expect(await numsub(topic)).toBe(0);
    // Quickly joining and leaving again leaves the subscription matching the listeners.
    const again = await collect(bus, topic);
    const stopping = again.stop();
    const third = await collect(bus, topic);
    await stopping;
    expect(await numsub(topic)).toBe(1);
    await bus.publish(topic, [change(1)]);
    await waitFor(() => expect(third.seqs()).toEqual([1]));
    expect(again.batches).toEqual([]);
    await third.stop();
    expect(await numsub(topic)).toBe(0);
    expect(errors).toEqual([]);
  });

  it('catches up from the log after its subscriber connection drops', async () => {
    const connectionName = `change-bus-test-${randomUUID().slice(0, 8)}`;
    const [reader, writer] = [await track(createRedis({ connectionName })), await track(createRedis())];
    const topic = newTopic();
    const listener = await collect(reader, topic);
    await writer.publish(topic, [change(1)]);
    await waitFor(() => expect(listener.seqs()).toEqual([1]));

    const clients = (await admin.client('LIST')) as string;
    const line = clients.split('\n').find((entry) => entry.includes(` name=${connectionName}-sub `));
    const id = line?.match(/^id=(\d+) /)?.[1];
    expect(id).toBeDefined();
    await admin.client('KILL', 'ID', id!);
    // Published while the reader is disconnected (or resubscribing): they come from the log.
    await writer.publish(topic, [change(2)]);
    await writer.publish(topic, [change(3)]);
    await waitFor(() => expect(listener.seqs()).toEqual([1, 2, 3]));
    await waitFor(async () => expect(await numsub(topic)).toBe(1));
    await writer.publish(topic, [change(4)]);
    await waitFor(() => expect(listener.seqs()).toEqual([1, 2, 3, 4]));
    expect(listener.batches.map((batch) => batch.changes)).toEqual([1, 2, 3, 4].map((i) => [change(i)]));
    expect(errors.filter((error) => /lost|went back/.test(error.message))).toEqual([]);
    errors.length = 0;
  });

  it('fills a gap in the messages it receives from the log, and reports batches it cannot recover', async () => {
    const [reader, writer] = [
      await track(createRedis({ logLength: 3 })),
      await track(createRedis({ logLength: 3 })),
    ];
    const topic = newTopic();
    const listener = await collect(reader, topic);
    await writer.publish(topic, [change(1)]);
    await waitFor(() => expect(listener.seqs()).toEqual([1]));

    // Batch 2 reaches the log but its message is lost.
    const lostPublish = async (seq: number) => {
      await admin.incr(`${PREFIX}seq:${topic}`);
      const batch = { topic, seq, changes: [change(seq)] };
      await admin.rpush(`${PREFIX}log:${topic}`, JSON.stringify(batch));
      await admin.ltrim(`${PREFIX}log:${topic}`, -3, -1);
    };
    await lostPublish(2);
    await writer.publish(topic, [change(3)]);
    await waitFor(() => expect(listener.seqs()).toEqual([1, 2, 3]));
    expect(listener.batches[1]).toEqual({ topic, seq: 2, changes: [change(2)] });
    expect(errors).toEqual([]);

    // Batches 4..7 lost, and the log (3 long) no longer reaches back to 4 when 8 arrives.
    for (let seq = 4; seq <= 7; seq++) await lostPublish(seq);
    await writer.publish(topic, [change(8)]);
    await writer.publish(topic, [change(9)]);
    await waitFor(() => expect(listener.seqs()).toEqual([1, 2, 3, 8, 9]));
    expect(errors.map((error) => error.message)).toEqual([
      `change bus: batches after 3 of topic ${topic} were lost`,
    ]);
    errors.length = 0;
  });

  it('expires the seq and log of a topic (24 h after its last publish by default)', async () => {
    const bus = await track(createRedis());
    const topic = newTopic();
    await bus.publish(topic, [change(1)]);
    for (const key of [`${PREFIX}seq:${topic}`, `${PREFIX}log:${topic}`]) {
      const ttl = await admin.pttl(key);
      expect(ttl).toBeGreaterThan(24 * 60 * 60 * 1000 - 60_000);
      expect(ttl).toBeLessThanOrEqual(24 * 60 * 60 * 1000);
    }
  });

  it('starts when Redis is unreachable: reports it, says so, and fails publishes fast', async () => {
    const reported: Error[] = [];
    const bus = await createRedisChangeBus({
      url: 'redis://127.0.0.1:1',
      keyPrefix: PREFIX,
      onError: (e) => reported.push(e),
    });
    try {
      expect(bus.reachable()).toBe(false);
      const started = performance.now();
      await expect(bus.publish(newTopic(), [change(1)])).rejects.toThrow();
      await expect(bus.listen(newTopic(), () => {})).rejects.toThrow();
      expect(performance.now() - started).toBeLessThan(500);
      expect(reported.length).toBeGreaterThan(0);
    } finally {
      await bus.close();
    }
  });
});

describe('sequence numbers across eras', () => {
  it('start above every earlier era, so an old resume point gets a snapshot, not foreign batches', async () => {
    const topic = 'era-topic';
    const before = createMemoryChangeBus();
    const oldSeq = await before.publish(topic, [change(1)]);
    await before.close();
    // A restarted process knows nothing of the old numbering (and starts at least a millisecond later).
    await clockPassed(Date.now());
    const after = createMemoryChangeBus();
    for (let i = 0; i < 3; i++) await after.publish(topic, [change(i)]);
    expect(await after.currentSeq(topic)).toBeGreaterThan(oldSeq);
    expect(await after.replay(topic, oldSeq)).toBeNull();
    await after.close();
  });

  it("does the same on Redis when a topic's keys have expired", async () => {
    const bus = await createRedisChangeBus({
      url: REDIS_URL,
      keyPrefix: `${PREFIX}era:`,
      onError: (e) => errors.push(e),
    });
    try {
      const first = await bus.publish('expiring', [change(1)]);
      expect(first).toBeGreaterThan(Date.now() * 1000 - 60_000_000);
      const redis = new Redis(REDIS_URL);
      await redis.del(`${PREFIX}era:seq:expiring`, `${PREFIX}era:log:expiring`);
      await redis.quit();
      await clockPassed(Date.now());
      const second = await bus.publish('expiring', [change(2)]);
      expect(second).toBeGreaterThan(first);
      expect(await bus.replay('expiring', first)).toBeNull();
    } finally {
      await bus.close();
    }
  });
});
