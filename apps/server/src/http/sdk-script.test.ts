import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { registerSdkScript } from './sdk-script.ts';
import { registerWebApp } from './web-app.ts';

const dir = mkdtempSync(join(tmpdir(), 'vitrine-sdk-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function serverWith(path: string) {
  const app = Fastify({ logger: false });
  registerSdkScript(app, path);
  return app;
}

describe('GET /sdk.js', () => {
  it('serves the loader as public JavaScript with a short cache and an ETag', async () => {
    const path = join(dir, 'sdk.js');
    writeFileSync(path, 'window.Vitrine??={};');
    const app = serverWith(path);
    const response = await app.inject({ method: 'GET', url: '/sdk.js' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('window.Vitrine??={};');
    expect(response.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(response.headers['cache-control']).toBe('public, max-age=300');
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    const etag = response.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);

    const again = await app.inject({ method: 'GET', url: '/sdk.js', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    await app.close();
  });

  it('picks up a rebuilt file without a restart', async () => {
    const path = join(dir, 'rebuilt.js');
    writeFileSync(path, 'one');
    const app = serverWith(path);
    const first = await app.inject({ method: 'GET', url: '/sdk.js' });
    writeFileSync(path, 'two');
    utimesSync(path, new Date(), new Date(Date.now() + 5000));
    const second = await app.inject({ method: 'GET', url: '/sdk.js' });
    expect(second.body).toBe('two');
    expect(second.headers.etag).not.toBe(first.headers.etag);
    await app.close();
  });

  it('answers a JSON 404, never the web app, when the SDK is not built', async () => {
    const dist = join(dir, 'web');
    mkdirSync(dist);
    writeFileSync(join(dist, 'index.html'), '<!doctype html><!--vitrine-runtime-config-->');
    const app = serverWith(join(dir, 'missing.js'));
    await registerWebApp(app, dist, { mainUrl: '', shopUrl: '', defaultPageUid: 'demo-store' });
    const response = await app.inject({ method: 'GET', url: '/sdk.js' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: 'not_found' });
    // The SPA fallback still answers page routes, but not /sdk.js with a query.
    expect((await app.inject({ method: 'GET', url: '/widget/demo-store/' })).statusCode).toBe(200);
    const withQuery = await app.inject({ method: 'GET', url: '/sdk.js?v=2' });
    expect(withQuery.statusCode).toBe(404);
    expect(withQuery.headers['content-type']).toMatch(/json/);
    await app.close();
  });
});
