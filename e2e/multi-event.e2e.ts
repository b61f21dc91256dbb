import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayAhead, putCampaignShow, replayOfDemoVideo } from './support/admin-shows.ts';
import { launchChromium } from './support/browser.ts';
import { testServer } from './support/test-server.ts';
import { playNearEnd } from './support/video-playback.ts';

const { baseUrl } = testServer();

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium(['--autoplay-policy=no-user-gesture-required']);
  // A recording newer than the demo's, so the playlist runs: live show, this one, then the demo recording.
  await putCampaignShow(
    'demo-store',
    { uid: 'e2e-clip', name: 'Clip', deadline: dayAhead() },
    { eventName: 'Yesterday in the studio', ...replayOfDemoVideo(Date.now() - 86_400_000) },
  );
});
afterAll(async () => {
  await browser?.close();
});

describe('multi-event widget', () => {
  it('lists the store shows as a playlist and switches between them', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${baseUrl}/widget/demo-store/multi-event`);
    await page.waitForSelector('.playlist');
    const items = await page.$$eval('.playlist button', (buttons) =>
      buttons.map((b) => b.getAttribute('data-event-id')),
    );
    // Other test files add shows to the shared demo store, so check the order, not positions:
    // live shows first, then recordings newest first.
    const position = (eventId: string) => {
      expect(items).toContain(eventId);
      return items.indexOf(eventId);
    };
    expect(position('demo-autumn-living')).toBeLessThan(position('e2e-clip'));
    expect(position('e2e-clip')).toBeLessThan(position('demo-kitchen-favourites'));
    expect(await page.getAttribute('.player', 'data-show-state')).toBe('live');
    await page.click('.playlist button[data-event-id="demo-kitchen-favourites"]');
    await page.waitForFunction(
      () => document.querySelector('.player')?.getAttribute('data-show-state') === 'recorded',
    );
    await page.waitForSelector('li[data-product-uid="nordlys-oak-board"]');
    await page.close();
  });

  it('in clip mode counts down in seconds and plays the next show', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${baseUrl}/widget/demo-store/multi-event?clipMode=clip&event=e2e-clip`);
    await page.waitForSelector('.player');
    await playNearEnd(page, 0.3);
    await page.waitForSelector('.next-clip', { timeout: 10_000 });
    expect(await page.textContent('.next-clip p')).toMatch(/Kitchen favourites in \d s/);
    await page.waitForSelector(
      '.playlist button[aria-current="true"][data-event-id="demo-kitchen-favourites"]',
      {
        timeout: 10_000,
      },
    );
    await page.close();
  });
});
