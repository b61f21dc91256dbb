import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { publishTestStream } from './live-publisher.ts';
import { createTestShow, createTestStore, signInStaff, type TestStaffMember } from './studio-staff.ts';
import { openTestApp } from './test-app.ts';

type TestApp = Awaited<ReturnType<typeof openTestApp>>;

/**
 * A live test file's app, opened before the file's tests with `env`, a live folder of its own
 * (named `<folderPrefix>…`) and a store with its host; closed after them, with the RTMP
 * publishers it started killed and the folder removed.
 */
export function liveTestApp(folderPrefix: string, env: Record<string, string>) {
  let liveDir: string | undefined;
  let opened: TestApp | undefined;
  let store: { pageUid: string; host: TestStaffMember } | undefined;
  const publishers: ReturnType<typeof publishTestStream>[] = [];
  const required = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the live test app opens in beforeAll');
    return value;
  };
  const app = () => required(opened);
  const host = () => required(store).host;
  const pageUid = () => required(store).pageUid;

  /** The app's RTMP port now (the media worker's, which a restarted worker may change). */
  function rtmpPort(): number {
    const port = app().services.live.ingestPorts().rtmpPort;
    if (!port) throw new Error('the app offers no RTMP port (RTMP_PORT off, or the worker not ready)');
    return port;
  }

  /** The app's answer to a viewer's GET of `url` (no credentials). */
  async function get(url: string) {
    const response = await app().server.inject({ method: 'GET', url });
    return {
      status: response.statusCode,
      text: response.body,
      raw: response.rawPayload,
      headers: response.headers,
    };
  }

  beforeAll(async () => {
    liveDir = mkdtempSync(join(tmpdir(), folderPrefix));
    opened = await openTestApp({ env: { VITRINE_LIVE_DIR: liveDir, ...env } });
    const storeUid = await createTestStore(opened);
    store = { pageUid: storeUid, host: await signInStaff(opened, storeUid, 'host') };
  });
  afterAll(async () => {
    for (const publisher of publishers) publisher.kill('SIGKILL');
    await opened?.close();
    if (liveDir) rmSync(liveDir, { recursive: true, force: true });
  });

  return {
    app,
    host,
    pageUid,
    rtmpPort,
    get,
    /** The encoders this file started, killed after its tests (a test adds those it spawns itself). */
    publishers,
    /** A public show of the store, made by its host; answers its uid. */
    newShow: (name: string) => createTestShow(app(), pageUid(), host(), name),
    /** Publishes the test stream to the app's RTMP ingest with `streamKey`; killed after the file. */
    publishRtmp(streamKey: string, options?: Parameters<typeof publishTestStream>[1]) {
      const publisher = publishTestStream(`rtmp://127.0.0.1:${rtmpPort()}/live/${streamKey}`, options);
      publishers.push(publisher);
      return publisher;
    },
  };
}
