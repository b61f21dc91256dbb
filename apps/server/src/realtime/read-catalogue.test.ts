import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminHeaders, openTestApp } from '../test-support/test-app.ts';

const PAGE = 'shop-etag';
let app: Awaited<ReturnType<typeof openTestApp>>;

beforeAll(async () => {
  app = await openTestApp();
  const page = await app.server.inject({
    method: 'PUT',
    url: `/admin/pages/${PAGE}`,
    headers: adminHeaders,
    payload: { name: 'ETags', language: 'en', currency: 'EUR' },
  });
  expect(page.statusCode, page.body).toBeLessThan(300);
});
afterAll(async () => {
  await app?.close();
});

const settingsUrl = `/reads/playerSettings?params=${encodeURIComponent(JSON.stringify({ pageUid: PAGE }))}`;
const get = (url: string, headers: Record<string, string> = {}) =>
  app.server.inject({ method: 'GET', url, headers });

describe('GET /reads/{name}', () => {
  it('answers the read with an ETag, then 304 without a body while it is unchanged', async () => {
    const first = await get(settingsUrl);
    expect(first.statusCode, first.body).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/".+"$/);
    expect(first.headers['cache-control']).toBe('no-cache');
    const posted = await app.server.inject({
      method: 'POST',
      url: '/reads/playerSettings',
      payload: { pageUid: PAGE },
    });
    expect(first.json()).toEqual(posted.json());

    const again = await get(settingsUrl, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    // Strong or weak, among others: a match either way.
    expect((await get(settingsUrl, { 'if-none-match': `"other", ${etag.slice(2)}` })).statusCode).toBe(304);

    const changed = await app.server.inject({
      method: 'PUT',
      url: `/admin/pages/${PAGE}`,
      headers: adminHeaders,
      payload: {
        name: 'ETags',
        language: 'en',
        currency: 'EUR',
        playerSettings: { primaryColor: '#123456' },
      },
    });
    expect(changed.statusCode, changed.body).toBeLessThan(300);
    const fresh = await get(settingsUrl, { 'if-none-match': etag });
    expect(fresh.statusCode).toBe(200);
    expect(fresh.headers.etag).not.toBe(etag);
  });

  it('refuses bad params with a 4xx that says why, never a 500', async () => {
    const notJson = await get('/reads/playerSettings?params=%7Bnope');
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json()).toMatchObject({ error: 'invalid_request', message: 'params: not JSON.' });
    const wrong = await get(`/reads/playerSettings?params=${encodeURIComponent('{"pageUid":5}')}`);
    expect(wrong.statusCode).toBe(400);
    const tooLong = await get(`/reads/playerSettings?params=${'x'.repeat(5000)}`);
    expect(tooLong.statusCode).toBe(400);
    const unknown = await get('/reads/everything?params=%7B%7D');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: 'not_found' });
  });
});
