import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminHeaders, openTestApp } from '../test-support/test-app.ts';
import { framedPageOwner } from './page-security.ts';

/**
 * Issue 12 §8: pages defend themselves. Before the fix no page sent a Content-Security-Policy,
 * so any site could frame the checkout (clickjacking) and nothing limited injected scripts.
 */
const PAGE = 'shop-frames';
const OTHER_PAGE = 'shop-unframed';
const CAMPAIGN = 'camp-frames';
const RETAILER = 'https://retailer.example';

let app: Awaited<ReturnType<typeof openTestApp>>;
let dist: string;

function directives(policy: string | undefined): Map<string, string> {
  expect(policy, 'content-security-policy header').toBeTypeOf('string');
  return new Map(
    (policy as string).split(';').map((part) => {
      const [name = '', ...values] = part.trim().split(/\s+/);
      return [name, values.join(' ')];
    }),
  );
}

async function page(url: string) {
  const response = await app.server.inject({ method: 'GET', url });
  expect(response.statusCode, url).toBe(200);
  expect(response.headers['content-type']).toMatch(/^text\/html/);
  return response;
}

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'vitrine-dist-'));
  writeFileSync(
    join(dist, 'index.html'),
    '<!doctype html><html><head><!--vitrine-runtime-config--></head><body><div id="root"></div></body></html>',
  );
  app = await openTestApp({ env: { VITRINE_WEB_DIST: dist } });
  for (const [uid, allowedOrigins] of [
    [PAGE, [RETAILER, 'https://www.retailer.example/shop']],
    [OTHER_PAGE, []],
  ] as const) {
    const response = await app.server.inject({
      method: 'PUT',
      url: `/admin/pages/${uid}`,
      headers: adminHeaders,
      payload: { name: uid, allowedOrigins },
    });
    expect(response.statusCode, response.body).toBeLessThan(300);
  }
  const campaign = await app.server.inject({
    method: 'PUT',
    url: `/admin/pages/${PAGE}/campaigns/${CAMPAIGN}`,
    headers: adminHeaders,
    payload: { name: 'Frames' },
  });
  expect(campaign.statusCode, campaign.body).toBeLessThan(300);
});

afterAll(async () => {
  await app?.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('frame-ancestors', () => {
  it.each([
    `/widget/${PAGE}`,
    `/widget/${PAGE}/${CAMPAIGN}`,
    `/widget/${PAGE}/campaign/${CAMPAIGN}/event/ev-1`,
    `/widget/multi-event?pageUid=${PAGE}`,
    // Without a store named, the default one: the first store made (no VITRINE_DEFAULT_PAGE here).
    '/widget/multi-event',
    `/${CAMPAIGN}/checkout-1`,
    `/${CAMPAIGN}/checkout-1/confirm`,
    `/${CAMPAIGN}/checkout-1/success`,
    `/${CAMPAIGN}/create`,
    `/options/${PAGE}/${CAMPAIGN}/checkout-1`,
    `/select-checkout-location/${PAGE}/${CAMPAIGN}/checkout-1`,
    `/${PAGE}/${CAMPAIGN}/checkout-1/error`,
  ])('%s may be framed by the store’s allowed origins only', async (url) => {
    const response = await page(url);
    expect(directives(response.headers['content-security-policy'] as string).get('frame-ancestors')).toBe(
      `'self' ${RETAILER} https://www.retailer.example`,
    );
    expect(response.headers['x-frame-options']).toBeUndefined();
  });

  it.each([
    '/',
    '/terms',
    '/login',
    '/auth/callback?code=x&state=y',
    `/${PAGE}/tiktok`,
    `/widget/${OTHER_PAGE}/${CAMPAIGN}`,
    '/widget/no-such-store',
    '/no-such-campaign/checkout-1',
  ])('%s may not be framed by anyone', async (url) => {
    const response = await page(url);
    expect(directives(response.headers['content-security-policy'] as string).get('frame-ancestors')).toBe(
      "'none'",
    );
    expect(response.headers['x-frame-options']).toBe('DENY');
  });
});

describe('content security policy', () => {
  it('allows the page’s own scripts and its runtime-config script by hash, nothing inline else', async () => {
    const response = await page('/');
    const inline = /<script>(.*?)<\/script>/.exec(response.body)?.[1];
    expect(inline).toContain('window.__VITRINE__=');
    const hash = createHash('sha256')
      .update(inline as string)
      .digest('base64');
    const policy = directives(response.headers['content-security-policy'] as string);
    expect(policy.get('script-src')).toBe(`'self' 'sha256-${hash}'`);
    expect(policy.get('object-src')).toBe("'none'");
    expect(policy.get('base-uri')).toBe("'none'");
    expect(policy.get('default-src')).toBe("'self'");
  });

  it('marks every answer nosniff with a strict referrer policy, API answers included', async () => {
    for (const url of ['/', '/healthz', '/no-such-api/admin/x', `/reads/playerSettings?pageUid=${PAGE}`]) {
      const response = await app.server.inject({ method: 'GET', url });
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
      expect(response.headers['referrer-policy'], url).toBe('strict-origin-when-cross-origin');
    }
  });

  it('names API origins on other hosts in connect-src, as http(s) and ws(s)', async () => {
    const split = await openTestApp({
      env: { VITRINE_WEB_DIST: dist, VITRINE_MAIN_URL: 'https://api.shop.example/base' },
    });
    try {
      const response = await split.server.inject({ method: 'GET', url: '/' });
      expect(directives(response.headers['content-security-policy'] as string).get('connect-src')).toBe(
        "'self' ws://localhost https: https://api.shop.example wss://api.shop.example",
      );
    } finally {
      await split.close();
    }
  });
});

describe('content security policy and the Host header', () => {
  it('never lets a forged Host header add directives', async () => {
    const response = await app.server.inject({
      method: 'GET',
      url: '/',
      headers: { host: "evil.example; script-src 'unsafe-inline' *" },
    });
    const policy = String(response.headers['content-security-policy'] ?? '');
    expect(policy).not.toContain("'unsafe-inline' *");
    expect(policy.match(/script-src/g)).toHaveLength(1);
  });
});

describe('framedPageOwner', () => {
  it('never treats an undecodable path as a store page', () => {
    expect(framedPageOwner('/widget/%E0%A4%A', new URLSearchParams(), 'demo')).toBeNull();
  });
});

describe('framedPageOwner of the studio', () => {
  it('never lets a store (or a campaign named "studio") frame the studio', () => {
    for (const path of [
      '/studio',
      '/studio/link',
      '/studio/demo-store/orders',
      '/studio/demo-store/products/p1',
    ])
      expect(framedPageOwner(path, new URLSearchParams(), 'demo')).toBeNull();
  });
});
