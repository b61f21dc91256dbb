import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminHeaders, openTestApp } from '../test-support/test-app.ts';

/**
 * Issue 31 §5, one write API: the admin key's copies of studio calls are gone. Automation makes
 * the studio's calls (`/staff/stores/:pageUid/…`) with the admin key, as the store's owner.
 */
let app: Awaited<ReturnType<typeof openTestApp>>;

beforeAll(async () => {
  app = await openTestApp();
});
afterAll(async () => {
  await app?.close();
});

const REMOVED = [
  ['PUT', '/admin/pages/shop/products/mug'],
  ['POST', '/admin/comments/reply'],
  ['POST', '/admin/comments/verify'],
  ['GET', '/admin/pages/shop/campaigns/show/comments'],
  ['PUT', '/admin/pages/shop/campaigns/show/bulk-comments'],
  ['GET', '/admin/pages/shop/campaigns/show/competitions'],
  ['POST', '/admin/pages/shop/campaigns/show/competitions'],
  ['PATCH', '/admin/competitions/raffle'],
  ['POST', '/admin/competitions/raffle/draw'],
  ['POST', '/admin/competitions/raffle/notice'],
  ['POST', '/admin/checkouts/order/sendToPacking'],
] as const;

describe('the admin-key copies of studio calls', () => {
  it('answer 404 with the admin key, while the operator status still answers', async () => {
    for (const [method, url] of REMOVED) {
      const response = await app.server.inject({
        method,
        url,
        headers: adminHeaders,
        ...(method === 'GET' ? {} : { payload: {} }),
      });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    const status = await app.server.inject({ method: 'GET', url: '/admin/status', headers: adminHeaders });
    expect(status.statusCode).toBe(200);
  });
});
