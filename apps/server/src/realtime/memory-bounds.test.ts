import { randomBytes } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { subscriptionKey } from '@vitrine/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  anonymousToken,
  connect,
  isAnswerTo,
  putAllAsAdmin,
  type RealtimeTestClient,
  startTestServer,
  subscribeFrame,
  type TestServer,
  unsubscribeFrame,
} from '../test-support/realtime-test-client.ts';
import { createMemoryChangeBus, type MemoryChangeBus } from './memory-change-bus.ts';

// A full collection before each heap reading, so the figures are what is still referenced.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapUsed = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};
/** What the heap may differ by after a storm: noise of the test itself, far below the storms' size. */
const HEAP_MARGIN_BYTES = 8 * 1024 * 1024;
const MB = 1024 * 1024;

describe('memory after storms', () => {
  let bus: MemoryChangeBus;
  let node: TestServer;
  let client: RealtimeTestClient;

  beforeAll(async () => {
    bus = createMemoryChangeBus();
    node = await startTestServer({ bus });
    client = await connect(node.wsUrl);
  });
  afterAll(async () => {
    client?.socket.terminate();
    await node?.close();
    await bus?.close();
  });

  it('subscribe/unsubscribe storms with made-up ids leave no topic behind', async () => {
    const before = heapUsed();
    const topicsBefore = bus.stats().topics;
    for (let round = 0; round < 1_000; round++) {
      const params = { pageUid: 'made-up', campaignUid: `c-${randomBytes(8).toString('hex')}` };
      const frame = subscribeFrame('comments', params);
      client.send(frame);
      await client.nextFrame(isAnswerTo(frame.id));
      client.send(unsubscribeFrame(subscriptionKey('comments', params)));
      // Keeps the test client's own record of frames from being the thing that grows.
      client.frames.length = 0;
    }
    // The unsubscribes are handled in frame order: a ping after them answers once all are.
    client.send({ type: 'ping' });
    await client.nextFrame((frame) => frame.type === 'pong');
    client.frames.length = 0;
    expect(node.realtime.stats()).toMatchObject({ queryInstances: 0, topics: 0 });
    expect(bus.stats().topics).toBe(topicsBefore);
    expect(heapUsed() - before).toBeLessThan(HEAP_MARGIN_BYTES);
  });
});

describe('a thread of 800 replies', () => {
  const PAGE = 'shop-replies';
  const CAMPAIGN = 'camp-replies';
  let node: TestServer;
  let viewer: RealtimeTestClient;

  beforeAll(async () => {
    node = await startTestServer();
    await putAllAsAdmin(node, [
      [`/admin/pages/${PAGE}`, { name: 'Replies', language: 'en', currency: 'EUR' }],
      [`/admin/pages/${PAGE}/campaigns/${CAMPAIGN}`, { name: 'Replies' }],
      [
        '/admin/events/ev-replies',
        {
          pageUid: PAGE,
          campaignId: CAMPAIGN,
          currentStatus: 'live',
          eventName: 'Busy chat',
          eventStartTimestamp: Date.now(),
        },
      ],
    ]);
    viewer = await connect(node.wsUrl);
  });
  afterAll(async () => {
    viewer?.socket.terminate();
    await node?.close();
  });

  it('sends each reply once, at its own size, and the server keeps no copy of the thread', async () => {
    const headers = { authorization: `Bearer ${await anonymousToken(node)}` };
    const post = async (text: string, threadId?: string) => {
      const response = await node.server.inject({
        method: 'POST',
        url: '/shopapiv2/comment/playerComment',
        headers,
        payload: { pageUid: PAGE, campaignUid: CAMPAIGN, text, ...(threadId ? { threadId } : {}) },
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as { uid: string };
    };
    const parent = await post('Which sizes are left?');
    const params = { pageUid: PAGE, campaignUid: CAMPAIGN };
    const frame = subscribeFrame('comments', params);
    viewer.send(frame);
    await viewer.nextFrame(isAnswerTo(frame.id));

    const before = heapUsed();
    let last = '';
    for (let n = 0; n < 800; n++)
      last = (await post(`Reply ${n}: ${'size M and L '.repeat(8)}`, parent.uid)).uid;
    await viewer.nextFrame(
      (candidate) =>
        candidate.type === 'changes' && candidate.changes.some((change) => change.docId === last),
    );
    const changes = viewer.frames.flatMap((candidate) =>
      candidate.type === 'changes' && candidate.id === frame.id ? candidate.changes : [],
    );
    const bytes = changes.reduce((sum, change) => sum + JSON.stringify(change).length, 0);
    // Every reply once, the parent never again: 800 × about 600 bytes, where re-sending the
    // thread with each reply made it grow with the square of the replies (some 100 MB).
    expect(changes.filter((change) => change.docId === parent.uid)).toEqual([]);
    expect(new Set(changes.map((change) => change.docId)).size).toBe(800);
    expect(changes).toHaveLength(800);
    expect(bytes).toBeLessThan(800 * 1024);
    viewer.frames.length = 0;
    expect(heapUsed() - before).toBeLessThan(HEAP_MARGIN_BYTES);
  });
});

describe('the in-process bus under writes nobody follows', () => {
  it('bounds each log by bytes and forgets idle topics: the heap returns', async () => {
    let now = 0;
    const bus = createMemoryChangeBus(undefined, undefined, { now: () => now });
    try {
      const before = heapUsed();
      // As a cart ping does: a ~6 KB reservation document re-published on the shopper's own
      // topic, 300 shoppers, 100 pings each, with nobody listening on this node.
      let last = 0;
      for (let ping = 0; ping < 100; ping++) {
        for (let shopper = 0; shopper < 300; shopper++) {
          const doc = { lines: `${ping}`.padEnd(6 * 1024, 'x') };
          last = await bus.publish(`checkout:${shopper}`, [{ type: 'modified', docId: `s${shopper}`, doc }]);
        }
      }
      const { topics, logBytes } = bus.stats();
      expect(topics).toBe(300);
      // 256 KB per topic at most: some 42 of each shopper's 100 batches.
      expect(logBytes).toBeLessThanOrEqual(300 * 256 * 1024);
      expect(logBytes).toBeGreaterThan(300 * 200 * 1024);
      // The newest batches are still there for a client resuming now.
      expect(await bus.replay('checkout:299', last - 10)).toHaveLength(10);

      now += 61_000;
      bus.prune();
      expect(bus.stats()).toEqual({ topics: 0, logBytes: 0 });
      expect((heapUsed() - before) / MB).toBeLessThan(HEAP_MARGIN_BYTES / MB);
    } finally {
      await bus.close();
    }
  });

  it('keeps a topic someone listens to, however long it is idle, and loses none of its batches', async () => {
    let now = 0;
    const bus = createMemoryChangeBus(undefined, undefined, { now: () => now });
    try {
      const seen: number[] = [];
      const stop = await bus.listen('followed', (batch) => seen.push(batch.seq));
      const first = await bus.publish('followed', [{ type: 'added', docId: 'a', doc: {} }]);
      now += 10 * 60_000;
      bus.prune();
      const second = await bus.publish('followed', [{ type: 'added', docId: 'b', doc: {} }]);
      expect(seen).toEqual([first, second]);
      expect(await bus.replay('followed', first)).toHaveLength(1);
      await stop();
      now += 61_000;
      bus.prune();
      expect(bus.stats().topics).toBe(0);
    } finally {
      await bus.close();
    }
  });
});
