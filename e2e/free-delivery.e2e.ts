import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayAhead, liveOnDemoVideo, putCampaignShow } from './support/admin-shows.ts';
import { launchChromium } from './support/browser.ts';
import { englishText as text } from './support/locale-texts.ts';
import { saveScreenshot } from './support/screenshots.ts';
import { adminCall, testServer } from './support/test-server.ts';

/**
 * A store's free-delivery threshold in the checkout (issue 13 §9): each paid shipping method says
 * from which order size it is free, and once the cart reaches it the method and the order's
 * freight are free, as the server computes them. A store of its own, so the demo store stays as
 * the other browser tests expect it.
 */
const { baseUrl } = testServer();
const STORE = 'e2e-free-delivery-store';
const CAMPAIGN = 'e2e-free-delivery-show';

const admin = (path: string, body: unknown) => adminCall('PUT', path, body);

let browser: Browser;
/** Text with the no-break spaces of formatted amounts as plain spaces. */
const plain = (value: string | null) => (value ?? '').replace(/\s/g, ' ');

beforeAll(async () => {
  browser = await launchChromium();
  // Free from 150,00 kr.: one bowl (99,00 kr.) pays freight, two do not.
  await admin(`/admin/pages/${STORE}`, {
    name: 'Free Delivery Test Shop',
    language: 'en',
    currency: 'DKK',
    freeDeliveryOver: { DKK: 15_000 },
  });
  await admin(`/staff/stores/${STORE}/products/bowl`, {
    name: 'Stoneware bowl',
    sku: 'SB-1',
    prices: { DKK: 9_900, SEK: 13_900, NOK: 13_900, EUR: 1_295, PLN: 5_900, GBP: 1_095 },
    stock: 50,
  });
  await putCampaignShow(
    STORE,
    { uid: CAMPAIGN, name: 'Free delivery show', deadline: dayAhead() },
    liveOnDemoVideo(),
  );
  await admin(`/admin/events/${CAMPAIGN}/products/bowl`, { productUid: 'bowl' });
});

afterAll(async () => {
  await browser?.close();
});

describe('free delivery from an order size (issue 13 §9)', () => {
  for (const [label, viewport] of [
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    it(`says from when delivery is free and makes it free once the cart gets there (${label})`, async () => {
      const context = await browser.newContext({ viewport, locale: 'en-GB' });
      const page = await context.newPage();
      await page.goto(`${baseUrl}/${CAMPAIGN}/create`);
      await page.waitForURL(new RegExp(`/${CAMPAIGN}/(?!create)[^/?#]+$`));
      const checkoutPath = new URL(page.url()).pathname;
      const addBowl = async () => {
        await page.goto(`${baseUrl}/widget/${STORE}/${CAMPAIGN}`);
        if (label === 'phone') await page.getByRole('button', { name: text('player.tabs.products') }).click();
        await page.locator('.product-card:visible', { hasText: 'Stoneware bowl' }).first().click();
        const details = page.locator('.product-details:visible');
        await details.getByRole('button', { name: text('player.addToCart') }).click();
        await details.locator('[data-feedback]').waitFor();
      };

      await addBowl();
      await page.goto(`${baseUrl}${checkoutPath}`);
      const home = page.locator('.choice', { hasText: text('checkout.shipping.home_delivery') });
      await home.getByText(text('checkout.shipping.freeFrom').replace('{{amount}}', 'DKK 150.00')).waitFor();
      expect(plain(await home.locator('.choice__price').textContent())).toBe('DKK 49.00');
      const pickup = page.locator('.choice', { hasText: text('checkout.shipping.store_pickup') });
      expect(await pickup.locator('.choice__hint').count()).toBe(0);
      await home.click();
      await page.getByTestId('order-freight').getByText('DKK 49.00').waitFor();
      await saveScreenshot(page, `free-delivery-below-${label}`, { fullPage: true });

      await addBowl();
      await page.goto(`${baseUrl}${checkoutPath}`);
      await page.getByTestId('order-freight').getByText('DKK 0.00').waitFor();
      expect(await home.locator('.choice__price').textContent()).toBe(text('checkout.shipping.free'));
      expect(plain(await page.getByTestId('order-total').textContent())).toBe('DKK 198.00');
      await saveScreenshot(page, `free-delivery-reached-${label}`, { fullPage: true });
      await context.close();
    });
  }
});
