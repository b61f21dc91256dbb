// Imported images are copied into the store's media, not hot-linked (issue 33 §8): through the
// import call on a real (embedded) database, with the images served by a local HTTP server.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StudioProduct } from '@vitrine/protocol';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCatalogueStore, shopifyCsv, uploadStudioCsv } from '../../test-support/shopify-csv.ts';
import { openTestApp } from '../../test-support/test-app.ts';
import { fetchRemoteImage, isPrivateAddress } from './remote-image.ts';

const STORE = 'store-images';
let app: Awaited<ReturnType<typeof openTestApp>>;
let owner: { authorization: string };
let images: Server;
let origin = '';

beforeAll(async () => {
  const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#cc8844' } })
    .png()
    .toBuffer();
  images = createServer((request, response) => {
    if (request.url === '/lamp.png') return response.writeHead(200, { 'content-type': 'image/png' }).end(png);
    if (request.url === '/page.html')
      return response.writeHead(200, { 'content-type': 'text/html' }).end('<p>');
    if (request.url === '/moved.png') return response.writeHead(302, { location: '/lamp.png' }).end();
    if (request.url === '/huge.png')
      return response
        .writeHead(200, { 'content-type': 'image/png', 'content-length': String(50 * 1048576) })
        .end();
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
  app = await openTestApp({ env: { VITRINE_IMPORT_IMAGES: 'copy-any-address' } });
  owner = await openCatalogueStore(app, STORE, { name: 'I', language: 'da', currency: 'DKK' });
});
afterAll(async () => {
  await app?.close();
  await new Promise((resolve) => images?.close(resolve));
});

describe('copying imported images', () => {
  it('stores a fetched image in the media store; one that fails stays linked, with a warning per row', async () => {
    const csv = shopifyCsv(
      { Handle: 'lamp', Title: 'Lamp', 'Variant Price': '10', 'Image Src': `${origin}/lamp.png` },
      { Handle: 'lamp', 'Image Src': `${origin}/missing.png` },
      { Handle: 'page', Title: 'Page', 'Variant Price': '10', 'Image Src': `${origin}/page.html` },
      { Handle: 'moved', Title: 'Moved', 'Variant Price': '10', 'Image Src': `${origin}/moved.png` },
      { Handle: 'huge', Title: 'Huge', 'Variant Price': '10', 'Image Src': `${origin}/huge.png` },
    );
    const response = await uploadStudioCsv(app, `${STORE}/product-import`, csv, owner);
    expect(response.statusCode, response.body).toBe(200);
    const { report, created } = response.json();
    expect(created).toBe(4);
    expect(
      report.warnings.map((warning: { row: number; message: string }) => [warning.row, warning.message]),
    ).toEqual([
      [2, expect.stringMatching(/missing\.png" answered HTTP 404: it stays linked/)],
      [4, expect.stringMatching(/page\.html" is not an image \(text\/html\)/)],
      [5, expect.stringMatching(/moved\.png" redirects elsewhere \(HTTP 302\)/)],
      [6, expect.stringMatching(/huge\.png" is larger than 10 MB/)],
    ]);
    const list = await app.server.inject({
      method: 'GET',
      url: `/staff/stores/${STORE}/products?q=lamp`,
      headers: owner,
    });
    const uid = list.json().products[0].uid;
    const lamp: StudioProduct = (
      await app.server.inject({
        method: 'GET',
        url: `/staff/stores/${STORE}/products/${uid}`,
        headers: owner,
      })
    ).json();
    expect(lamp.images[0]).toMatch(new RegExp(`^/media/${STORE}/[A-Za-z0-9_-]+-\\d+\\.webp$`));
    expect(lamp.images[1]).toBe(`${origin}/missing.png`);
    const served = await app.server.inject({ method: 'GET', url: lamp.images[0] as string });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
  });

  it('never fetches from the server’s own network unless told to (tests only)', async () => {
    const limits = { maxBytes: 1_000_000, timeoutMs: 5_000 };
    await expect(fetchRemoteImage(`${origin}/lamp.png`, limits)).rejects.toThrow('private network address');
    await expect(
      fetchRemoteImage(`http://localhost:${new URL(origin).port}/lamp.png`, limits),
    ).rejects.toThrow('private network address');
    await expect(fetchRemoteImage('http://169.254.169.254/latest/meta-data/', limits)).rejects.toThrow(
      'private network address',
    );
    await expect(fetchRemoteImage('file:///etc/passwd', limits)).rejects.toThrow('not an http(s) URL');
    expect(
      (await fetchRemoteImage(`${origin}/lamp.png`, { ...limits, allowPrivateAddresses: true })).byteLength,
    ).toBeGreaterThan(0);
    for (const address of ['10.1.2.3', '192.168.0.1', '172.20.0.1', '::1', 'fd00::1', '::ffff:127.0.0.1'])
      expect(isPrivateAddress(address), address).toBe(true);
    for (const address of ['93.184.216.34', '2606:2800:220:1::1'])
      expect(isPrivateAddress(address), address).toBe(false);
  });
});
