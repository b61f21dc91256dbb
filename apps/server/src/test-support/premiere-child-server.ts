import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { migrate } from '../db/migrate.ts';
import { openPgliteDatabase } from '../db/pglite-database.ts';
import { createTestShow, createTestStore, signInStaff } from './studio-staff.ts';
import { openTestApp } from './test-app.ts';

/**
 * A server in a process of its own on a database kept on disk, for a test that kills it
 * (SIGKILL) during a premiere and starts it again on the same data:
 * `node --import tsx premiere-child-server.ts <data folder> [<video file> <seconds to its start>]`.
 * With a video it makes a store, a host and a show, uploads the video and schedules it as the
 * show's premiere; either way it listens on loopback and prints one JSON line (`"ready":true`).
 */
const [dataDir, videoPath, lead] = process.argv.slice(2);
if (!dataDir)
  throw new Error('usage: premiere-child-server.ts <data folder> [<video> <seconds to its start>]');
// The embedded database on disk, as a single-node server keeps it.
const db = await openPgliteDatabase(join(dataDir, 'db'));
await migrate(db);
const app = await openTestApp({
  db,
  env: { VITRINE_LIVE_DIR: join(dataDir, 'live'), LIVE_RECONNECT_GRACE_MS: '30000', LOG_LEVEL: 'warn' },
});
await app.server.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.server.address();
const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
let setUp = {};
if (videoPath && lead) {
  const pageUid = await createTestStore(app, 'premiere-crash-store');
  const host = await signInStaff(app, pageUid, 'host');
  const showUid = await createTestShow(app, pageUid, host, 'Crashed premiere', {
    schedule: { startsAt: '2026-12-01T19:00', timeZone: 'UTC' },
  });
  const base = `/staff/stores/${pageUid}/shows/${showUid}/premiere`;
  const uploaded = await app.server.inject({
    method: 'PUT',
    url: `${base}/video?fileName=crash.mp4`,
    headers: { ...host.headers, 'content-type': 'video/mp4' },
    payload: readFileSync(videoPath),
  });
  if (uploaded.statusCode !== 200) throw new Error(`upload: ${uploaded.body}`);
  // On a whole second, counted once the server is up (a loaded machine starts it slowly).
  const startsAt = Math.ceil((Date.now() + Number(lead) * 1000) / 1000) * 1000;
  const scheduled = await app.server.inject({
    method: 'POST',
    url: `${base}/schedule`,
    headers: host.headers,
    payload: { startsAt: new Date(startsAt).toISOString().slice(0, 19), timeZone: 'UTC' },
  });
  if (scheduled.statusCode !== 200) throw new Error(`schedule: ${scheduled.body}`);
  setUp = { pageUid, showUid, headers: host.headers, startsAt };
}
process.stdout.write(`${JSON.stringify({ ready: true, origin, ...setUp })}\n`);
