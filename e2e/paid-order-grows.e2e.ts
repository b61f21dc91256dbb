import type { Locator, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { chromiumForFile } from './support/file-chromium.ts';
import { webLocale } from './support/locale-texts.ts';
import { recordPageActivity } from './support/page-activity.ts';
import { saveScreenshot } from './support/screenshots.ts';
import { testServer } from './support/test-server.ts';

/*
 * An order that grows after its payment (issue 27, item 1): the shopper pays for a mug, goes back
 * to the show and adds a second one. The unit added afterwards can be taken away again and the
 * paid one cannot; the cart offers paying the rest, and paying it settles the order.
 */

const { baseUrl } = testServer();
const SHOW = '/widget/demo-store/demo-autumn-living';
const WAIT = { timeout: 30_000 };
const checkoutTexts = webLocale('checkout/en') as { checkout: { orderState: Record<string, string> } };
const en = webLocale('en') as {
  player: { backToList: string };
};
const plain = (text: string | null | undefined) => (text ?? '').replace(/\s/g, ' ').trim();

const browser = chromiumForFile();
const pageErrors: string[] = [];
afterAll(async () => {
  expect(pageErrors).toEqual([]);
});

async function addMug(page: Page) {
  const card = page.locator('.player__panel li[data-product-uid="nordlys-ceramic-mug"] .product-card');
  await card.click();
  const details = page.locator('.product-details');
  await details.getByRole('button', { name: 'Add to cart' }).click();
  await details.locator('[data-feedback="added"], [data-feedback="updated"]').waitFor(WAIT);
  await details.getByRole('button', { name: en.player.backToList }).click();
}

async function openCart(page: Page) {
  const cart = page.locator('[data-testid="player-cart"]');
  if (!(await cart.isVisible())) await page.click('.player-cart-button');
  await cart.locator('.player-cart__line').first().waitFor(WAIT);
  return cart;
}

/**
 * Waits for the page to show `locator` after a navigation, with a bound for a busy machine; a
 * timeout says, on its first line (the line a CI's summary keeps), where the page was and what it
 * showed instead, and below what the page was doing. (A CI once waited 30 s for the checkout
 * form after "Go to checkout" and said no more; a later one 90 s, at the player's address with
 * the cart's checkout in it, the player and its cart still showing; the same test takes 8 s here.)
 */
async function shownAfterNavigation(page: Page, locator: Locator, activity: { describe(): string }) {
  try {
    await locator.waitFor({ timeout: 90_000 });
  } catch (error) {
    const shown = plain(
      await page
        .locator('body')
        .innerText({ timeout: 5_000 })
        .catch(() => '(unreadable)'),
    );
    const first = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    throw new Error(`${first} at ${page.url()}, showing: ${shown.slice(0, 400)}\n${activity.describe()}`);
  }
}

async function payOnProviderPage(page: Page) {
  await page.waitForURL(/\/payments\/test\//, WAIT);
  await page.click('button.approve');
  await page.waitForSelector('[data-payment="received"]', WAIT);
}

describe('a paid order that grows', { timeout: 240_000 }, () => {
  it('keeps the paid unit, lets the later one go, and offers paying the rest', async () => {
    const context = await browser().newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    const page = await context.newPage();
    const activity = recordPageActivity(page);
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${baseUrl}${SHOW}`);
    await addMug(page);
    let cart = await openCart(page);
    await cart.getByRole('link', { name: 'Go to checkout' }).click();

    const form = page.locator('.checkout-form');
    await shownAfterNavigation(page, form, activity);
    await form.getByLabel('Country or region', { exact: true }).selectOption('DK');
    await form.getByLabel('Full name', { exact: true }).fill('Mette Hansen');
    await form.getByLabel('Street address', { exact: true }).fill('Mejlgade 1');
    await form.getByLabel('Post code', { exact: true }).fill('8000');
    await form.getByLabel('City', { exact: true }).fill('Aarhus');
    await form.getByLabel('Email address', { exact: true }).fill('mette@example.com');
    await form.getByLabel('Phone number', { exact: true }).fill('+45 12 34 56 78');
    await form.getByLabel('Home delivery').check();
    await form.getByLabel('Card (test payment)').check();
    await form.getByLabel('I accept the payment terms and the terms and conditions.').check();
    await page.getByRole('button', { name: 'Continue to confirmation' }).click();
    await page.locator('.checkout-summary__action').click();
    await payOnProviderPage(page);

    // Back to the show: a second mug, added after the payment of DKK 228.00 (mug and freight).
    await page.goto(`${baseUrl}${SHOW}`);
    await addMug(page);
    cart = await openCart(page);
    await expect.poll(async () => cart.getByTestId('line-quantity').textContent(), WAIT).toBe('2');
    const decrease = cart.getByRole('button', { name: 'One less Ceramic mug' });
    expect(await decrease.isEnabled()).toBe(true);
    const payRest = cart.getByRole('link', {
      name: checkoutTexts.checkout.orderState.payRest?.replace('{{amount}}', 'DKK 179.00') ?? '',
    });
    await payRest.waitFor(WAIT);
    await saveScreenshot(page, 'paid-order-grows-cart');

    // The later unit goes again; the paid one stays (its × is disabled, and the hint says why).
    await decrease.click();
    await expect.poll(async () => cart.getByTestId('line-quantity').textContent(), WAIT).toBe('1');
    await expect
      .poll(async () => cart.getByRole('button', { name: 'Remove Ceramic mug' }).isDisabled(), WAIT)
      .toBe(true);
    await cart.locator('[data-hint="paid"]').waitFor(WAIT);
    await cart.getByRole('link', { name: checkoutTexts.checkout.orderState.toOrder ?? '' }).waitFor(WAIT);

    // Grown again, the rest is paid from the cart's button.
    await page.goto(`${baseUrl}${SHOW}`);
    await addMug(page);
    cart = await openCart(page);
    await payRest.waitFor(WAIT);
    await payRest.click();
    await page.waitForURL(/\/demo-autumn-living\/[^/]+/, WAIT);
    const action = page.locator('.checkout-summary__action');
    await action.waitFor(WAIT);
    expect(plain(await action.textContent())).toContain('179.00');
    await action.click();
    await payOnProviderPage(page);
    expect(plain(await page.textContent('[data-testid="order-page"] [data-testid="order-total"]'))).toBe(
      'DKK 407.00',
    );
    await context.close();
  });
});
