import { describe, expect, it } from 'vitest';
import { chromiumForFile } from './support/file-chromium.ts';
import { answerTo, recordLiveFrames } from './support/live-frames.ts';
import { webLocale } from './support/locale-texts.ts';
import { saveScreenshot } from './support/screenshots.ts';
import { fillCheckoutDetails, shopperCall, signInAnonymously } from './support/shopper-api.ts';
import { testServer } from './support/test-server.ts';
import { playMuted } from './support/video-playback.ts';

const { baseUrl } = testServer();
const PAGE_UID = 'demo-store';
const CAMPAIGN_UID = 'demo-autumn-living';
const LIVE_SHOW = `/widget/${PAGE_UID}/${CAMPAIGN_UID}`;
const MUG_UID = 'nordlys-ceramic-mug';

const en = webLocale('en') as {
  player: { stock: Record<string, string> };
};

const browser = chromiumForFile();

/** A separate anonymous shopper orders one mug through the public API, as the checkout screens do. */
async function orderMug(buyerName: string): Promise<void> {
  const token = (await signInAnonymously()).idToken;
  const added = await shopperCall<{ status: string; checkoutUid: string }>(
    '/shopapiv2/cart/addSingle',
    { pageUid: PAGE_UID, campaignUid: CAMPAIGN_UID, productUid: MUG_UID },
    token,
  );
  expect(added.status).toBe('added');
  const ref = { pageUid: PAGE_UID, campaignUid: CAMPAIGN_UID, checkoutUid: added.checkoutUid };
  await fillCheckoutDetails(token, ref, { name: buyerName, emailAddress: 'buyer@example.com' });
  await shopperCall('/functions/customerpage/placeOrder', ref, token);
}

describe('popularity and purchase badges', () => {
  it('shows "<first name> just bought <product>" to a watching viewer, and "Popular" from the third purchase', async () => {
    const context = await browser().newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    const phone = await browser().newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      locale: 'en-GB',
    });
    const errors: string[] = [];
    const viewer = await context.newPage();
    const mobile = await phone.newPage();
    const liveFrames = [recordLiveFrames(viewer), recordLiveFrames(mobile)];
    for (const page of [viewer, mobile]) {
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`${baseUrl}${LIVE_SHOW}`);
    }
    const mugCard = viewer.locator(`.player__panel li[data-product-uid="${MUG_UID}"]`);
    await mugCard.waitFor();
    // The badges load and subscribe once the viewer starts the video; nothing is fetched before.
    expect(
      await viewer.evaluate(() =>
        performance.getEntriesByType('resource').some((entry) => /purchase-signals/.test(entry.name)),
      ),
    ).toBe(false);
    for (const page of [viewer, mobile]) {
      // Each page plays once its own player has rendered (the phone page may still be loading).
      await page.locator('.player video').waitFor({ state: 'attached' });
      await playMuted(page);
    }
    // The purchases query is "from now on": both viewers have subscribed (the server answered)
    // before anyone buys.
    for (const frames of liveFrames) {
      await frames.waitFor(answerTo('purchases', { pageUid: PAGE_UID, campaignUid: CAMPAIGN_UID }));
    }
    expect(await mugCard.locator('.stock-badge--popular').count()).toBe(0);

    await orderMug('Karen Blixen');
    const badge = viewer.locator('.purchase-badge');
    await badge.waitFor({ timeout: 10_000 });
    // First name only, the product's name from the show.
    expect(await badge.textContent()).toBe('Karen just bought Ceramic mug');
    await mobile.locator('.purchase-badge').waitFor({ timeout: 10_000 });

    await orderMug('Søren Kierkegaard');
    await viewer.waitForFunction(
      () => document.querySelector('.purchase-badge')?.textContent === 'Søren just bought Ceramic mug',
    );
    expect(await mugCard.locator('.stock-badge--popular').count()).toBe(0);

    await orderMug('Hans Christian Andersen');
    const popular = mugCard.locator('.stock-badge--popular');
    await popular.waitFor({ timeout: 10_000 });
    expect(await popular.textContent()).toBe(en.player.stock.popular);
    // Only the product bought three times is popular.
    expect(await viewer.locator('.player__panel .stock-badge--popular').count()).toBe(1);
    await viewer.locator('.purchase-badge', { hasText: 'Hans just bought' }).waitFor();
    await saveScreenshot(viewer, 'purchase-badges-1280');
    await mobile.locator('.purchase-badge', { hasText: 'Hans just bought' }).waitFor({ timeout: 10_000 });
    await saveScreenshot(mobile, 'purchase-badges-390');

    // The badge is transient (PURCHASE_BADGE_DURATION_MS, 6 s); the popular label stays.
    await badge.waitFor({ state: 'detached', timeout: 10_000 });
    expect(await popular.count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
    await phone.close();
  });
});
