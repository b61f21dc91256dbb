// What a retailer's CSV carries, as the shopper sees it in Chromium (issue 33 §8): a compare-at
// price struck through as "was" on the card, the details and the cart line; the picked colour's
// own photo; and a formatted description in which nothing of the XSS corpus runs.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveSince, putCampaignShow } from './support/admin-shows.ts';
import { axeFindings } from './support/axe.ts';
import { englishPage, launchChromium } from './support/browser.ts';
import { saveScreenshot } from './support/screenshots.ts';
import { adminCall, testServer } from './support/test-server.ts';
import { XSS_FLAG, XSS_PAYLOADS } from './support/xss-corpus.ts';

const { baseUrl } = testServer();
const PAGE_UID = 'demo-store';
/**
 * A show of this file's own: the browser tests share one server, and another file (upsell mode)
 * counts the demo show's products.
 */
const CAMPAIGN_UID = 'e2e-catalogue-deals';
const EVENT_ID = 'e2e-catalogue-deals-show';
const LIVE_SHOW = `/widget/${PAGE_UID}/${CAMPAIGN_UID}`;
const WAIT = { timeout: 30_000 };
const WHITE_PHOTO = '/demo-media/product-ceramic-mug.jpg';
const BLACK_PHOTO = '/demo-media/product-oak-board.jpg';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
  await adminCall('PUT', `/staff/stores/${PAGE_UID}/products/deal-lamp`, {
    name: 'Deal lamp',
    description: 'Hand-turned oak base.',
    descriptionHtml: `<p>Hand-turned <b>oak</b> base.</p><ul><li>Warm light</li></ul>${XSS_PAYLOADS.join('')}`,
    images: ['/demo-media/product-stoneware-vase.jpg'],
    prices: { DKK: 19900 },
    compareAtPrices: { DKK: 29900 },
    options: [
      {
        id: 'colour',
        optionType: 'color',
        name: 'Colour',
        optionValues: [
          { id: 'white', name: 'White', images: [WHITE_PHOTO] },
          { id: 'black', name: 'Black', images: [BLACK_PHOTO] },
        ],
      },
    ],
    variants: [
      {
        uid: 'lamp-white',
        name: 'White',
        prices: { DKK: 19900 },
        compareAtPrices: { DKK: 29900 },
        stock: 50,
        options: [{ optionId: 'colour', optionValueId: 'white' }],
      },
      // Its compare-at price is the price: no deal, nothing struck through.
      {
        uid: 'lamp-black',
        name: 'Black',
        prices: { DKK: 24900 },
        compareAtPrices: { DKK: 24900 },
        stock: 50,
        options: [{ optionId: 'colour', optionValueId: 'black' }],
      },
    ],
  });
  await putCampaignShow(PAGE_UID, { uid: CAMPAIGN_UID, name: 'Deals' }, { uid: EVENT_ID, ...liveSince() });
  await adminCall('PUT', `/admin/events/${EVENT_ID}/products/ep-deal-lamp`, {
    productUid: 'deal-lamp',
    sorting: 10,
  });
});
afterAll(async () => {
  await browser?.close();
});

/** Text with its runs of spaces (Intl writes no-break ones) as one space. */
const text = (value: string | null) => (value ?? '').replace(/\s+/g, ' ').trim();

describe('a deal in the player', () => {
  it('strikes the compare-at price through as "was" on the card, the details and the cart; shows the picked colour; runs no script', async () => {
    const problems: string[] = [];
    const { context, page } = await englishPage(browser, problems);
    page.on('dialog', (dialog) => {
      problems.push(`dialog: ${dialog.message()}`);
      void dialog.dismiss();
    });
    await page.goto(`${baseUrl}${LIVE_SHOW}`);
    const panel = page.locator('.player__panel');
    const card = panel.locator('.product-card', { hasText: 'Deal lamp' });
    await card.waitFor(WAIT);
    await card.scrollIntoViewIfNeeded();
    const price = card.locator('.product-card__price');
    expect(text(await price.locator('s').textContent())).toBe('was DKK 299.00');
    // What a screen reader reads: the price, then the struck one named as "was".
    expect(text(await price.textContent())).toBe('DKK 199.00 was DKK 299.00');
    await saveScreenshot(page, 'was-price-card-desktop');
    expect(await axeFindings(page)).toEqual([]);

    await card.click();
    const details = panel.locator('.product-details[data-product-uid="ep-deal-lamp"]');
    await details.waitFor(WAIT);
    const description = details.locator('.product-details__description');
    expect(await description.locator('strong').innerText()).toBe('oak');
    expect(await description.locator('li').first().innerText()).toBe('Warm light');
    const image = details.locator('[data-testid="product-main-image"]');
    await details.getByRole('button', { name: 'White' }).click();
    await expect.poll(() => image.getAttribute('src'), WAIT).toBe(WHITE_PHOTO);
    await saveScreenshot(page, 'was-price-details-desktop');
    expect(await axeFindings(page)).toEqual([]);
    expect(text(await details.locator('[data-testid="product-price"] s').textContent())).toBe(
      'was DKK 299.00',
    );
    await details.getByRole('button', { name: 'Black' }).click();
    await expect.poll(() => image.getAttribute('src'), WAIT).toBe(BLACK_PHOTO);
    await expect
      .poll(async () => text(await details.locator('[data-testid="product-price"]').textContent()), WAIT)
      .toBe('DKK 249.00');
    expect(await details.locator('[data-testid="product-price"] s').count()).toBe(0);

    // In the cart: the white lamp's line, its "was" struck through.
    await details.getByRole('button', { name: 'White' }).click();
    const added = page.waitForResponse((response) => response.url().endsWith('/shopapiv2/cart/addSingle'));
    await details.getByRole('button', { name: 'Add to cart' }).click();
    expect((await added).status()).toBe(200);
    await page.click('.player-cart-button');
    const cart = page.locator('[data-testid="player-cart"]');
    const line = cart.locator('.player-cart__line', { hasText: 'Deal lamp' });
    await line.waitFor(WAIT);
    expect(text(await line.locator('.player-cart__price s').textContent())).toBe('was DKK 299.00');
    await saveScreenshot(page, 'was-price-cart-desktop');
    expect(await axeFindings(page)).toEqual([]);
    await cart.getByRole('button', { name: 'Remove Deal lamp' }).click();
    await line.waitFor({ state: 'detached', ...WAIT });

    expect(
      await page.evaluate((flag) => (window as unknown as Record<string, unknown>)[flag], XSS_FLAG),
    ).toBeUndefined();
    expect(
      await page.evaluate(() =>
        [...document.querySelectorAll('.product-details__description *')].flatMap((element) =>
          element.getAttributeNames().filter((name) => !['href', 'target', 'rel'].includes(name)),
        ),
      ),
    ).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows the "was" price on a phone too', async () => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      locale: 'en-GB',
    });
    const page = await context.newPage();
    await page.goto(`${baseUrl}${LIVE_SHOW}`);
    await page.locator('.mobile-menu button', { hasText: 'Products' }).tap();
    const card = page.locator('.mobile-sheet .product-card', { hasText: 'Deal lamp' });
    await card.waitFor(WAIT);
    await card.scrollIntoViewIfNeeded();
    expect(text(await card.locator('.product-card__price s').textContent())).toBe('was DKK 299.00');
    await saveScreenshot(page, 'was-price-card-phone');
    expect(await axeFindings(page)).toEqual([]);
    await context.close();
  });
});
