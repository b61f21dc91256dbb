import type { LiveStreamView } from '@vitrine/protocol';
import { createTestShow, createTestStore, signInStaff } from './studio-staff.ts';
import { openTestApp } from './test-app.ts';

/**
 * A server in a process of its own, for tests that kill it (SIGKILL, as the out-of-memory killer
 * would): `node --import tsx live-child-server.ts <recordings folder>`. It makes a store, a host
 * and a show, listens on loopback (HTTP, RTMP and WHIP on free ports), and prints one JSON line:
 * where to publish and to watch.
 */
const liveDir = process.argv[2];
if (!liveDir) throw new Error('usage: live-child-server.ts <recordings folder>');
const app = await openTestApp({ env: { RTMP_PORT: '0', VITRINE_LIVE_DIR: liveDir, LOG_LEVEL: 'warn' } });
await app.server.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.server.address();
const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
const pageUid = await createTestStore(app);
const host = await signInStaff(app, pageUid, 'host');
const showUid = await createTestShow(app, pageUid, host, 'Killed mid-show', { visibility: 'draft' });
const stream = (
  await app.server.inject({
    method: 'GET',
    url: `/staff/stores/${pageUid}/shows/${showUid}/stream`,
    headers: { ...host.headers, host: new URL(origin).host },
  })
).json() as LiveStreamView;
process.stdout.write(
  `${JSON.stringify({
    origin,
    showUid,
    streamKey: stream.streamKey,
    previewUrl: `${origin}${stream.previewUrl}`,
    whipUrl: `${origin}/whip`,
    rtmpPort: app.services.live.ingestPorts().rtmpPort,
  })}\n`,
);
