// What the host page's product data adds to the player (spec §3 "Host product data"), in Chromium
// on the demo retailer: the player on the retailer page asks for the product's data and shows the
// reseller prices and the option styles the retailer answers with.
import type { BrowserContext, FrameLocator, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { chromiumForFile } from './support/file-chromium.ts';
import { saveScreenshot } from './support/screenshots.ts';
import { testServer } from './support/test-server.ts';

const { baseUrl, retailerUrl } = testServer();
/** Generous: two cores are shared with the server and other tests. */
const WAIT = { timeout: 30_000 };
const LIVE_SHOW = 'demo-autumn-living';
const SCARF_SWATCH = `${baseUrl}/demo-media/product-wool-scarf.jpg`;

const browser = chromiumForFile();
const pageErrors: string[] = [];

afterAll(async () => {
  expect(pageErrors).toEqual([]);
});

async function openRetailer(viewport: { width: number; height: number }): Promise<{
  context: BrowserContext;
  page: Page;
}> {
  const context = await browser().newContext({ viewport, locale: 'en-GB' });
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
  await page.goto(`${retailerUrl}/`);
  await page.waitForFunction(() => 'Vitrine' in window, undefined, WAIT);
  return { context, page };
}

/**
 * A modal player whose host answers every product-data request for the wool scarf with reseller
 * prices and a style per colour, as a retailer selling to resellers would.
 */
async function playerWithResellerData(page: Page): Promise<FrameLocator> {
  const playerId = await page.evaluate(
    ({ swatch, show }) => {
      const vitrine = window.Vitrine as unknown as {
        init(options: unknown): { playerId: string };
      };
      const player = vitrine.init({
        pageUid: 'demo-store',
        campaignUid: show,
        mode: 'modal',
        usableActions: ['GET_PRODUCT_DATA', 'UPDATE_CART_CONTENTS'],
        handlers: {
          get_user_product_data: (
            lookup: { product_id: string },
            reply: (type: string, payload: unknown) => void,
          ) => {
            if (lookup.product_id !== 'NL-wool-scarf') {
              reply('user_product_data', { product_id: lookup.product_id });
              return;
            }
            reply('user_product_data', {
              product_id: lookup.product_id,
              suggestedRetailPrice: 449,
              b2bRetailPrice: 299,
              retail_markup: 50,
              options: [
                {
                  id: 'colour',
                  optionType: 'color',
                  optionValues: [
                    {
                      id: 'rust',
                      images: [swatch],
                      styleUrl: 'https://nordlys.example/styles/rust',
                      minimumPrice: 399,
                    },
                    { id: 'oat', minimumPrice: 379 },
                  ],
                },
              ],
            });
          },
        },
      });
      return player.playerId;
    },
    { swatch: SCARF_SWATCH, show: LIVE_SHOW },
  );
  const frame = page.frameLocator(`iframe[src*="playerId=${encodeURIComponent(playerId)}"]`);
  await frame.locator('.player[data-host="on"]').waitFor(WAIT);
  return frame;
}

describe("the host's product data in the player", () => {
  it('shows the suggested retail price, B2B price, retail markup and option styles the host sends', async () => {
    const { context, page } = await openRetailer({ width: 1280, height: 900 });
    const frame = await playerWithResellerData(page);
    await frame.locator('.player__panel li[data-product-uid="nordlys-wool-scarf"] .product-card').click();
    const extras = frame.locator('.player__panel [data-testid="product-extras"]');
    await extras.waitFor(WAIT);
    const row = (key: string) => extras.locator(`[data-extra="${key}"]`);
    // The demo store sells in DKK.
    expect(await row('suggestedRetailPrice').innerText()).toMatch(
      /Suggested retail price\s+(DKK|kr\.?)\s?449\.00/,
    );
    expect(await row('b2bRetailPrice').innerText()).toMatch(/B2B price\s+(DKK|kr\.?)\s?299\.00/);
    expect(await row('retailMarkup').innerText()).toMatch(/Retail markup\s+50 %/);
    const rust = extras.locator('li[data-option-value="rust"]');
    expect(await rust.locator('img').getAttribute('src')).toBe(SCARF_SWATCH);
    expect(await rust.innerText()).toMatch(/Rust\s+from (DKK|kr\.?)\s?399\.00/);
    expect(await rust.getByRole('link', { name: 'About the Rust style' }).getAttribute('href')).toBe(
      'https://nordlys.example/styles/rust',
    );
    expect(await extras.locator('li[data-option-value="oat"]').innerText()).toMatch(/Oat\s+from/);
    // An option value the host says nothing about is not listed.
    expect(await extras.locator('li[data-option-value="charcoal"]').count()).toBe(0);
    // A swatch picks its colour in the variant picker, as the picker's own button would.
    const swatch = rust.getByRole('button', { name: 'Colour: Rust' });
    await swatch.click();
    await expect.poll(() => swatch.getAttribute('aria-pressed'), WAIT).toBe('true');
    await saveScreenshot(page, 'host-product-data-desktop');
    // On a phone the modal fills the screen and the product's details (with the extras) show in its sheet.
    await page.setViewportSize({ width: 390, height: 844 });
    await frame.locator('.mobile-menu button', { hasText: 'Products' }).click();
    const phoneExtras = frame.locator('.mobile-sheet [data-testid="product-extras"]');
    await phoneExtras.locator('[data-extra="b2bRetailPrice"]').scrollIntoViewIfNeeded(WAIT);
    await saveScreenshot(page, 'host-product-data-phone');
    // Closing the sheet closes the product too (back on the desktop the list shows).
    await frame.locator('.mobile-sheet').getByRole('button', { name: 'Close' }).first().click();
    await page.setViewportSize({ width: 1280, height: 900 });
    // A product the host sends nothing extra for shows no extras.
    await frame.locator('.player__panel li[data-product-uid="nordlys-ceramic-mug"] .product-card').click();
    await frame
      .locator('.player__panel .product-details[data-product-uid="nordlys-ceramic-mug"]')
      .waitFor(WAIT);
    expect(await frame.locator('.player__panel [data-testid="product-extras"]').count()).toBe(0);
    await context.close();
  });
});
