/**
 * A new retailer's first visit to the studio (issue 14, "Done when"): the one-time link
 * `npm start` printed signs the demo store's owner in, and works only once.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium } from './support/browser.ts';

const studioLink = inject('studioLink');

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe("a new retailer's studio journey", () => {
  it('signs in from the printed link, in one click, and the link does not work twice', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    const page = await context.newPage();
    await page.goto(studioLink);
    await page.waitForURL(/\/studio\/demo-store\/shows$/);
    expect(await page.locator('.studio-header__name').textContent()).toBe('Nordlys Living');
    expect(await page.locator('.studio-header .studio-badge').textContent()).toBe('Owner');

    const stranger = await browser.newContext({ locale: 'en-GB' });
    const replay = await stranger.newPage();
    await replay.goto(studioLink);
    await expect.poll(() => replay.getByRole('alert').textContent()).toMatch(/already used or has expired/);
    await stranger.close();
    await context.close();
  });
});
