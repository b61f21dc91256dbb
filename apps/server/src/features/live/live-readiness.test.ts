import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LiveStreamView } from '@vitrine/protocol';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort } from '../../test-support/free-port.ts';
import { publishTestStream, waitFor } from '../../test-support/live-publisher.ts';
import {
  openSharedDatabase,
  startTestServer,
  type TestServer,
} from '../../test-support/realtime-test-client.ts';
import { createTestShow, createTestStore, signInStaff } from '../../test-support/studio-staff.ts';
import { openTestDatabase } from '../../test-support/test-app.ts';

/**
 * Issue 29 item 10: /readyz tells the truth about live. Two nodes share a database and a Redis
 * of the test's own (a throwaway redis-server, killed mid-show); node A ingests the show, node B
 * serves its live edge through Redis. Without Redis, B cannot: it answers 503 naming the bus,
 * while A, which holds the show, stays ready (degraded).
 */
let redis: ChildProcess | null = null;
let redisPort: number;
let db: Awaited<ReturnType<typeof openTestDatabase>>;
let nodeA: TestServer;
let nodeB: TestServer;
let publisher: ReturnType<typeof publishTestStream> | null = null;
const dirs: string[] = [];

/** A Redis of this test's own, without persistence; resolves once it answers PING. */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => 50 });
  client.on('error', () => {
    // Refused until the server listens: the wait below asks again.
  });
  try {
    await waitFor('redis-server to answer', async () => {
      try {
        if (client.status !== 'ready') await client.connect().catch(() => undefined);
        return (await client.ping()) === 'PONG';
      } catch {
        return false;
      }
    });
  } finally {
    client.disconnect();
  }
  return child;
}

async function readiness(node: TestServer) {
  const response = await fetch(`${node.httpUrl}/readyz`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  redisPort = await freePort();
  redis = await startRedis(redisPort);
  db = await openTestDatabase();
  const node = (rtmp: string, nodeDb: typeof db | Awaited<ReturnType<typeof openSharedDatabase>>) => {
    const dir = mkdtempSync(join(tmpdir(), 'vitrine-live-ready-'));
    dirs.push(dir);
    return startTestServer({
      db: nodeDb,
      env: { REDIS_URL: `redis://127.0.0.1:${redisPort}`, RTMP_PORT: rtmp, VITRINE_LIVE_DIR: dir },
    });
  };
  nodeA = await node('0', db);
  nodeB = await node('off', await openSharedDatabase(db));
  // On two busy cores, starting the servers may take well over the default minute.
}, 180_000);

afterAll(async () => {
  publisher?.kill('SIGKILL');
  redis?.kill('SIGKILL');
  await nodeB?.close();
  await nodeA?.close();
  await db?.dispose();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

it('answers 503 naming the bus on a node that serves a running show only through a Redis that went away', async () => {
  const pageUid = await createTestStore(nodeA);
  const host = await signInStaff(nodeA, pageUid, 'host');
  const showUid = await createTestShow(nodeA, pageUid, host, 'Ready?');
  const streamUrl = `/staff/stores/${pageUid}/shows/${showUid}/stream`;
  const call = async (method: 'GET' | 'POST', suffix = '') =>
    (
      await nodeA.server.inject({ method, url: `${streamUrl}${suffix}`, headers: host.headers })
    ).json() as LiveStreamView;
  const { streamKey } = await call('GET');
  publisher = publishTestStream(
    `rtmp://127.0.0.1:${nodeA.services.live.ingestPorts().rtmpPort}/live/${streamKey}`,
  );
  await waitFor('receiving on A', async () => (await call('GET')).state === 'receiving');
  expect((await call('POST', '/go-live')).state).toBe('live');
  await waitFor('the live edge on B', async () => {
    const response = await fetch(`${nodeB.httpUrl}/live/${showUid}/live.m3u8`);
    return response.status === 200 && (await response.text()).includes('.m4s');
  });
  expect(await readiness(nodeB)).toMatchObject({ status: 200, body: { status: 'ready' } });

  redis?.kill('SIGKILL');
  const unready = await waitFor('B to say it cannot serve the show', async () => {
    const answer = await readiness(nodeB);
    return answer.status === 503 ? answer : null;
  });
  expect(unready.body).toMatchObject({
    status: 'unavailable',
    failing: 'bus',
    bus: { kind: 'redis', reachable: false },
    live: { runningShowsNotServed: 1 },
  });
  expect(unready.body.message).toMatch(/cannot serve the live edge of 1 running show/);
  // B indeed cannot: once its short-lived copy of the playlist runs out, its viewers get no live edge.
  await waitFor('B to stop serving the live edge', async () =>
    (await fetch(`${nodeB.httpUrl}/live/${showUid}/live.m3u8`)).status === 404 ? true : null,
  );
  // A holds the show and serves it without Redis: still in the pool, degraded.
  expect(await readiness(nodeA)).toMatchObject({ status: 200, body: { status: 'degraded' } });
  expect((await fetch(`${nodeA.httpUrl}/live/${showUid}/live.m3u8`)).status).toBe(200);

  // The show ends (on A, which holds it): nothing runs that B cannot serve, so B is back (degraded).
  expect((await call('POST', '/end')).state).toBe('ended');
  expect(await readiness(nodeB)).toMatchObject({ status: 200, body: { status: 'degraded' } });

  // Redis back on its port: both nodes ready again.
  redis = await startRedis(redisPort);
  await waitFor('B ready again', async () => (await readiness(nodeB)).body.status === 'ready', 20_000);
}, 180_000);
