import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumForFile } from './support/file-chromium.ts';
import { webLocale } from './support/locale-texts.ts';
import { saveScreenshot } from './support/screenshots.ts';
import { testServer } from './support/test-server.ts';

// A returning shopper starts in the language they saved for the store (spec §3 "Reservation",
// §7 loadUserReservation; issue 13 item 18): a shopper who shopped in Danish comes back without
// ?lang in a German browser and is shown Danish texts and kroner, not German and euros.

const { baseUrl } = testServer();
const LIVE_SHOW = '/widget/demo-store/demo-autumn-living';

const da = webLocale('da') as { player: Record<string, string> };

const browser = chromiumForFile();

const mugPrice = (page: Page) =>
  page.locator('.product-card', { hasText: 'Ceramic mug' }).locator('.product-card__price').textContent();

describe('the language saved for the store', () => {
  it('starts a returning shopper in it without ?lang: Danish texts and kroner in a German browser', async () => {
    const context = await browser().newContext({ viewport: { width: 1280, height: 800 }, locale: 'de-DE' });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));

    // First visit in Danish: the shopper adds the mug and opens the cart, which saves Danish.
    await page.goto(`${baseUrl}${LIVE_SHOW}?lang=da`);
    expect((await mugPrice(page))?.trim()).toMatch(/kr\./);
    await page.locator('.product-card', { hasText: 'Ceramic mug' }).click();
    const details = page.locator('.product-details');
    // The first add saves the shopper's language as her reservation.
    const saved = page.waitForResponse(
      (response) => response.url().endsWith('/saveUserReservation') && response.ok(),
    );
    await details.getByRole('button', { name: da.player.addToCart }).click();
    await details.locator('[data-feedback="added"]').waitFor();
    await page.click('.player-cart-button');
    await page.locator('[data-testid="player-cart"] .player-cart__line').waitFor();
    await saved;
    // This browser keeps the ?lang as its own pick too; forget that, so what brings Danish back
    // below is the reservation saved on the server.
    await page.evaluate(() => localStorage.removeItem('vitrine-language'));

    // Back without ?lang, in a German browser, on a desktop and on a phone.
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      await page.goto(`${baseUrl}${LIVE_SHOW}`);
      await page.waitForFunction(() => document.documentElement.lang === 'da');
      await page.waitForFunction(() =>
        [...document.querySelectorAll('.product-card')].some(
          (card) => card.textContent?.includes('Ceramic mug') && card.textContent.includes('kr.'),
        ),
      );
      expect((await mugPrice(page))?.trim()).not.toMatch(/€/);
      // The player's texts are Danish (the show menu's label is in the page on both layouts).
      await page.locator(`[aria-label="${da.player.menu}"]`).waitFor({ state: 'attached' });
      await saveScreenshot(page, `saved-language-da-${viewport.width}`);
    }
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
