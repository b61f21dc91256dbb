import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { DoctorFinding } from '@vitrine/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLiveStore } from '../features/live/live-store.ts';
import { setRecordedReplay } from '../test-support/recorded-show.ts';
import { releaseEntry } from '../test-support/release-build.ts';
import { adminHeaders, openTestApp, TEST_ADMIN_KEY } from '../test-support/test-app.ts';

const run = promisify(execFile);
const STORE = 'doctor-shop';
const SHOW = 'doctor-replay';

/** `npm run doctor -- …` as an operator runs it: its exit status, output and (with --json) findings. */
async function runDoctor(...args: string[]) {
  const outcome = await run(process.execPath, [releaseEntry('doctor'), ...args], {
    env: { ...process.env, VITRINE_ADMIN_KEY: '' },
  }).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      stdout: error.stdout + error.stderr,
    }),
  );
  const findings = args.includes('--json')
    ? (JSON.parse(outcome.stdout) as { findings: DoctorFinding[] }).findings
    : [];
  const byCheck = Object.fromEntries(findings.map((found) => [found.check, found]));
  return { ...outcome, byCheck };
}

let folder = '';
let app: Awaited<ReturnType<typeof openTestApp>>;
let address = '';

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'vitrine-doctor-'));
  // A storefront page to answer `/` (the built web app's place), naming the default store.
  const web = join(folder, 'web');
  await mkdir(web);
  await writeFile(
    join(web, 'index.html'),
    '<!doctype html><html><head><title>Shop</title><!--vitrine-runtime-config--></head><body></body></html>',
  );
  const dataDir = join(folder, 'data');
  app = await openTestApp({
    env: { VITRINE_WEB_DIST: web, VITRINE_DATA_DIR: dataDir, RTMP_PORT: '0', WHIP: 'on' },
  });
  for (const [url, payload] of [
    [`/admin/pages/${STORE}`, { name: 'Doctor shop', language: 'en', currency: 'EUR' }],
    [`/admin/pages/${STORE}/campaigns/doctor-campaign`, { name: 'Doctor campaign', deadline: null }],
    [
      `/admin/events/${SHOW}`,
      {
        pageUid: STORE,
        campaignId: 'doctor-campaign',
        status: 'public',
        currentStatus: 'planned',
        eventName: 'A show that ended',
        eventStartTimestamp: Date.now() - 3_600_000,
      },
    ],
  ] as const) {
    const response = await app.server.inject({ method: 'PUT', url, headers: adminHeaders, payload });
    expect(response.statusCode, response.body).toBeLessThan(300);
  }
  // The show ended with its replay in the recordings folder, as the live service leaves it.
  const now = Date.now();
  const streams = createLiveStore(app.db);
  await streams.ensure(SHOW, STORE, now);
  expect(
    await streams.transition(SHOW, 'idle', 'ended', { liveStartTime: now - 60_000, liveEndTime: now }),
  ).toBe(true);
  await mkdir(join(dataDir, 'live', SHOW), { recursive: true });
  await writeFile(
    join(dataDir, 'live', SHOW, 'replay.m3u8'),
    '#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:1\n#EXT-X-ENDLIST\n',
  );
  await setRecordedReplay(app, SHOW, now);
  await app.server.listen({ port: 0, host: '127.0.0.1' });
  address = `http://127.0.0.1:${(app.server.server.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  await app?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('npm run doctor against a running server over plain HTTP', () => {
  it('passes what works, warns that it is not HTTPS, and reads the status with the admin key', async () => {
    const { code, byCheck } = await runDoctor(address, '--admin-key', TEST_ADMIN_KEY, '--json');
    expect(byCheck.tls).toMatchObject({ status: 'warn', message: expect.stringContaining('Not HTTPS') });
    expect(byCheck['header:hsts']).toMatchObject({
      status: 'warn',
      message: expect.stringContaining('not HTTPS'),
    });
    for (const check of [
      'header:csp',
      'header:nosniff',
      'header:frames',
      'header:referrer',
      'readyz',
      'clock',
    ])
      expect(byCheck[check], check).toMatchObject({ status: 'ok' });
    expect(byCheck.websocket).toMatchObject({
      status: 'ok',
      message: expect.stringContaining(`liveEvents.shop of ${STORE} answered (1 shows)`),
    });
    // The ended show's replay, found through the public read, cached as a replay should be.
    expect(byCheck.hls).toMatchObject({
      status: 'ok',
      message: expect.stringContaining(`Replay playlist /live/${SHOW}/replay.m3u8: cached 86400 s`),
    });
    // The RTMP port the status read reports (a free one here), and WHIP's refusal without a key.
    const rtmpPort = app.services.live.ingestPorts().rtmpPort;
    expect(byCheck.rtmp).toMatchObject({
      status: 'ok',
      message: `RTMP port ${rtmpPort} on 127.0.0.1 accepts connections.`,
    });
    expect(byCheck.whip).toMatchObject({ status: 'ok', message: expect.stringContaining('(401)') });
    // Tests run with test payments and without SMTP: both are things to fix for a real shop.
    expect(byCheck.payments).toMatchObject({
      status: 'warn',
      message: expect.stringContaining('Only test payments'),
    });
    expect(byCheck.mail).toMatchObject({ status: 'warn', fix: expect.stringContaining('SMTP_URL') });
    expect(byCheck['disk:media']?.message).toContain('under the media folder');
    expect(code).toBe(0);
  });

  it('without the admin key says what it could not check; with a wrong one it fails', async () => {
    // Without the status read the RTMP port is not known: it is passed (1935 otherwise).
    const rtmpPort = String(app.services.live.ingestPorts().rtmpPort);
    const without = await runDoctor(address, '--rtmp-port', rtmpPort, '--json');
    expect(without.byCheck.payments).toMatchObject({
      status: 'warn',
      message: expect.stringContaining('pass its admin key'),
    });
    expect(without.code).toBe(0);
    const wrong = await runDoctor(
      address,
      '--admin-key',
      'not-the-key-0123456789',
      '--rtmp-port',
      rtmpPort,
      '--json',
    );
    expect(wrong.byCheck.status).toMatchObject({
      status: 'fail',
      message: expect.stringContaining('the admin key was refused'),
    });
    expect(wrong.code).toBe(1);
  });

  it('prints one line per check with its fix, and a usage for a bad call', async () => {
    const { stdout } = await runDoctor(
      address,
      '--rtmp-port',
      String(app.services.live.ingestPorts().rtmpPort),
    );
    expect(stdout).toMatch(/^warn {2}tls {14}Not HTTPS/m);
    expect(stdout).toMatch(/^ok {4}readyz {11}\/readyz: ready\.$/m);
    expect(stdout).toMatch(/^ {23}fix: Put the shop behind TLS/m);
    expect(stdout).toMatch(/\d+ ok, \d+ warn, 0 fail$/m);
    const usage = await runDoctor('shop.example');
    expect(usage).toMatchObject({ code: 2, stdout: expect.stringContaining('Usage: npm run doctor') });
  });
});

describe('npm run doctor against HTTPS with a self-signed certificate', () => {
  let server: Server | undefined;
  afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it('fails the TLS check naming the untrusted certificate, and exits 1', async () => {
    const key = join(folder, 'key.pem');
    const cert = join(folder, 'cert.pem');
    await run('openssl', [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '30',
      '-subj',
      '/CN=localhost',
      '-keyout',
      key,
      '-out',
      cert,
    ]);
    const httpsServer = createHttpsServer(
      { key: await readFile(key), cert: await readFile(cert) },
      (_request, response) => {
        response.writeHead(404).end();
      },
    );
    server = httpsServer;
    await new Promise<void>((resolve) => httpsServer.listen(0, '127.0.0.1', resolve));
    const port = (httpsServer.address() as AddressInfo).port;
    const { code, byCheck } = await runDoctor(
      `https://localhost:${port}`,
      '--http-port',
      String(port + 1),
      '--timeout-ms',
      '3000',
      '--json',
    );
    expect(byCheck.tls).toMatchObject({
      status: 'fail',
      message: expect.stringMatching(
        /certificate of localhost:\d+ is not trusted: a self-signed certificate \(DEPTH_ZERO_SELF_SIGNED_CERT\)/,
      ),
      fix: expect.stringContaining('trusted CA'),
    });
    // The rest is still checked (ignoring the certificate), and says what it finds there.
    expect(byCheck.headers).toMatchObject({
      status: 'fail',
      message: expect.stringContaining('answered 404'),
    });
    expect(code).toBe(1);
  });
});
