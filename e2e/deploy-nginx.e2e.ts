import { execFile, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect as connectHttp2 } from 'node:http2';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CheckoutView, PaymentStarted } from '@vitrine/protocol';
import { subscriptionKey } from '@vitrine/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { HOME_DELIVERY } from '../apps/server/src/test-support/commerce-fixture.ts';
import { freePort } from '../apps/server/src/test-support/free-port.ts';
import { releaseEntry } from '../apps/server/src/test-support/release-build.ts';
import { type RunningServer, startServer } from './support/server-process.ts';

/**
 * The deploy recipe, run: deploy/nginx/vitrine.conf (rendered with this test's ports and paths on
 * the lines it marks "test:") in Debian's nginx, with a self-signed certificate, in front of the
 * built server (VITRINE_TRUST_PROXY=127.0.0.1, as deploy/vitrine.env.example sets it). Over HTTPS
 * through nginx: the storefront on HTTP/2, the realtime WebSocket, the demo's live show (playlist,
 * init segment and segment, the segment then served from nginx's cache), and a checkout paid
 * through the calls and the test payment page, whose address the server builds from the
 * forwarded headers; and `npm run doctor` against it all.
 */
const ROOT = new URL('../', import.meta.url).pathname;
const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((path) => existsSync(path)) ?? null;
const OPENSSL = ['/usr/bin/openssl', '/bin/openssl'].find((path) => existsSync(path)) ?? null;
const SHOW = 'demo-autumn-living';
const STORE = 'demo-store';
const MUG = 'nordlys-ceramic-mug';
const ADMIN_KEY = 'e2e-deploy-nginx-admin-key-0123456789';

if (!NGINX || !OPENSSL) {
  console.warn(
    'deploy-nginx.e2e.ts skipped: it needs nginx and openssl (apt-get install nginx openssl; .ci/run installs them)',
  );
}

/** The site with each line marked `# test: <name>` replaced; every marked line must be there once. */
function renderSite(site: string, replacements: Record<string, string>): string {
  let rendered = site;
  for (const [name, line] of Object.entries(replacements)) {
    const marked = new RegExp(`^.*# test: ${name}$`, 'gm');
    const found = rendered.match(marked)?.length ?? 0;
    if (found !== 1) throw new Error(`deploy/nginx/vitrine.conf has ${found} lines marked "# test: ${name}"`);
    rendered = rendered.replace(marked, line);
  }
  return rendered;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

let work: string;
let server: RunningServer;
let nginx: ReturnType<typeof spawn> | null = null;
let nginxLog = '';
let httpsOrigin: string;
let httpPort: number;
let certificate: Buffer;

/** A request to nginx over HTTPS (HTTP/1.1), trusting the test's certificate only. */
function https(
  path: string,
  init: { method?: string; body?: string; headers?: Record<string, string> } = {},
) {
  return new Promise<Answer>((resolve, reject) => {
    const request = httpsRequest(
      `${httpsOrigin}${path}`,
      { method: init.method ?? 'GET', headers: init.headers, ca: certificate, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(init.body);
  });
}

/** A call (POST with JSON) through nginx, as a signed-in shopper when a token is given. */
async function call<T>(path: string, payload: object, token?: string): Promise<{ status: number; body: T }> {
  const answer = await https(path, {
    method: 'POST',
    body: JSON.stringify(payload),
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
  return { status: answer.status, body: JSON.parse(answer.body.toString()) as T };
}

/** Asks `check` again, without a fixed pause in between beyond a short poll, until it answers a value. */
async function until<T>(what: string, check: () => Promise<T | null>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => null);
    if (value !== null) return value;
    if (nginx && nginx.exitCode !== null)
      throw new Error(`nginx exited while waiting for ${what}:\n${nginxLog}`);
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe.skipIf(!NGINX || !OPENSSL)('deploy/nginx/vitrine.conf in front of the built server', () => {
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'vitrine-deploy-nginx-'));
    // nginx's workers run as another user when it starts as root: they must reach their folders.
    chmodSync(work, 0o755);
    server = await startServer({
      VITRINE_DATA_DIR: join(work, 'data'),
      VITRINE_ADMIN_KEY: ADMIN_KEY,
      VITRINE_TRUST_PROXY: '127.0.0.1',
      // The demo's live show as a real stream (ffmpeg), so there is a live playlist to fetch.
      VITRINE_DEMO_LIVE: '1',
      VITRINE_DEMO_RETAILER_PORT: '-1',
    });

    const key = join(work, 'key.pem');
    const cert = join(work, 'cert.pem');
    execFileSync(
      OPENSSL as string,
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        // Long enough that npm run doctor finds it far from its end (it warns under 14 days).
        '90',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
      ],
      { stdio: 'ignore' },
    );
    certificate = readFileSync(cert);

    httpPort = await freePort();
    const httpsPort = await freePort();
    httpsOrigin = `https://127.0.0.1:${httpsPort}`;
    const site = renderSite(readFileSync(join(ROOT, 'deploy/nginx/vitrine.conf'), 'utf8'), {
      upstream: `    server ${new URL(server.url).host};`,
      cache: `proxy_cache_path ${work}/cache levels=1:2 keys_zone=vitrine_live:10m max_size=1g inactive=1h use_temp_path=off;`,
      http: `    listen 127.0.0.1:${httpPort};`,
      http6: '',
      https: `    listen 127.0.0.1:${httpsPort} ssl http2;`,
      https6: '',
      certificate: `    ssl_certificate ${cert};`,
      key: `    ssl_certificate_key ${key};`,
    });
    writeFileSync(join(work, 'vitrine.conf'), site);
    // Debian's nginx.conf, reduced to what a test run needs: its own pid, logs and temporary folders.
    writeFileSync(
      join(work, 'nginx.conf'),
      `pid ${work}/nginx.pid;
error_log ${work}/error.log warn;
worker_processes 1;
events { worker_connections 256; }
http {
  include /etc/nginx/mime.types;
  access_log off;
  client_body_temp_path ${work}/client-body;
  proxy_temp_path ${work}/proxy;
  fastcgi_temp_path ${work}/fastcgi;
  uwsgi_temp_path ${work}/uwsgi;
  scgi_temp_path ${work}/scgi;
  include ${work}/vitrine.conf;
}
`,
    );
    nginx = spawn(
      NGINX as string,
      ['-p', work, '-e', `${work}/error.log`, '-c', `${work}/nginx.conf`, '-g', 'daemon off;'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    nginx.stdout?.on('data', (chunk: Buffer) => {
      nginxLog += chunk.toString();
    });
    nginx.stderr?.on('data', (chunk: Buffer) => {
      nginxLog += chunk.toString();
    });
    await until('nginx answering /healthz', async () =>
      (await https('/healthz')).status === 200 ? true : null,
    );
  });

  afterAll(async () => {
    if (nginx && nginx.exitCode === null) {
      nginx.kill('SIGQUIT');
      await once(nginx, 'exit');
    }
    await server?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('sends plain HTTP to HTTPS', async () => {
    const answer = await new Promise<{ status: number; location: string | undefined }>((resolve, reject) => {
      httpRequest(`http://127.0.0.1:${httpPort}/widget/${STORE}`, (response) => {
        response.resume();
        resolve({ status: response.statusCode ?? 0, location: response.headers.location });
      })
        .on('error', reject)
        .end();
    });
    expect(answer.status).toBe(301);
    expect(answer.location).toBe(`https://127.0.0.1/widget/${STORE}`);
  });

  it('serves the storefront over HTTP/2 with TLS', async () => {
    const session = connectHttp2(httpsOrigin, { ca: certificate });
    try {
      const answer = await new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
        const stream = session.request({ ':path': '/', 'accept-encoding': 'identity' });
        let status = 0;
        let type = '';
        let body = '';
        stream.on('response', (headers) => {
          status = Number(headers[':status']);
          type = String(headers['content-type']);
        });
        stream.setEncoding('utf8');
        stream.on('data', (chunk: string) => {
          body += chunk;
        });
        stream.on('end', () => resolve({ status, type, body }));
        stream.on('error', reject);
      });
      expect(answer.status).toBe(200);
      expect(answer.type).toMatch(/^text\/html/);
      expect(answer.body).toContain('window.__VITRINE__');
      expect((await https('/sdk.js')).status).toBe(200);
    } finally {
      session.close();
    }
  });

  it('carries the realtime WebSocket: a live query answers its snapshot', async () => {
    const socket = new WebSocket(`${httpsOrigin.replace('https:', 'wss:')}/realtime?v=1`, {
      ca: certificate,
    });
    try {
      await once(socket, 'open');
      const params = { eventId: SHOW };
      const id = subscriptionKey('liveEventProducts', params);
      const snapshot = new Promise<{ docs: unknown[] }>((resolve) => {
        socket.on('message', (data: WebSocket.RawData) => {
          const frame = JSON.parse(String(data)) as { type: string; id?: string; docs?: unknown[] };
          if (frame.type === 'snapshot' && frame.id === id) resolve({ docs: frame.docs ?? [] });
        });
      });
      socket.send(JSON.stringify({ type: 'subscribe', id, query: 'liveEventProducts', params }));
      expect((await snapshot).docs.length).toBeGreaterThan(0);
    } finally {
      socket.close();
    }
  });

  it('plays the live show: playlist, init segment and segments, cached by nginx', async () => {
    const playlistPath = `/live/${SHOW}/live.m3u8`;
    // The demo's encoder has to start and the first segment be packaged: ask until it is listed.
    const playlist = await until('a live playlist with a segment', async () => {
      const answer = await https(playlistPath);
      const text = answer.body.toString();
      return answer.status === 200 && /\.m4s\s*$/m.test(text) ? text : null;
    });
    const base = new URL(playlistPath, httpsOrigin);
    const init = /#EXT-X-MAP:URI="([^"]+)"/.exec(playlist)?.[1];
    const segment = playlist.split('\n').find((line) => line.trim().endsWith('.m4s'));
    if (!init || !segment) throw new Error(`no init segment or segment in:\n${playlist}`);
    const pathOf = (uri: string) => new URL(uri.trim(), base).pathname;

    const initAnswer = await https(pathOf(init));
    expect(initAnswer.status).toBe(200);
    expect(initAnswer.body.subarray(4, 8).toString()).toBe('ftyp');
    const first = await https(pathOf(segment));
    expect(first.status).toBe(200);
    expect(first.body.length).toBeGreaterThan(1000);
    expect(first.headers['cache-control']).toContain('immutable');
    // The same segment again: nginx answers from its cache, the server is not asked.
    const again = await https(pathOf(segment));
    expect(again.headers['x-cache-status']).toBe('HIT');
    expect(again.body.equals(first.body)).toBe(true);
  }, 180_000);

  it('passes npm run doctor through nginx, the test certificate trusted', async () => {
    const args = [
      releaseEntry('doctor'),
      httpsOrigin,
      '--admin-key',
      ADMIN_KEY,
      '--http-port',
      String(httpPort),
      '--json',
    ];
    const env = { ...process.env, NODE_EXTRA_CA_CERTS: join(work, 'cert.pem') };
    const output = await new Promise<string>((resolve) => {
      execFile(process.execPath, args, { env }, (_error, stdout) => resolve(stdout));
    });
    const findings = (
      JSON.parse(output) as { findings: { check: string; status: string; message: string }[] }
    ).findings;
    const byCheck = Object.fromEntries(findings.map((found) => [found.check, found]));
    for (const check of [
      'tls',
      'header:hsts',
      'header:csp',
      'header:nosniff',
      'header:frames',
      'header:referrer',
      'readyz',
      'clock',
      'websocket',
      'rtmp',
      'whip',
    ])
      expect(byCheck[check], `${check}: ${JSON.stringify(byCheck[check])}`).toMatchObject({ status: 'ok' });
    // The live show's playlist as nginx serves it: cached a second.
    expect(byCheck.hls).toMatchObject({ status: 'ok', message: expect.stringContaining('Live playlist') });
    // The site redirects to https://$host/ (port 443); this test's HTTPS port is another one, and
    // the doctor says so rather than calling it fine.
    expect(byCheck.redirect).toMatchObject({
      status: 'fail',
      message: expect.stringContaining('https://127.0.0.1/'),
    });
  }, 60_000);

  it('completes a checkout through the calls and the test payment page', async () => {
    const session = await call<{ idToken: string }>('/functions/auth/signInAnonymously', {});
    expect(session.status).toBe(200);
    const token = session.body.idToken;
    const ref = { pageUid: STORE, campaignUid: SHOW };
    const added = await call<{ checkoutUid: string }>(
      '/shopapiv2/cart/addSingle',
      { ...ref, productUid: MUG },
      token,
    );
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const checkout = { ...ref, checkoutUid: added.body.checkoutUid };
    const details = await call(
      '/functions/customerpage/updateCheckoutDetails',
      { ...checkout, details: HOME_DELIVERY },
      token,
    );
    expect(details.status, JSON.stringify(details.body)).toBe(200);
    const started = await call<PaymentStarted>('/functions/customerpage/userPaymentStarted', checkout, token);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    // The server built the payment page's address from nginx's forwarded scheme and host.
    expect(started.body.paymentUrl.startsWith(`${httpsOrigin}/payments/test/pay/`)).toBe(true);

    const paymentPage = new URL(started.body.paymentUrl);
    expect((await https(`${paymentPage.pathname}${paymentPage.search}`)).status).toBe(200);
    const approved = await https(`/payments/test/pay/${started.body.transactionUid}/approve`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ key: paymentPage.searchParams.get('key') ?? '' }).toString(),
    });
    expect(approved.status).toBeLessThan(400);
    const paid = await until('the payment confirmed', async () => {
      const view = await call<CheckoutView>('/functions/customerpage/loadCheckout', checkout, token);
      return view.body.payed ? view.body : null;
    });
    expect(paid.orderNumber).toEqual(expect.any(Number));
  }, 120_000);
});
