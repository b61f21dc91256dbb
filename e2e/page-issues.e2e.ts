/**
 * What Lighthouse finds on the public pages (issue 32), checked in Chromium: no DevTools issue
 * (Best Practices takes points off for any; its `inspector-issues` audit reads the same Audits
 * domain: the live show once loaded zod, whose `new Function` probe the page's CSP refused), and
 * the shop page's head fetching what it paints first (its lazy route's chunks, its lead cover).
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser.ts';
import { testServer } from './support/test-server.ts';

const { baseUrl } = testServer();

/** The demo store's first clip page, as the sitemap lists it (the demo's ended show has clips). */
async function firstClipPath(): Promise<string> {
  const sitemap = await (await fetch(`${baseUrl}/sitemap.xml`)).text();
  const clip = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)]
    .map((match) => new URL(match[1] ?? '').pathname)
    .find((path) => path.includes('/clips/'));
  if (!clip) throw new Error('the sitemap lists no clip page');
  return clip;
}

const PAGES: Record<string, { path: () => Promise<string> | string; ready: string }> = {
  shop: { path: () => '/', ready: '.shop-row' },
  live: { path: () => '/widget/demo-store/demo-autumn-living', ready: '.player' },
  replay: { path: () => '/widget/demo-store/demo-kitchen-favourites', ready: '.player' },
  clip: { path: firstClipPath, ready: '.clip-video video' },
};

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe("the shop page's head", () => {
  it('fetches its lazy route chunks and its lead cover before the entry script has run', async () => {
    const html = await (await fetch(`${baseUrl}/`)).text();
    expect(html).toMatch(/<link rel="modulepreload" crossorigin href="\/assets\/shop-page-[^"]+\.js">/);
    expect(html).toMatch(/<link rel="preload" as="image" href="[^"]+" fetchpriority="high">/);
    // After the entry script and its chunks, which the page needs first.
    expect(html.indexOf('rel="modulepreload" crossorigin href="/assets/shop-page-')).toBeGreaterThan(
      html.indexOf('<script type="module"'),
    );
    // The page loads each of them once: the app's own import finds the preloaded module.
    const page = await browser.newPage();
    const fetched: string[] = [];
    page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
    await page.goto(`${baseUrl}/`, { waitUntil: 'networkidle' });
    await page.locator('.shop-row').first().waitFor({ timeout: 60_000 });
    await page.close();
    const shopChunks = fetched.filter((path) => /^\/assets\/shop-page-/.test(path));
    expect(shopChunks.length).toBeGreaterThan(0);
    expect(shopChunks).toEqual([...new Set(shopChunks)]);
  });
});

describe('DevTools issues', () => {
  for (const [name, { path, ready }] of Object.entries(PAGES)) {
    it(`reports none on the ${name} page once it has loaded`, async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
      const cdp = await page.context().newCDPSession(page);
      const issues: string[] = [];
      cdp.on('Audits.issueAdded', ({ issue }) => issues.push(JSON.stringify(issue).slice(0, 500)));
      await cdp.send('Audits.enable');
      await page.goto(`${baseUrl}${await path()}`, { waitUntil: 'networkidle' });
      await page.locator(ready).first().waitFor({ timeout: 60_000 });
      await page.waitForLoadState('networkidle');
      await page.close();
      expect(issues).toEqual([]);
    });
  }
});
