import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LiveStreamView } from '@vitrine/protocol';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../../db/database.ts';
import { publishTestStream, waitFor } from '../../test-support/live-publisher.ts';
import {
  openSharedDatabase,
  startTestServer,
  type TestServer,
} from '../../test-support/realtime-test-client.ts';
import { removeRedisKeys, requireRedis, TEST_REDIS_URL } from '../../test-support/redis-prerequisite.ts';
import { startTestS3Server, type TestS3Server } from '../../test-support/s3-test-server.ts';
import {
  createTestShow,
  createTestStore,
  signInStaff,
  type TestStaffMember,
} from '../../test-support/studio-staff.ts';
import { openTestDatabase } from '../../test-support/test-app.ts';

/** Both nodes share it, like the nodes of one deployment; its keys are removed in afterAll. */
const PREFIX = `vitrine-test:live-nodes:${randomUUID()}:`;
let db: Awaited<ReturnType<typeof openTestDatabase>>;
let s3: TestS3Server;
let nodeA: TestServer;
let nodeB: TestServer;
let nodeC: TestServer | null = null;
let host: TestStaffMember;
let publisher: ReturnType<typeof publishTestStream> | null = null;
const dirs: string[] = [];

beforeAll(async () => {
  await requireRedis();
  db = await openTestDatabase();
  s3 = await startTestS3Server();
  const node = (rtmp: string, shared: { db: Database }) => {
    // Each node its own recordings folder: nothing is shared but the database, Redis and the bucket.
    const dir = mkdtempSync(join(tmpdir(), 'vitrine-live-node-'));
    dirs.push(dir);
    return startTestServer({
      ...shared,
      env: {
        REDIS_URL: TEST_REDIS_URL,
        VITRINE_REDIS_PREFIX: PREFIX,
        RTMP_PORT: rtmp,
        VITRINE_LIVE_DIR: dir,
        ...s3.env,
      },
    });
  };
  nodeA = await node('0', { db });
  nodeB = await node('off', { db: await openSharedDatabase(db) });
});

afterAll(async () => {
  publisher?.kill('SIGKILL');
  await nodeC?.close();
  await nodeB?.close();
  await nodeA?.close();
  await db?.dispose();
  await s3?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  await removeRedisKeys(PREFIX);
});

it('plays on node B a show ingested on node A, and ends it from B', async () => {
  const pageUid = await createTestStore(nodeA);
  host = await signInStaff(nodeA, pageUid, 'host');
  const showUid = await createTestShow(nodeA, pageUid, host, 'Two nodes');
  const streamUrl = `/staff/stores/${pageUid}/shows/${showUid}/stream`;
  const call = async (node: TestServer, method: 'GET' | 'POST', suffix = '') =>
    (
      await node.server.inject({ method, url: `${streamUrl}${suffix}`, headers: host.headers })
    ).json() as LiveStreamView;

  const { streamKey, previewUrl } = await call(nodeA, 'GET');
  publisher = publishTestStream(
    `rtmp://127.0.0.1:${nodeA.services.live.ingestPorts().rtmpPort}/live/${streamKey}`,
  );
  await waitFor('receiving on A', async () => (await call(nodeA, 'GET')).state === 'receiving');
  // A segment of the studio's preview, before Go live: no viewer on any node ever gets it.
  const previewed = await waitFor('a preview segment', async () => {
    const text = await (await fetch(`${nodeA.httpUrl}${previewUrl}`)).text();
    return /^(r1-\d+\.m4s)\?preview=/m.exec(text)?.[1];
  });
  // Go live from B: the studio may reach any node.
  expect((await call(nodeB, 'POST', '/go-live')).state).toBe('live');
  // Inline nodes share segments, not parts: viewers get the regular playlist, whatever the
  // profile's LL default says.
  const [event] = await nodeB.services.events.eventsByIds([showUid]);
  expect(event?.event.cdnMp4VideoUrl).toBe(`/live/${showUid}/live.m3u8`);

  // The ingesting node shares the playlists with each new segment, so for up to one segment after
  // a Go live pressed on another node, B's copy can still be the one from before (known limit):
  // the test reads on once B lists a segment of the live show, which A serves to viewers too.
  const { playlist, segment, fromA } = await waitFor('a live segment listed on B', async () => {
    const response = await fetch(`${nodeB.httpUrl}/live/${showUid}/live.m3u8`);
    const text = await response.text();
    const last = text
      .split('\n')
      .filter((line) => line.endsWith('.m4s'))
      .at(-1);
    if (response.status !== 200 || !last) return null;
    const onA = await fetch(`${nodeA.httpUrl}/live/${showUid}/${last}`);
    return onA.status === 200
      ? { playlist: text, segment: last, fromA: Buffer.from(await onA.arrayBuffer()) }
      : null;
  });
  expect(playlist).toContain('#EXT-X-PROGRAM-DATE-TIME:');
  // B reads the segments from the bucket; the one A packaged is the same, byte for byte.
  const media = await fetch(`${nodeB.httpUrl}/live/${showUid}/${segment}`);
  expect(media.status).toBe(200);
  expect(media.headers.get('cache-control')).toContain('immutable');
  const bytes = Buffer.from(await media.arrayBuffer());
  expect(bytes.length).toBeGreaterThan(1000);
  expect(bytes.equals(fromA)).toBe(true);
  expect((await fetch(`${nodeB.httpUrl}/live/${showUid}/r1-init.mp4`)).status).toBe(200);

  // No video goes through Redis: only the playlists (text of a few kilobytes).
  const admin = new Redis(TEST_REDIS_URL);
  try {
    for await (const batch of admin.scanStream({ match: `${PREFIX}*`, count: 1000 })) {
      for (const key of batch as string[]) {
        expect(key).not.toMatch(/\.(m4s|mp4)$/);
        if ((await admin.type(key)) === 'string') expect(await admin.strlen(key)).toBeLessThan(64 * 1024);
      }
    }
  } finally {
    admin.disconnect();
  }

  // End on B: node A, which holds the recording, finishes it; B serves the replay playlist.
  expect((await call(nodeB, 'POST', '/end')).state).toBe('ended');
  const replay = await (await fetch(`${nodeB.httpUrl}/live/${showUid}/replay.m3u8`)).text();
  expect(replay).toContain('#EXT-X-ENDLIST');
  await waitFor('the encoder disconnected', () => publisher?.exitCode !== null);

  // A node that never saw the show, without Redis: the replay plays from the bucket alone, its
  // segments fetched by the viewer from the bucket's public URL.
  const dir = mkdtempSync(join(tmpdir(), 'vitrine-live-node-'));
  dirs.push(dir);
  const publicUrl = `${s3.endpoint}/${s3.bucket}`;
  nodeC = await startTestServer({
    db: await openSharedDatabase(db),
    env: { RTMP_PORT: 'off', VITRINE_LIVE_DIR: dir, ...s3.env, VITRINE_S3_PUBLIC_URL: publicUrl },
  });
  for (const node of [nodeB, nodeC]) {
    expect((await fetch(`${node.httpUrl}/live/${showUid}/${previewed}`, { redirect: 'manual' })).status).toBe(
      404,
    );
  }
  const replayOnC = await fetch(`${nodeC.httpUrl}/live/${showUid}/replay.m3u8`);
  expect(replayOnC.status).toBe(200);
  expect(await replayOnC.text()).toBe(replay);
  const replayed = replay.split('\n').filter((line) => line.endsWith('.m4s'));
  expect(replayed.length).toBeGreaterThan(0);
  for (const uri of [...replayed.slice(0, 2), 'r1-init.mp4']) {
    const sent = await fetch(`${nodeC.httpUrl}/live/${showUid}/${uri}`, { redirect: 'manual' });
    expect({ uri, status: sent.status, location: sent.headers.get('location') }).toEqual({
      uri,
      status: 302,
      location: `${publicUrl}/${showUid}/${uri}`,
    });
    const there = Buffer.from(await (await fetch(`${publicUrl}/${showUid}/${uri}`)).arrayBuffer());
    const recorded = Buffer.from(
      await (await fetch(`${nodeA.httpUrl}/live/${showUid}/${uri}`)).arrayBuffer(),
    );
    expect(there.length).toBeGreaterThan(0);
    expect(there.equals(recorded)).toBe(true);
  }
});
