import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type CheckoutFormTexts, fillCheckoutForm } from './support/checkout-form.ts';
import { chromiumForFile } from './support/file-chromium.ts';
import { webLocale } from './support/locale-texts.ts';
import { saveScreenshot } from './support/screenshots.ts';
import { testServer } from './support/test-server.ts';

// Currency shown = currency charged, one language from show to order (issue 13 §1, §8): a shopper
// watching in German buys the mug; the card, the cart, every checkout step, the payment page and
// the order show euros, never kroner, and the journey stays in German although the browser
// holds Danish from an earlier visit.

const { baseUrl } = testServer();
const LIVE_SHOW = '/widget/demo-store/demo-autumn-living';

const de = webLocale('de') as {
  player: Record<string, string>;
  checkout: { cart: Record<string, string> };
};
const deScreens = (
  webLocale('checkout/de') as {
    checkout: CheckoutFormTexts & { cart: Record<string, string>; payment: Record<string, string> };
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
    await fillCheckoutForm(form, deScreens, {
      country: 'DE',
      name: 'Anna Schmidt',
      address: 'Hauptstraße 5',
      postCode: '10115',
      city: 'Berlin',
      emailAddress: 'anna@example.com',
      phone: '+49 30 1234567',
    });
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
