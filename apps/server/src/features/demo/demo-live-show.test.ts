import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_MEDIA_DIR } from '../../app.ts';
import { waitFor } from '../../test-support/live-publisher.ts';
import { openTestApp, TEST_ADMIN_KEY } from '../../test-support/test-app.ts';
import { type DemoLiveShow, feedDemoLiveShow } from './demo-live-show.ts';
import { DEMO_LIVE_EVENT_ID, DEMO_PAGE_UID, seedDemoStoreIfEmpty } from './seed-demo.ts';

type TestApp = Awaited<ReturnType<typeof openTestApp>>;
let app: TestApp;
let liveDir: string;
let demo: DemoLiveShow | null = null;

beforeAll(async () => {
  liveDir = mkdtempSync(join(tmpdir(), 'vitrine-demo-live-'));
  app = await openTestApp({ env: { RTMP_PORT: '0', VITRINE_LIVE_DIR: liveDir } });
  await seedDemoStoreIfEmpty(app, TEST_ADMIN_KEY);
});

afterAll(async () => {
  await demo?.stop();
  await app?.close();
  rmSync(liveDir, { recursive: true, force: true });
});

it('feeds the demo live show from an encoder through the RTMP ingest: a true live stream', async () => {
  demo = await feedDemoLiveShow({
    live: app.services.live,
    log: app.server.log,
    pageUid: DEMO_PAGE_UID,
    video: join(DEMO_MEDIA_DIR, 'demo-show.mp4'),
  });
  expect(demo).not.toBeNull();
  const event = await waitFor(
    'the demo show live on its stream',
    async () => {
      const [record] = await app.services.events.eventsByIds([DEMO_LIVE_EVENT_ID]);
      return record?.event.cdnMp4VideoUrl?.endsWith('.m3u8') ? record : null;
    },
    30_000,
  );
  expect(event.event.currentStatus).toBe('live');
  expect(event.event.cdnMp4VideoUrl).toBe(`/live/${DEMO_LIVE_EVENT_ID}/live.m3u8`);
  const playlist = await waitFor(
    'segments',
    async () => {
      const response = await app.server.inject({
        method: 'GET',
        url: `/live/${DEMO_LIVE_EVENT_ID}/live.m3u8`,
      });
      return response.body.includes('.m4s') ? response.body : null;
    },
    30_000,
  );
  expect(playlist).toContain('#EXT-X-PROGRAM-DATE-TIME:');
  // No ENDLIST: a live playlist, which players show without a seek bar.
  expect(playlist).not.toContain('ENDLIST');
});
