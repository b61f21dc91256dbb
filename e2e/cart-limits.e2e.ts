import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { englishPage } from './support/browser.ts';
import { chromiumForFile } from './support/file-chromium.ts';
import { webLocale } from './support/locale-texts.ts';
import { testServer } from './support/test-server.ts';

// Issue 12 item 7: a shopper who reaches the store's cap on one product (default 10 per
// customer) is told so where the add-to-cart feedback appears.

const { baseUrl } = testServer();
const LIVE_SHOW = '/widget/demo-store/demo-autumn-living';
const DEFAULT_MAX_UNITS_PER_SHOPPER = 10;

const en = webLocale('en') as {
  player: Record<string, string>;
  checkout: {
    feedback: { label: Record<string, string>; message: Record<string, string> };
    cart: Record<string, string>;
  };
};

const browser = chromiumForFile();

/** A cart button's accessible name: its English text with the product's name. */
const label = (text: string | undefined, name: string) => (text ?? '').replace('{{name}}', name);

/** Clicks "Add to cart" and waits for the server's answer; answers its HTTP status. */
async function clickAdd(page: Page): Promise<number> {
  const answer = page.waitForResponse((response) => response.url().endsWith('/shopapiv2/cart/addSingle'));
  await page.locator('.product-details').getByRole('button', { name: en.player.addToCart }).click();
  return (await answer).status();
}

describe('per-customer cap on a product', () => {
  it('shows "Limit reached" with its message when the shopper adds one more than the store allows', async () => {
    const pageErrors: string[] = [];
    const { context, page } = await englishPage(browser(), pageErrors);
    await page.goto(`${baseUrl}${LIVE_SHOW}`);
    await page.locator('.product-card', { hasText: 'Ceramic mug' }).click();
    const details = page.locator('.product-details');
    await details.waitFor();

    for (let unit = 0; unit < DEFAULT_MAX_UNITS_PER_SHOPPER; unit++) expect(await clickAdd(page)).toBe(200);
    expect(await clickAdd(page)).toBe(409);
    const feedback = details.locator('[data-feedback="shopperLimit"]');
    await feedback.waitFor();
    expect(await feedback.textContent()).toBe(
      `${en.checkout.feedback.label.shopperLimit} ${en.checkout.feedback.message.shopperLimit}`,
    );

    // Raising the quantity in the cart is refused the same way, with the same message there.
    await page.click('.player-cart-button');
    const cart = page.locator('[data-testid="player-cart"]');
    const quantity = cart.locator('[data-testid="line-quantity"]');
    await cart.getByRole('button', { name: label(en.checkout.cart.increase, 'Ceramic mug') }).click();
    const lineFeedback = cart.locator('[data-feedback="shopperLimit"]');
    await lineFeedback.waitFor();
    expect(await lineFeedback.textContent()).toContain(en.checkout.feedback.message.shopperLimit);
    expect(await quantity.textContent()).toBe(String(DEFAULT_MAX_UNITS_PER_SHOPPER));

    // Give the mugs back for the other browser tests.
    for (let left = DEFAULT_MAX_UNITS_PER_SHOPPER; left > 1; left--) {
      await cart.getByRole('button', { name: label(en.checkout.cart.decrease, 'Ceramic mug') }).click();
      await expect.poll(() => quantity.textContent()).toBe(String(left - 1));
    }
    await cart.getByRole('button', { name: label(en.checkout.cart.remove, 'Ceramic mug') }).click();
    await cart.locator('.player-cart__line').waitFor({ state: 'detached' });
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
