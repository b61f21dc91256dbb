import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerCompression } from './compression.ts';
import { modulePreloadLinks, registerWebApp, type ViteManifest } from './web-app.ts';

const dist = mkdtempSync(join(tmpdir(), 'vitrine-web-'));
const script = `export const greeting = ${JSON.stringify('hello '.repeat(400))};\n`;
const app = Fastify({ logger: false });

beforeAll(async () => {
  mkdirSync(join(dist, 'assets'));
  writeFileSync(
    join(dist, 'index.html'),
    `<!doctype html><!--vitrine-runtime-config--><div id="root"></div>${'<!-- padding -->'.repeat(200)}`,
  );
  writeFileSync(join(dist, 'assets', 'app-1234.js'), script);
  writeFileSync(join(dist, 'assets', 'app-1234.js.br'), brotliCompressSync(script));
  writeFileSync(join(dist, 'assets', 'app-1234.js.gz'), gzipSync(script));
  await registerCompression(app);
  app.post('/functions/customerpage/big', async () => ({
    items: Array.from({ length: 200 }, (_, i) => `item ${i}`),
  }));
  app.post('/functions/customerpage/small', async () => ({ ok: true }));
  await registerWebApp(app, dist, { mainUrl: '', shopUrl: '', defaultPageUid: 'demo-store' });
});
afterAll(async () => {
  await app.close();
  rmSync(dist, { recursive: true, force: true });
});

const get = (acceptEncoding?: string) =>
  app.inject({
    method: 'GET',
    url: '/assets/app-1234.js',
    headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
  });

describe('the built web app', () => {
  it("sends the build's brotli copy of an asset to a browser that accepts it, cached for good", async () => {
    const response = await get('gzip, deflate, br, zstd');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.rawPayload.length).toBeLessThan(script.length / 10);
    expect(Buffer.from(response.rawPayload).equals(brotliCompressSync(script))).toBe(true);
  });

  it('sends the gzip copy where brotli is not accepted, and the file itself where nothing is', async () => {
    const gzipped = await get('gzip');
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(Buffer.from(gzipped.rawPayload).equals(gzipSync(script))).toBe(true);

    const plain = await get();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
  });

  it('compresses pages and API answers that are worth it, and leaves small ones as they are', async () => {
    const page = await app.inject({
      method: 'GET',
      url: '/some/client/route',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(page.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(page.rawPayload).toString()).toContain('<div id="root"></div>');

    const big = await app.inject({
      method: 'POST',
      url: '/functions/customerpage/big',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(big.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(big.rawPayload).toString()).items).toHaveLength(200);

    const small = await app.inject({
      method: 'POST',
      url: '/functions/customerpage/small',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual({ ok: true });
  });

  it('reads request bodies as sent: a body marked as compressed is not inflated', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/functions/customerpage/small',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync('{"a":1}'),
    });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
  });
});

describe("a public page's route chunks", () => {
  // A build's manifest, as Vite writes it (apps/web/dist/.vite/manifest.json).
  const manifest: ViteManifest = {
    'index.html': { file: 'assets/index-1.js', isEntry: true, imports: ['_app-core-1.js'] },
    '_app-core-1.js': {
      file: 'assets/app-core-1.js',
      imports: ['_vendor-1.js'],
      css: ['assets/app-core-1.css'],
    },
    '_vendor-1.js': { file: 'assets/vendor-1.js' },
    'src/features/shop/shop-page.tsx': { file: 'assets/shop-page-1.js', imports: ['_shop-page-2.js'] },
    '_shop-page-2.js': {
      file: 'assets/shop-page-2.js',
      imports: ['_app-core-1.js', '_vendor-1.js', '_duration-1.js'],
      css: ['assets/shop-page-1.css'],
    },
    '_duration-1.js': { file: 'assets/duration-1.js' },
  };

  it('are fetched from the head with what they import, without what index.html loads already', () => {
    expect(modulePreloadLinks(manifest, ['src/features/shop/shop-page.tsx'])).toEqual([
      '<link rel="modulepreload" crossorigin href="/assets/shop-page-1.js">',
      '<link rel="modulepreload" crossorigin href="/assets/shop-page-2.js">',
      '<link rel="modulepreload" crossorigin href="/assets/duration-1.js">',
      '<link rel="preload" as="style" crossorigin href="/assets/shop-page-1.css">',
    ]);
  });

  it('are none for a module the build does not have, or without a manifest', () => {
    expect(modulePreloadLinks(manifest, ['src/features/gone.tsx'])).toEqual([]);
    expect(modulePreloadLinks({}, ['src/features/shop/shop-page.tsx'])).toEqual([]);
  });
});
