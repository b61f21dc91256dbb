import { randomUUID } from 'node:crypto';
import type { LiveChange } from '@vitrine/protocol';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  redisReachable,
  requireRedis,
  startRedisProxy,
  TEST_REDIS_URL,
} from '../test-support/redis-prerequisite.ts';
import type { TcpProxy } from '../test-support/tcp-proxy.ts';
import type { ChangeBus } from './change-bus.ts';
import { createRedisChangeBus } from './redis-change-bus.ts';

/**
 * The bus outage test once saw the last comment written during a Redis cut reach a viewer twice.
 * The cause: a node that notices a gap reads the missed batches from the log on its command
 * connection, while the pub/sub messages of the newest of them may still be on their way on its
 * subscriber connection; when such a message arrived after the catch-up, the bus took it for a
 * restarted sequence and delivered it again. Here the proxy makes that order happen every time.
 */
const PREFIX = `vitrine-test:replay:${randomUUID()}:`;
const TOPIC = 'replay-topic';
const SUBSCRIBER = 'vitrine-test-replay-x-sub';

let proxy: TcpProxy;
let admin: Redis;
let follower: ChangeBus;
let publisher: ChangeBus;
const followerErrors: Error[] = [];

const change = (n: number): LiveChange[] => [{ type: 'added', docId: `c${n}`, doc: { n } }];
const waitFor = <T>(check: () => T) => vi.waitFor(check, { timeout: 10_000, interval: 20 });

beforeAll(async () => {
  await requireRedis();
  proxy = await startRedisProxy();
  admin = new Redis(TEST_REDIS_URL);
  follower = await createRedisChangeBus({
    url: `redis://127.0.0.1:${proxy.port}`,
    keyPrefix: PREFIX,
    connectionName: 'vitrine-test-replay-x',
    onError: (error) => followerErrors.push(error),
  });
  publisher = await createRedisChangeBus({
    url: TEST_REDIS_URL,
    keyPrefix: PREFIX,
    connectionName: 'vitrine-test-replay-p',
  });
});

afterAll(async () => {
  await follower?.close();
  await publisher?.close();
  await proxy?.close();
  if (admin && (await redisReachable())) {
    const keys = await admin.keys(`${PREFIX}*`);
    if (keys.length > 0) await admin.del(...keys);
  }
  admin?.disconnect();
});

describe('a node catching up from the log', () => {
  it('delivers a batch once when its pub/sub message arrives after the catch-up read it', async () => {
    const seqs: number[] = [];
    await follower.listen(TOPIC, (batch) => seqs.push(batch.seq));
    const first = await publisher.publish(TOPIC, change(1));
    await waitFor(() => expect(seqs).toEqual([first]));

    // A batch in the log whose message this node never got, as when its subscriber connection
    // was down (written the way the publish script writes it).
    const missed = `{"topic":${JSON.stringify(TOPIC)},"seq":${first + 1},"changes":${JSON.stringify(change(2))}}`;
    await admin.incr(`${PREFIX}seq:${TOPIC}`);
    await admin.rpush(`${PREFIX}log:${TOPIC}`, missed);
    await admin.incrby(`${PREFIX}logbytes:${TOPIC}`, Buffer.byteLength(missed));

    // Two more batches whose messages are held back on the way to the node.
    proxy.hold(SUBSCRIBER);
    await publisher.publish(TOPIC, change(3));
    await waitFor(() => expect(proxy.held(SUBSCRIBER)).toBe(1));
    await publisher.publish(TOPIC, change(4));
    await waitFor(() => expect(proxy.held(SUBSCRIBER)).toBe(2));

    // The first message shows the gap: the node reads the log, which already holds the newest batch.
    proxy.release(SUBSCRIBER, 1);
    await waitFor(() => expect(seqs).toEqual([first, first + 1, first + 2, first + 3]));
    // Then the newest batch's own message arrives: already delivered, so not again.
    proxy.release(SUBSCRIBER);
    const last = await publisher.publish(TOPIC, change(5));
    await waitFor(() => expect(seqs.at(-1)).toBe(last));
    expect(seqs).toEqual([first, first + 1, first + 2, first + 3, first + 4]);
    expect(followerErrors).toEqual([]);
  });
});
