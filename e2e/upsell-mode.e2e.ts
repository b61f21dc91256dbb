// Upsell mode (spec §2 "Widget layout flags") in Chromium: putting the open product in the cart
// turns it on, and the product's details then suggest the show's other products.
import { describe, expect, it } from 'vitest';
import { englishPage } from './support/browser.ts';
import { chromiumForFile } from './support/file-chromium.ts';
import { saveScreenshot } from './support/screenshots.ts';
import { testServer } from './support/test-server.ts';

const { baseUrl } = testServer();
const LIVE_SHOW = '/widget/demo-store/demo-autumn-living';
/** Generous: two cores are shared with the server and other tests. */
const WAIT = { timeout: 30_000 };

const browser = chromiumForFile();

describe('upsell mode', () => {
  it("suggests the show's other products after an add to the cart, until a suggestion is opened or dismissed", async () => {
    const pageErrors: string[] = [];
    const { context, page } = await englishPage(browser(), pageErrors);
    await page.goto(`${baseUrl}${LIVE_SHOW}`);
    const player = page.locator('.player');
    const panel = page.locator('.player__panel');
    await panel.locator('.product-card', { hasText: 'Ceramic mug' }).click();
    await panel.locator('.product-details[data-product-uid="nordlys-ceramic-mug"]').waitFor(WAIT);
    // Off until something goes into the cart.
    expect(await player.getAttribute('data-upsell')).toBe('false');
    expect(await page.locator('[data-testid="upsell"]').count()).toBe(0);

    const added = page.waitForResponse((response) => response.url().endsWith('/shopapiv2/cart/addSingle'));
    await panel.locator('.product-details').getByRole('button', { name: 'Add to cart' }).click();
    expect((await added).status()).toBe(200);
    const upsell = panel.locator('[data-testid="upsell"]');
    await upsell.waitFor(WAIT);
    expect(await player.getAttribute('data-upsell')).toBe('true');
    expect(await upsell.getByRole('heading').innerText()).toBe('Goes well with');
    // The show's other products, not the one just added, priced as the list prices them. Their
    // order is the live list's, which cues and other tests' purchases move: compare as a set.
    expect(
      (
        await upsell.locator('li').evaluateAll((items) => items.map((item) => item.dataset.productUid))
      ).sort(),
    ).toEqual(['nordlys-linen-shirt', 'nordlys-wool-scarf']);
    expect(await upsell.locator('li[data-product-uid="nordlys-wool-scarf"]').innerText()).toMatch(
      /Wool scarf\s+DKK\s?399\.00/,
    );
    await saveScreenshot(page, 'upsell-desktop');

    // Opening a suggestion shows its details and ends upsell mode there.
    await upsell.getByRole('button', { name: /^Wool scarf/ }).click();
    await panel.locator('.product-details[data-product-uid="nordlys-wool-scarf"]').waitFor(WAIT);
    expect(await player.getAttribute('data-upsell')).toBe('false');
    expect(await page.locator('[data-testid="upsell"]').count()).toBe(0);

    // Back on the mug, another add turns it on again; "No thanks" turns it off.
    await panel.locator('.product-details .link-button', { hasText: 'All products' }).click();
    await panel.locator('.product-card', { hasText: 'Ceramic mug' }).click();
    const addedAgain = page.waitForResponse((response) =>
      response.url().endsWith('/shopapiv2/cart/addSingle'),
    );
    await panel.locator('.product-details').getByRole('button', { name: 'Add to cart' }).click();
    expect((await addedAgain).status()).toBe(200);
    await upsell.waitFor(WAIT);
    await upsell.getByRole('button', { name: 'No thanks' }).click();
    await upsell.waitFor({ state: 'detached', ...WAIT });
    expect(await player.getAttribute('data-upsell')).toBe('false');

    // Give the mugs back for the other browser tests.
    await page.click('.player-cart-button');
    const cart = page.locator('[data-testid="player-cart"]');
    const quantity = cart.locator('[data-testid="line-quantity"]');
    await expect.poll(() => quantity.textContent(), WAIT).toBe('2');
    await cart.getByRole('button', { name: 'One less Ceramic mug' }).click();
    await expect.poll(() => quantity.textContent(), WAIT).toBe('1');
    await cart.getByRole('button', { name: 'Remove Ceramic mug' }).click();
    await cart.locator('.player-cart__line').waitFor({ state: 'detached', ...WAIT });
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('on a phone, shows the suggestions in the products sheet after an add, and closing the sheet ends upsell mode', async () => {
    const context = await browser().newContext({
      viewport: { width: 390, height: 844 },
      hasTouch: true,
      isMobile: true,
      locale: 'en-GB',
    });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${baseUrl}${LIVE_SHOW}`);
    await page.locator('.mobile-menu button', { hasText: 'Products' }).tap();
    const sheet = page.locator('.mobile-sheet');
    await sheet.locator('.product-card', { hasText: 'Ceramic mug' }).tap();
    await sheet.locator('.product-details[data-product-uid="nordlys-ceramic-mug"]').waitFor(WAIT);
    const added = page.waitForResponse((response) => response.url().endsWith('/shopapiv2/cart/addSingle'));
    await sheet.getByRole('button', { name: 'Add to cart' }).tap();
    expect((await added).status()).toBe(200);
    const upsell = sheet.locator('[data-testid="upsell"]');
    await upsell.waitFor(WAIT);
    // Scrolled into the sheet's view: the shopper sees the suggestions without looking for them.
    await expect.poll(() => upsell.getByRole('heading').isVisible(), WAIT).toBe(true);
    const shown = await upsell.boundingBox();
    expect(shown && shown.y + shown.height).toBeLessThanOrEqual(844);
    await saveScreenshot(page, 'upsell-phone');
    await sheet.getByRole('button', { name: 'Close' }).first().tap();
    await expect.poll(() => page.locator('.player').getAttribute('data-upsell'), WAIT).toBe('false');

    // Give the mug back for the other browser tests.
    await page.locator('.mobile-menu button', { hasText: 'Cart' }).tap();
    const cart = page.locator('[data-testid="player-cart"]');
    await cart.getByRole('button', { name: 'Remove Ceramic mug' }).tap();
    await cart.locator('.player-cart__line').waitFor({ state: 'detached', ...WAIT });
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
