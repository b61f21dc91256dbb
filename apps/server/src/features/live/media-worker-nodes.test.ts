import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LiveStreamView } from '@vitrine/protocol';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../../db/database.ts';
import { freePort } from '../../test-support/free-port.ts';
import { publishTestStream, waitFor } from '../../test-support/live-publisher.ts';
import { isAlive, packagerPids } from '../../test-support/processes.ts';
import {
  openSharedDatabase,
  startTestServer,
  type TestServer,
} from '../../test-support/realtime-test-client.ts';
import { removeRedisKeys, requireRedis, TEST_REDIS_URL } from '../../test-support/redis-prerequisite.ts';
import { releaseEntry } from '../../test-support/release-build.ts';
import { startTestS3Server, type TestS3Server } from '../../test-support/s3-test-server.ts';
import { createTestShow, createTestStore, signInStaff } from '../../test-support/studio-staff.ts';
import { openTestDatabase } from '../../test-support/test-app.ts';

/**
 * The deployment of issue 29's "done when": two web servers and one media worker (`npm run
 * media`, its own process), a bucket on an S3 protocol server (s3rver), Redis, and the database
 * (PostgreSQL under `test:postgres`). ffmpeg publishes to the worker over RTMP; viewers of either
 * web server play; the worker is killed with SIGKILL mid-show and started again: no ffmpeg is
 * left, and the show resumes into the same recording; the replay plays from the server that did
 * not end it.
 */
const PREFIX = `vitrine-test:media-nodes:${randomUUID()}:`;
const TOKEN = randomBytes(24).toString('hex');
let db: Awaited<ReturnType<typeof openTestDatabase>>;
let s3: TestS3Server;
let webA: TestServer;
let webB: TestServer;
let worker: ChildProcess | null = null;
let workerEnv: Record<string, string>;
let workerUrl: string;
let rtmpPort: number;
const publishers: ChildProcess[] = [];
const dirs: string[] = [];

/** `npm run media` as the deploy recipe runs it: its own process, settings in the environment. */
async function startWorker() {
  const started = spawn(process.execPath, [releaseEntry('media')], {
    env: { ...process.env, ...workerEnv },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  worker = started;
  await waitFor('the media worker listening', async () => {
    if (started.exitCode !== null) throw new Error(`the media worker exited with ${started.exitCode}`);
    return (await fetch(`${workerUrl}/healthz`).catch(() => null))?.ok;
  });
}

beforeAll(async () => {
  await requireRedis();
  db = await openTestDatabase();
  s3 = await startTestS3Server();
  const workerDir = mkdtempSync(join(tmpdir(), 'vitrine-media-worker-'));
  dirs.push(workerDir);
  const mediaPort = await freePort();
  rtmpPort = await freePort();
  workerUrl = `http://127.0.0.1:${mediaPort}`;
  workerEnv = {
    LIVE_MEDIA_TOKEN: TOKEN,
    MEDIA_PORT: String(mediaPort),
    MEDIA_HOST: '127.0.0.1',
    RTMP_PORT: String(rtmpPort),
    HOST: '127.0.0.1',
    VITRINE_LIVE_DIR: workerDir,
    WHIP: 'off',
    LOG_LEVEL: 'warn',
    ...s3.env,
  };
  await startWorker();
  const web = (shared: { db: Database }) => {
    // Each web server its own folder: it records nothing; only the worker does.
    const dir = mkdtempSync(join(tmpdir(), 'vitrine-media-web-'));
    dirs.push(dir);
    return startTestServer({
      ...shared,
      env: {
        REDIS_URL: TEST_REDIS_URL,
        VITRINE_REDIS_PREFIX: PREFIX,
        LIVE_MEDIA: workerUrl,
        LIVE_MEDIA_TOKEN: TOKEN,
        RTMP_PORT: 'off',
        VITRINE_LIVE_DIR: dir,
        ...s3.env,
      },
    });
  };
  webA = await web({ db });
  webB = await web({ db: await openSharedDatabase(db) });
  await Promise.all([webA.services.live.mediaReady(), webB.services.live.mediaReady()]);
}, 300_000);

afterAll(async () => {
  for (const publisher of publishers) publisher.kill('SIGKILL');
  await webB?.close();
  await webA?.close();
  worker?.kill('SIGTERM');
  await db?.dispose();
  await s3?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  await removeRedisKeys(PREFIX);
});

it('two web servers follow one media worker: either plays, the worker survives SIGKILL into the same recording, the replay plays from the other', async () => {
  const pageUid = await createTestStore(webA);
  const host = await signInStaff(webA, pageUid, 'host');
  const showUid = await createTestShow(webA, pageUid, host, 'One worker');
  const call = async (node: TestServer, method: 'GET' | 'POST', suffix = '') => {
    const response = await node.server.inject({
      method,
      url: `/staff/stores/${pageUid}/shows/${showUid}/stream${suffix}`,
      headers: host.headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as LiveStreamView;
  };
  const get = (node: TestServer, path: string) => fetch(`${node.httpUrl}${path}`);
  const segmentsOf = async (node: TestServer, playlist: string) =>
    (await (await get(node, `/live/${showUid}/${playlist}`)).text())
      .split('\n')
      .filter((line) => line.endsWith('.m4s'));

  const { streamKey, rtmpUrl } = await call(webA, 'GET');
  // The studio names the worker's RTMP port: publishers go there, not to a web server.
  expect(rtmpUrl).toMatch(new RegExp(`^rtmp://[^/]+:${rtmpPort}/live$`));
  const publish = () => {
    const publisher = publishTestStream(`rtmp://127.0.0.1:${rtmpPort}/live/${streamKey}`);
    publishers.push(publisher);
    return publisher;
  };
  const first = publish();
  await waitFor('receiving', async () => (await call(webB, 'GET')).state === 'receiving');
  await call(webB, 'POST', '/go-live');
  for (const node of [webA, webB]) {
    const names = await waitFor('live segments on each web server', async () => {
      const listed = await segmentsOf(node, 'live.m3u8');
      return listed.length >= 2 ? listed : null;
    });
    const segment = await get(node, `/live/${showUid}/${names.at(-1)}`);
    expect(segment.status).toBe(200);
    expect((await segment.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    // LL-HLS too: the worker answers blocking reloads for every web server.
    const ll = await get(node, `/live/${showUid}/ll.m3u8`);
    expect(ll.status).toBe(200);
    expect(await ll.text()).toContain('#EXT-X-PART');
  }
  const before = await segmentsOf(webA, 'replay.m3u8');
  const packagers = packagerPids(showUid);
  expect(packagers.length).toBeGreaterThan(0);

  worker?.kill('SIGKILL');
  first.kill('SIGKILL');
  await waitFor('the packagers gone with their worker', async () => packagers.every((pid) => !isAlive(pid)));
  // The shop does not wait for video.
  expect((await get(webA, '/healthz')).status).toBe(200);
  const ready = (await (await get(webB, '/readyz')).json()) as {
    status: string;
    media: { reachable: boolean };
  };
  expect(ready.media.reachable).toBe(false);

  await startWorker();
  await waitFor(
    'both web servers following the new worker',
    async () => webA.services.live.mediaReachable() && webB.services.live.mediaReachable(),
  );
  await waitFor('reconnecting', async () => (await call(webA, 'GET')).state === 'reconnecting');
  publish();
  await waitFor('live again', async () => (await call(webB, 'GET')).state === 'live');
  const firstRun = before[0]?.split('-')[0];
  const after = await waitFor('segments of the second run', async () => {
    const names = await segmentsOf(webB, 'replay.m3u8');
    return names.filter((name) => !name.startsWith(`${firstRun}-`)).length >= 2 ? names : null;
  });
  expect(after.slice(0, before.length)).toEqual(before);

  const ended = await call(webA, 'POST', '/end');
  expect(ended.state).toBe('ended');
  // B learns of the end within its viewers' state interval (half a second): the replay is final then.
  const replay = await waitFor('the final replay on B', async () => {
    const text = await (await get(webB, `/live/${showUid}/replay.m3u8`)).text();
    return text.includes('#EXT-X-ENDLIST') ? text : null;
  });
  expect(replay).toContain('#EXT-X-DISCONTINUITY');
  const last = replay
    .split('\n')
    .filter((line) => line.endsWith('.m4s'))
    .at(-1);
  // From the bucket: the other web server serves (or redirects to) what the worker stored.
  const segment = await get(webB, `/live/${showUid}/${last}`);
  expect([200, 302]).toContain(segment.status);
});
