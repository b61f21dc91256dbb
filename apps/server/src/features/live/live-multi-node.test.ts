import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LiveStreamView, Show } from '@vitrine/protocol';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../../db/database.ts';
import { publishTestStream, waitFor } from '../../test-support/live-publisher.ts';
import {
  openSharedDatabase,
  startTestServer,
  type TestServer,
} from '../../test-support/realtime-test-client.ts';
import { requireRedis, TEST_REDIS_URL } from '../../test-support/redis-prerequisite.ts';
import { createTestStore, signInStaff, type TestStaffMember } from '../../test-support/studio-staff.ts';
import { openTestDatabase } from '../../test-support/test-app.ts';

/** Both nodes share it, like the nodes of one deployment; its keys are removed in afterAll. */
const PREFIX = `vitrine-test:live-nodes:${randomUUID()}:`;
let db: Awaited<ReturnType<typeof openTestDatabase>>;
let nodeA: TestServer;
let nodeB: TestServer;
let host: TestStaffMember;
let publisher: ReturnType<typeof publishTestStream> | null = null;
const dirs: string[] = [];

beforeAll(async () => {
  await requireRedis();
  db = await openTestDatabase();
  const node = (rtmp: string, shared: { db: Database }) => {
    // Each node its own recordings folder: nothing is shared but the database and Redis.
    const dir = mkdtempSync(join(tmpdir(), 'vitrine-live-node-'));
    dirs.push(dir);
    return startTestServer({
      ...shared,
      env: {
        REDIS_URL: TEST_REDIS_URL,
        VITRINE_REDIS_PREFIX: PREFIX,
        RTMP_PORT: rtmp,
        VITRINE_LIVE_DIR: dir,
      },
    });
  };
  nodeA = await node('0', { db });
  nodeB = await node('off', { db: await openSharedDatabase(db) });
});

afterAll(async () => {
  publisher?.kill('SIGKILL');
  await nodeB?.close();
  await nodeA?.close();
  await db?.dispose();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  const admin = new Redis(TEST_REDIS_URL);
  const keys: string[] = [];
  for await (const batch of admin.scanStream({ match: `${PREFIX}*`, count: 1000 }))
    keys.push(...(batch as string[]));
  if (keys.length) await admin.del(...keys);
  admin.disconnect();
});

it('plays on node B a show ingested on node A, and ends it from B', async () => {
  const pageUid = await createTestStore(nodeA);
  host = await signInStaff(nodeA, pageUid, 'host');
  const created = await nodeA.server.inject({
    method: 'POST',
    url: `/staff/stores/${pageUid}/shows`,
    headers: host.headers,
    payload: {
      name: 'Two nodes',
      startsAt: '2026-10-01T19:00',
      timeZone: 'Europe/Copenhagen',
      visibility: 'public',
    },
  });
  const showUid = (created.json() as Show).uid;
  const streamUrl = `/staff/stores/${pageUid}/shows/${showUid}/stream`;
  const call = async (node: TestServer, method: 'GET' | 'POST', suffix = '') =>
    (
      await node.server.inject({ method, url: `${streamUrl}${suffix}`, headers: host.headers })
    ).json() as LiveStreamView;

  const { streamKey } = await call(nodeA, 'GET');
  publisher = publishTestStream(
    `rtmp://127.0.0.1:${nodeA.services.live.ingestPorts().rtmpPort}/live/${streamKey}`,
  );
  await waitFor('receiving on A', async () => (await call(nodeA, 'GET')).state === 'receiving');
  // Go live from B: the studio may reach any node.
  expect((await call(nodeB, 'POST', '/go-live')).state).toBe('live');

  const playlist = await waitFor('the live playlist on B', async () => {
    const response = await fetch(`${nodeB.httpUrl}/live/${showUid}/live.m3u8`);
    const text = await response.text();
    return response.status === 200 && text.includes('.m4s') ? text : null;
  });
  expect(playlist).toContain('#EXT-X-PROGRAM-DATE-TIME:');
  const segment = playlist
    .split('\n')
    .filter((line) => line.endsWith('.m4s'))
    .at(-1);
  const media = await fetch(`${nodeB.httpUrl}/live/${showUid}/${segment}`);
  expect(media.status).toBe(200);
  expect(media.headers.get('cache-control')).toContain('immutable');
  expect((await fetch(`${nodeB.httpUrl}/live/${showUid}/r1-init.mp4`)).status).toBe(200);

  // End on B: node A, which holds the recording, finishes it; B serves the replay playlist.
  expect((await call(nodeB, 'POST', '/end')).state).toBe('ended');
  const replay = await (await fetch(`${nodeB.httpUrl}/live/${showUid}/replay.m3u8`)).text();
  expect(replay).toContain('#EXT-X-ENDLIST');
  await waitFor('the encoder disconnected', () => publisher?.exitCode !== null);
});
