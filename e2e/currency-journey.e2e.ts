import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumForFile } from './support/file-chromium.ts';
import { saveScreenshot } from './support/screenshots.ts';
import { testServer } from './support/test-server.ts';

// Currency shown = currency charged, one language from show to order (issue 13 §1, §8): a shopper
// watching in German buys the mug; the card, the cart, every checkout step, the payment page and
// the order show euros, never kroner, and the journey stays in German although the browser
// holds Danish from an earlier visit.

const { baseUrl } = testServer();
const LIVE_SHOW = '/widget/demo-store/demo-autumn-living';

const readJson = (path: string): unknown => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8'));
const de = readJson('../apps/web/src/locales/de.json') as {
  player: Record<string, string>;
  checkout: { cart: Record<string, string> };
};
const deScreens = (
  readJson('../apps/web/src/locales/checkout/de.json') as {
    checkout: {
      cart: Record<string, string>;
      form: { country: string; termsLabel: string; labels: Record<string, string> };
      shipping: Record<string, string>;
      paymentMethod: Record<string, string>;
      payment: Record<string, string>;
    };
  }
).checkout;

/** Any amount in kroner as de-DE writes it ("179,00 DKK") or as Danish does ("kr."). */
const KRONER = /DKK|kr\./;

const browser = chromiumForFile();
const pageErrors: string[] = [];

/** Intl writes a no-break space between amount and symbol; the test compares plain text. */
const spaced = (text: string | null) => (text ?? '').replace(/\s/g, ' ').trim();

const bodyText = (page: Page) => page.evaluate(() => document.body.innerText);

describe('a shopper in German', () => {
  it('buys the mug in euros: card, cart, checkout, payment page and order all show the card’s currency', async () => {
    const context = await browser().newContext({ viewport: { width: 1280, height: 800 }, locale: 'da-DK' });
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    // An earlier visit left Danish stored in this browser; the host opens the player in German.
    await page.goto(`${baseUrl}/`);
    await page.evaluate(() => localStorage.setItem('vitrine-language', 'da'));
    await page.goto(`${baseUrl}${LIVE_SHOW}?lang=de`);

    const card = page.locator('.product-card', { hasText: 'Ceramic mug' });
    const cardPrice = (await card.locator('.product-card__price').textContent())?.trim() ?? '';
    expect(cardPrice).toMatch(/^23,95\s€$/);

    await card.click();
    const details = page.locator('.product-details');
    await details.getByRole('button', { name: de.player.addToCart }).click();
    const feedback = details.locator('[data-feedback]');
    await feedback.waitFor();
    expect(await feedback.getAttribute('data-feedback')).toBe('added');

    // The cart: the card's price, in the card's currency.
    await page.click('.player-cart-button');
    const cart = page.locator('[data-testid="player-cart"]');
    await cart.locator('.player-cart__line').waitFor();
    expect((await cart.locator('.player-cart__price').textContent())?.trim()).toBe(cardPrice);
    expect(await cart.locator('[data-testid="cart-total"]').textContent()).toBe(cardPrice);
    await saveScreenshot(page, 'currency-de-cart', { fullPage: true });

    // The checkout, in the same frame and language.
    await cart.getByRole('link', { name: de.checkout.cart.toCheckout }).click();
    await page.waitForSelector('.checkout-form');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    expect(await page.textContent('[data-testid="order-total"]')).toBe(cardPrice);
    const form = page.locator('.checkout-form');
    const freights = (await form.locator('.choice__price').allTextContents()).map(spaced);
    expect(freights).toEqual(['6,95 €', 'Kostenlos', '4,95 €']);
    await form.getByLabel(deScreens.form.country).selectOption('DE');
    await form.getByLabel(deScreens.form.labels.name ?? '').fill('Anna Schmidt');
    await form.getByLabel(deScreens.form.labels.address ?? '').fill('Hauptstraße 5');
    await form.getByLabel(deScreens.form.labels.postCode ?? '').fill('10115');
    await form.getByLabel(deScreens.form.labels.city ?? '').fill('Berlin');
    await form.getByLabel(deScreens.form.labels.emailAddress ?? '').fill('anna@example.com');
    await form.getByLabel(deScreens.form.labels.phone ?? '').fill('+49 30 1234567');
    await form.getByLabel(deScreens.shipping.home_delivery ?? '').check();
    await form.getByLabel(deScreens.paymentMethod.test_card ?? '').check();
    await form.getByLabel(deScreens.form.termsLabel).check();
    expect(await bodyText(page)).not.toMatch(KRONER);
    await saveScreenshot(page, 'currency-de-checkout', { fullPage: true });
    await page.getByRole('button', { name: deScreens.cart.continue }).click();

    // Confirmation: 23,95 € + 6,95 € freight.
    await page.waitForURL(/\/confirm$/);
    await page.waitForSelector('.delivery-summary');
    expect(spaced(await page.textContent('[data-testid="order-total"]'))).toBe('30,90 €');
    expect(await bodyText(page)).not.toMatch(KRONER);
    await saveScreenshot(page, 'currency-de-confirm', { fullPage: true });

    // The provider's page charges what was shown, written in German.
    await page.click('.checkout-summary__action');
    await page.waitForURL(/\/payments\/test\//);
    expect(spaced(await page.textContent('.amount'))).toBe('30,90 €');
    await page.click('button.approve');

    // Back on the order, still in German and in euros.
    await page.waitForURL(/\/success\?transaction=/);
    await page.waitForSelector('[data-payment="received"]', { timeout: 20_000 });
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    expect(await page.textContent('.payment-received h2')).toBe(deScreens.payment.receivedTitle);
    expect(spaced(await page.textContent('[data-testid="order-page"] [data-testid="order-total"]'))).toBe(
      '30,90 €',
    );
    expect(await bodyText(page)).not.toMatch(KRONER);
    await saveScreenshot(page, 'currency-de-order', { fullPage: true });
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
