/**
 * The public pages raise no issue in Chromium's DevTools (issue 32): Lighthouse's Best Practices
 * takes points off for any (its `inspector-issues` audit reads the same Audits domain). The live
 * show's chat loads zod, whose `new Function` probe the page's Content-Security-Policy refused.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser.ts';
import { testServer } from './support/test-server.ts';

const { baseUrl } = testServer();
const PAGES = {
  shop: { path: '/', ready: '.shop-row' },
  live: { path: '/widget/demo-store/demo-autumn-living', ready: '.player' },
  replay: { path: '/widget/demo-store/demo-kitchen-favourites', ready: '.player' },
};

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe('DevTools issues', () => {
  for (const [name, { path, ready }] of Object.entries(PAGES)) {
    it(`reports none on the ${name} page once it has loaded`, async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
      const cdp = await page.context().newCDPSession(page);
      const issues: string[] = [];
      cdp.on('Audits.issueAdded', ({ issue }) => issues.push(JSON.stringify(issue).slice(0, 500)));
      await cdp.send('Audits.enable');
      await page.goto(`${baseUrl}${path}`, { waitUntil: 'networkidle' });
      await page.locator(ready).first().waitFor({ timeout: 60_000 });
      await page.waitForLoadState('networkidle');
      await page.close();
      expect(issues).toEqual([]);
    });
  }
});
