import { randomUUID } from 'node:crypto';
import type { ServerFrame } from '@vitrine/protocol';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import {
  anonymousToken,
  connect,
  isAnswerTo,
  putAllAsAdmin,
  type RealtimeTestClient,
  startTestServer,
  subscribeFrame,
  type TestServer,
} from '../test-support/realtime-test-client.ts';
import {
  redisReachable,
  removeRedisKeys,
  requireRedis,
  TEST_REDIS_URL,
} from '../test-support/redis-prerequisite.ts';

/**
 * Issue 12 §9: two deployments on one Redis. Before VITRINE_REDIS_PREFIX every deployment used
 * the key prefix `vitrine:`, so a store of one deployment saw the comments of the other's store
 * with the same ids. Needs the Redis server of this machine (REDIS_URL, default 127.0.0.1:6379).
 */
const REDIS_URL = TEST_REDIS_URL;
const RUN = randomUUID();
const PAGE = 'shop-prefix';
const CAMPAIGN = 'camp-prefix';
const params = { pageUid: PAGE, campaignUid: CAMPAIGN };

let shopA: TestServer;
let shopB: TestServer;
const clients: RealtimeTestClient[] = [];

async function startDeployment(prefix: string): Promise<TestServer> {
  const server = await startTestServer({ env: { REDIS_URL, VITRINE_REDIS_PREFIX: prefix } });
  await putAllAsAdmin(server, [
    [`/admin/pages/${PAGE}`, { name: 'Same ids, other deployment' }],
    [`/admin/pages/${PAGE}/campaigns/${CAMPAIGN}`, { name: 'Same campaign id' }],
  ]);
  return server;
}

async function comment(server: TestServer, text: string) {
  const response = await server.server.inject({
    method: 'POST',
    url: '/shopapiv2/comment/playerComment',
    headers: { authorization: `Bearer ${await anonymousToken(server)}` },
    payload: { ...params, text },
  });
  expect(response.statusCode, response.body).toBe(200);
}

beforeAll(async () => {
  await requireRedis();
  shopA = await startDeployment(`vitrine-test:${RUN}:a:`);
  shopB = await startDeployment(`vitrine-test:${RUN}:b:`);
});

afterAll(async () => {
  for (const client of clients) client.close();
  await shopA?.close();
  await shopB?.close();
  if (!(await redisReachable())) return;
  await removeRedisKeys(`vitrine-test:${RUN}:`);
});

it('keeps two deployments on one Redis apart by their key prefix', async () => {
  const frame = subscribeFrame('comments', params);
  const viewers: RealtimeTestClient[] = [];
  for (const server of [shopA, shopB]) {
    const viewer = await connect(server.wsUrl);
    clients.push(viewer);
    viewer.send(frame);
    expect(await viewer.nextFrame(isAnswerTo(frame.id))).toMatchObject({ type: 'snapshot' });
    viewers.push(viewer);
  }
  const [viewerA, viewerB] = viewers as [RealtimeTestClient, RealtimeTestClient];
  await comment(shopA, 'only for deployment A');
  await comment(shopB, 'only for deployment B');
  const hasComment = (text: string) => (candidate: ServerFrame) =>
    candidate.type === 'changes' && JSON.stringify(candidate.changes).includes(text);
  await viewerB.nextFrame(hasComment('only for deployment B'));
  // A last comment on each side: on a shared channel the other side's comment, published
  // earlier, would arrive before it.
  await comment(shopA, 'marker A');
  await comment(shopB, 'marker B');
  await viewerA.nextFrame(hasComment('marker A'));
  await viewerB.nextFrame(hasComment('marker B'));
  expect(JSON.stringify(viewerA.frames)).toContain('only for deployment A');
  expect(JSON.stringify(viewerA.frames)).not.toContain('only for deployment B');
  expect(JSON.stringify(viewerB.frames)).not.toContain('only for deployment A');
});

it('validates the prefix setting', () => {
  expect(loadConfig({}).redisPrefix).toBe('vitrine:');
  expect(() => loadConfig({ VITRINE_REDIS_PREFIX: 'has space' })).toThrow(/VITRINE_REDIS_PREFIX/);
});
