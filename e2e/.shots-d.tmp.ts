// Temporary (not committed): screenshots for brief D.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from './support/browser.ts';
import { startServer } from './support/server-process.ts';

const suffix = process.argv[2] ?? 'x';
const server = await startServer({ VITRINE_DATA_DIR: mkdtempSync(join(tmpdir(), 'shots-d-')), VITRINE_ADMIN_KEY: 'k-0123456789012345678' });
const browser = await launchChromium();
try {
  for (const [name, viewport] of [['desktop', { width: 1280, height: 800 }], ['phone', { width: 390, height: 844 }]] as const) {
    const context = await browser.newContext({ viewport, locale: 'en-GB', ...(viewport.width < 500 ? { isMobile: true, hasTouch: true } : {}) });
    const page = await context.newPage();
    await page.goto(`${server.url}/widget/demo-store/demo-autumn-living`);
    await page.locator('.player').waitFor();
    await page.waitForTimeout(1500);
    await page.screenshot({ path: `/tmp/shots-d/${suffix}-standalone-${name}.png` });
    // Embedded inline in a short host window.
    await page.setViewportSize(viewport);
    const host = await context.newPage();
    await host.setViewportSize({ width: viewport.width, height: Math.round(viewport.height * 0.55) });
    await host.goto(server.retailerUrl ?? '');
    const frame = host.frameLocator('#live-player iframe');
    await frame.locator('.player[data-host="on"]').waitFor({ timeout: 30_000 });
    await host.locator('#live-player').evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await host.waitForTimeout(1500);
    await host.screenshot({ path: `/tmp/shots-d/${suffix}-inline-short-${name}.png` });
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
}
