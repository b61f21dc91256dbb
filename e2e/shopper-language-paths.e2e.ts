import { formatMoney } from '@vitrine/domain';
import type { Currency, Locale } from '@vitrine/protocol/vocabulary';
import type { BrowserContext, FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayAhead, liveOnDemoVideo, putCampaignShow } from './support/admin-shows.ts';
import { chromiumForFile } from './support/file-chromium.ts';
import { webLocale } from './support/locale-texts.ts';
import { saveScreenshot } from './support/screenshots.ts';
import { adminCall, testServer } from './support/test-server.ts';

/*
 * One language and one currency from the first price to the receipt, on every way a shopper
 * gets there (issue 27): the front page's language menu, `?lang=` on the front page, the host
 * page's language_change in the SDK's modal, a saved preference after a reload, a second tab,
 * and a phone. Each journey reads the mug's price off its card and then checks every screen up
 * to the order page (and the payment provider's page) against it: the same currency, the same
 * language, and freight from the store's own figures for that currency.
 */

const { baseUrl, retailerUrl } = testServer();
const SHOW = 'demo-autumn-living';
const WAIT = { timeout: 30_000 };
/** A whole journey, card to receipt, on a busy two-core machine. */
const JOURNEY_MS = 240_000;

type Texts = Record<string, unknown>;
const textAt = (texts: Texts, path: string): string => {
  const value = path.split('.').reduce<unknown>((node, key) => (node as Texts | undefined)?.[key], texts);
  if (typeof value !== 'string') throw new Error(`no text at ${path}`);
  return value;
};
/** The player's and the checkout's texts of a language, as the app shows them. */
const textsOf = (locale: Locale) => {
  const player = webLocale(locale);
  const checkout = webLocale(`checkout/${locale}`);
  return {
    player: (path: string) => textAt(player, path),
    checkout: (path: string) => textAt(checkout, path),
  };
};

/** Intl writes no-break spaces inside amounts; the test compares plain text. */
const plain = (text: string | null | undefined) => (text ?? '').replace(/\s/g, ' ').trim();

/** The demo store's mug and freight (apps/server/src/features/demo/seed-demo.ts), per currency. */
const MUG: Partial<Record<Currency, number>> = { DKK: 17_900, SEK: 26_900, EUR: 2_395 };
const HOME_DELIVERY: Partial<Record<Currency, number>> = { DKK: 4_900, SEK: 6_900, EUR: 695 };
const FREE_OVER: Partial<Record<Currency, number>> = { DKK: 99_900, SEK: 139_900, EUR: 13_395 };

/** Every currency's marks as one language or another writes them, to find one that does not belong. */
const CURRENCY_MARKS: Record<string, RegExp> = {
  // Swedish ends a sentence on "kr." too, so kroner are found by their code or the mug's figure.
  DKK: /DKK|179[,.]00/,
  SEK: /SEK|\d\skr(?!\.)/,
  EUR: /€|EUR/,
};
function expectOnlyCurrency(text: string, currency: Currency) {
  for (const [code, mark] of Object.entries(CURRENCY_MARKS)) {
    if (code !== currency) expect(text, `a ${code} amount on a ${currency} screen`).not.toMatch(mark);
  }
}

interface Shopper {
  locale: Locale;
  currency: Currency;
  /** The country of the delivery address. */
  country: 'SE' | 'DE' | 'DK';
  /** The mug's uid in the store shopped at. */
  mugUid?: string;
}

const browser = chromiumForFile();
const pageErrors: string[] = [];

afterAll(async () => {
  expect(pageErrors).toEqual([]);
});

async function newContext(
  options: { phone?: boolean; browserLocale?: string } = {},
): Promise<BrowserContext> {
  const context = await browser().newContext({
    ...(options.phone
      ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }
      : { viewport: { width: 1280, height: 800 } }),
    locale: options.browserLocale ?? 'en-GB',
  });
  context.on('page', (page) =>
    page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`)),
  );
  return context;
}

const htmlLang = (page: Page) => page.evaluate(() => document.documentElement.lang);

/** The mug's card price in the player (a page or the SDK's frame), checked against the store's price. */
async function mugCardPrice(scope: Page | FrameLocator, shopper: Shopper, phone: boolean): Promise<string> {
  const t = textsOf(shopper.locale);
  if (phone)
    await scope.locator('.mobile-menu button', { hasText: t.player('player.mobileMenu.products') }).click();
  const card = scope.locator(
    `${phone ? '.mobile-sheet ' : ''}li[data-product-uid="${shopper.mugUid ?? 'nordlys-ceramic-mug'}"] .product-card`,
  );
  await card.waitFor(WAIT);
  const price = plain(await card.locator('.product-card__price').textContent());
  expect(price).toBe(plain(formatMoney(MUG[shopper.currency] ?? 0, shopper.currency, shopper.locale)));
  await card.click();
  const add = scope.locator('.product-details').getByRole('button', { name: t.player('player.addToCart') });
  await add.click();
  await scope.locator('.product-details [data-feedback="added"]').waitFor(WAIT);
  return price;
}

/** Opens the cart (panel or phone sheet), checks its price and total, and goes to the checkout. */
async function cartToCheckout(
  scope: Page | FrameLocator,
  shopper: Shopper,
  cardPrice: string,
  phone: boolean,
) {
  const t = textsOf(shopper.locale);
  if (phone) {
    await scope.locator('.mobile-sheet .link-button', { hasText: t.player('player.close') }).click();
    await scope.locator('.mobile-menu button', { hasText: t.player('player.mobileMenu.cart') }).click();
  } else {
    await scope.locator('.player-cart-button').click();
  }
  const cart = scope.locator('[data-testid="player-cart"]');
  await cart.locator('.player-cart__line').first().waitFor(WAIT);
  expect(plain(await cart.locator('.player-cart__price').first().textContent())).toBe(cardPrice);
  expect(plain(await cart.locator('[data-testid="cart-total"]').textContent())).toBe(cardPrice);
  await cart.getByRole('link', { name: t.player('checkout.cart.toCheckout') }).click();
}

/**
 * The checkout, the confirmation, the provider's page and the order page, in `page`: every
 * screen in the shopper's language, every amount in the card's currency, the freight the store's
 * figure for that currency (and its free-delivery threshold compared in that currency).
 */
async function checkoutAndPay(
  page: Page | FrameLocator,
  top: Page,
  shopper: Shopper,
  cardPrice: string,
  name: string,
) {
  const t = textsOf(shopper.locale);
  const money = (amount: number) => plain(formatMoney(amount, shopper.currency, shopper.locale));
  const form = page.locator('.checkout-form');
  await form.waitFor(WAIT).catch(async (error: unknown) => {
    // A clean-clone run once found no form 30 s after the cart's link (de, EUR), with nothing to
    // say why: the miss now carries what the shopper had in front of her.
    const shot = await saveScreenshot(top, `${name}-no-checkout`, { fullPage: true });
    const said = await page
      .locator('body')
      .innerText({ timeout: 5000 })
      .catch(() => '(no text)');
    throw new Error(
      `no checkout form at ${top.url()}${shot ? ` (${shot})` : ''}; the page said: ${said.slice(0, 800)}`,
      { cause: error },
    );
  });
  await page
    .getByRole('heading', { name: t.checkout('checkout.title') })
    .first()
    .waitFor(WAIT);
  expect(plain(await page.locator('[data-testid="order-total"]').first().textContent())).toBe(cardPrice);

  await form.getByLabel(t.checkout('checkout.form.country'), { exact: true }).selectOption(shopper.country);
  await form.getByLabel(t.checkout('checkout.form.labels.name'), { exact: true }).fill('Alex Berg');
  await form.getByLabel(t.checkout('checkout.form.labels.address'), { exact: true }).fill('Storgatan 1');
  await form.getByLabel(t.checkout('checkout.form.labels.postCode'), { exact: true }).fill('11122');
  await form.getByLabel(t.checkout('checkout.form.labels.city'), { exact: true }).fill('Stockholm');
  await form
    .getByLabel(t.checkout('checkout.form.labels.emailAddress'), { exact: true })
    .fill('alex@example.com');
  await form.getByLabel(t.checkout('checkout.form.labels.phone'), { exact: true }).fill('+46 70 123 45 67');
  const home = form.locator('.choice', { hasText: t.checkout('checkout.shipping.home_delivery') });
  // The store's freight and threshold for the order's currency, whatever the address's country.
  expect(plain(await home.locator('.choice__price').textContent())).toBe(
    money(HOME_DELIVERY[shopper.currency] ?? 0),
  );
  expect(plain(await home.textContent())).toContain(money(FREE_OVER[shopper.currency] ?? 0));
  await form.getByLabel(t.checkout('checkout.shipping.home_delivery')).check();
  await form.getByLabel(t.checkout('checkout.paymentMethod.test_card')).check();
  await form.getByLabel(t.checkout('checkout.form.termsLabel')).check();
  const total = money((MUG[shopper.currency] ?? 0) + (HOME_DELIVERY[shopper.currency] ?? 0));
  await expect
    .poll(async () => plain(await page.locator('[data-testid="order-total"]').first().textContent()), WAIT)
    .toBe(total);
  expectOnlyCurrency(await page.locator('.checkout').first().innerText(), shopper.currency);
  await saveScreenshot(top, `${name}-checkout`, { fullPage: true });
  await page.getByRole('button', { name: t.checkout('checkout.cart.continue') }).click();

  await page.locator('.delivery-summary').waitFor(WAIT);
  expect(plain(await page.locator('[data-testid="order-total"]').first().textContent())).toBe(total);
  expectOnlyCurrency(await page.locator('.checkout').first().innerText(), shopper.currency);
  await page.locator('.checkout-summary__action').click();

  // The provider's page (the tab, or the SDK's frame the checkout runs in) charges what was
  // shown, in the shopper's language; then the order page, in the same language and currency.
  await page.locator('.amount').waitFor(WAIT);
  expect(plain(await page.locator('.amount').textContent())).toBe(total);
  expect(await page.locator('html').getAttribute('lang')).toBe(shopper.locale);
  await saveScreenshot(top, `${name}-provider`, { fullPage: true });
  await page.locator('button.approve').click();

  await page.locator('[data-payment="received"]').waitFor(WAIT);
  expect(await page.locator('html').getAttribute('lang')).toBe(shopper.locale);
  expect(await page.locator('.payment-received h2').textContent()).toBe(
    t.checkout('checkout.payment.receivedTitle'),
  );
  expect(
    plain(await page.locator('[data-testid="order-page"] [data-testid="order-total"]').textContent()),
  ).toBe(total);
  expectOnlyCurrency(await page.locator('body').innerText(), shopper.currency);
  await saveScreenshot(top, `${name}-order`, { fullPage: true });
}

const SWEDISH: Shopper = { locale: 'sv', currency: 'SEK', country: 'SE' };
const GERMAN: Shopper = { locale: 'de', currency: 'EUR', country: 'DE' };
const KOREAN: Shopper = { locale: 'ko', currency: 'EUR', country: 'DE' };
const ENDONYM: Partial<Record<Locale, string>> = { sv: 'Svenska', de: 'Deutsch', ko: '한국어' };

describe('the front page’s language menu', { timeout: JOURNEY_MS }, () => {
  for (const shopper of [SWEDISH, GERMAN, KOREAN]) {
    it(`carries ${shopper.locale} and ${shopper.currency} from the first card to the order page`, async () => {
      const context = await newContext();
      const page = await context.newPage();
      await page.goto(`${baseUrl}/`);
      await page.locator('.event-card').first().waitFor(WAIT);
      await page
        .getByRole('combobox')
        .first()
        .selectOption({ label: ENDONYM[shopper.locale] ?? '' });
      await expect.poll(() => htmlLang(page), WAIT).toBe(shopper.locale);
      await saveScreenshot(page, `menu-${shopper.locale}-front`, { fullPage: true });
      await page.locator(`a[href*="${SHOW}"]`).first().click();
      const price = await mugCardPrice(page, shopper, false);
      expect(await htmlLang(page)).toBe(shopper.locale);
      await cartToCheckout(page, shopper, price, false);
      await checkoutAndPay(page, page, shopper, price, `menu-${shopper.locale}`);
      await context.close();
    });
  }
});

describe('other ways in', { timeout: JOURNEY_MS }, () => {
  it('?lang= on the front page survives navigation and a reload of the show', async () => {
    const context = await newContext();
    const page = await context.newPage();
    await page.goto(`${baseUrl}/?lang=de`);
    await page.locator('.event-card').first().waitFor(WAIT);
    expect(await htmlLang(page)).toBe('de');
    await page.locator(`a[href*="${SHOW}"]`).first().click();
    await page.locator('.player').waitFor(WAIT);
    // The show's address has no ?lang any more; a reload must not lose the choice.
    expect(new URL(page.url()).searchParams.get('lang')).toBeNull();
    await page.reload();
    const price = await mugCardPrice(page, GERMAN, false);
    expect(await htmlLang(page)).toBe('de');
    await cartToCheckout(page, GERMAN, price, false);
    await page.locator('.checkout-form').waitFor(WAIT);
    // A reload on the checkout (no ?lang either) keeps the language and the currency.
    await page.reload();
    await checkoutAndPay(page, page, GERMAN, price, 'query-de');
    await context.close();
  });

  it('a second tab opens in the language picked in the first', async () => {
    const context = await newContext({ browserLocale: 'da-DK' });
    const first = await context.newPage();
    await first.goto(`${baseUrl}/`);
    await first.locator('.event-card').first().waitFor(WAIT);
    await first.getByRole('combobox').first().selectOption({ label: 'Svenska' });
    await expect.poll(() => htmlLang(first), WAIT).toBe('sv');
    const second = await context.newPage();
    await second.goto(`${baseUrl}/widget/demo-store/${SHOW}`);
    const price = await mugCardPrice(second, SWEDISH, false);
    expect(await htmlLang(second)).toBe('sv');
    await cartToCheckout(second, SWEDISH, price, false);
    await checkoutAndPay(second, second, SWEDISH, price, 'second-tab-sv');
    await context.close();
  });

  it('a saved preference comes back after a reload on a device that forgot the pick', async () => {
    const context = await newContext();
    const page = await context.newPage();
    await page.goto(`${baseUrl}/widget/demo-store/${SHOW}?lang=ko`);
    // The first add makes the language the reservation's, just after the add's own answer: it saves
    // it, or finds it saved already (a reservation read that answers Korean, saved).
    const languageSaved = page.waitForResponse(async (response) => {
      if (!response.ok()) return false;
      if (response.url().endsWith('/functions/customerpage/saveUserReservation')) return true;
      if (!response.url().endsWith('/functions/customerpage/loadUserReservation')) return false;
      const reservation = (await response.json().catch(() => null)) as {
        language?: string;
        languageSaved?: boolean;
      } | null;
      return reservation?.language === 'ko' && reservation.languageSaved === true;
    }, WAIT);
    const price = await mugCardPrice(page, KOREAN, false);
    await languageSaved;
    // The cart saved the shopper's language and currency as her reservation (spec §3); this
    // browser's own memory of the choice goes, and the show is opened again without ?lang.
    await page.evaluate(() => {
      localStorage.removeItem('vitrine-language');
      sessionStorage.clear();
    });
    await page.goto(`${baseUrl}/widget/demo-store/${SHOW}`);
    await expect.poll(() => htmlLang(page), WAIT).toBe('ko');
    await cartToCheckout(page, KOREAN, price, false);
    await checkoutAndPay(page, page, KOREAN, price, 'saved-ko');
    await context.close();
  });

  it('a phone keeps the language picked on the front page through the sheets and the checkout', async () => {
    const context = await newContext({ phone: true });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/`);
    await page.locator('.event-card').first().waitFor(WAIT);
    await page.getByRole('combobox').first().selectOption({ label: 'Svenska' });
    await expect.poll(() => htmlLang(page), WAIT).toBe('sv');
    await page.locator(`a[href*="${SHOW}"]`).first().click();
    const price = await mugCardPrice(page, SWEDISH, true);
    await cartToCheckout(page, SWEDISH, price, true);
    await checkoutAndPay(page, page, SWEDISH, price, 'phone-sv');
    await context.close();
  });

  it('the host page’s language_change in the SDK modal carries through the checkout', async () => {
    const context = await newContext();
    const page = await context.newPage();
    await page.goto(`${retailerUrl}/`);
    // The retailer's page opens the modal and later tells it the language its own site switched to.
    const playerId = await page.evaluate((campaignUid) => {
      const sdk = (window as unknown as { Vitrine: { init(o: unknown): { playerId: string } } }).Vitrine;
      const player = sdk.init({ pageUid: 'demo-store', campaignUid, mode: 'modal', context: 'on_site' });
      (window as unknown as { __player: unknown }).__player = player;
      return player.playerId;
    }, SHOW);
    const frame = page.frameLocator(`iframe[src*="playerId=${encodeURIComponent(playerId)}"]`);
    await frame.locator('.player').waitFor(WAIT);
    await page.evaluate(() =>
      (window as unknown as { __player: { send(type: string, payload: unknown): void } }).__player.send(
        'language_change',
        { language: 'de' },
      ),
    );
    await frame.locator('html[lang="de"]').waitFor({ state: 'attached', ...WAIT });
    const phone = false;
    const price = await mugCardPrice(frame, GERMAN, phone);
    await cartToCheckout(frame, GERMAN, price, phone);
    await checkoutAndPay(frame, page, GERMAN, price, 'sdk-de');
    await context.close();
  });
});

describe('a store that sells in Danish kroner only', { timeout: JOURNEY_MS }, () => {
  const STORE = 'e2e-kroner-only-store';
  const CAMPAIGN = 'e2e-kroner-only-show';

  const admin = (path: string, body: unknown) => adminCall('PUT', path, body);

  beforeAll(async () => {
    await admin(`/admin/pages/${STORE}`, {
      name: 'Kroner Shop',
      language: 'da',
      currency: 'DKK',
      freeDeliveryOver: { DKK: 99_900, EUR: 13_395, SEK: 139_900 },
      shippingMethods: {
        home_delivery: { enabled: true, prices: { DKK: 4_900, SEK: 6_900, EUR: 695 } },
        parcel_shop: { enabled: true, prices: { DKK: 3_900, SEK: 4_900, EUR: 495 } },
        store_pickup: { enabled: true, prices: { DKK: 0, SEK: 0, EUR: 0 } },
      },
    });
    // Prices in kroner only: the shop does not sell in euros or kronor.
    await admin(`/staff/stores/${STORE}/products/kroner-mug`, {
      name: 'Ceramic mug',
      sku: 'KR-MUG',
      prices: { DKK: 17_900 },
      stock: 50,
    });
    await putCampaignShow(
      STORE,
      { uid: CAMPAIGN, name: 'Kroner show', deadline: dayAhead() },
      liveOnDemoVideo(),
    );
    await admin(`/admin/events/${CAMPAIGN}/products/kroner-mug`, { productUid: 'kroner-mug' });
  });

  for (const country of ['SE', 'DE'] as const) {
    it(`opened in German with a ${country} address: kroner from the first card to the charge, in German`, async () => {
      const context = await newContext();
      const page = await context.newPage();
      await page.goto(`${baseUrl}/widget/${STORE}?lang=de`);
      await page.locator(`a[href*="${CAMPAIGN}"]`).first().click();
      const shopper: Shopper = { locale: 'de', currency: 'DKK', country, mugUid: 'kroner-mug' };
      const price = await mugCardPrice(page, shopper, false);
      expect(await htmlLang(page)).toBe('de');
      await cartToCheckout(page, shopper, price, false);
      await checkoutAndPay(page, page, shopper, price, `kroner-de-${country}`);
      await context.close();
    });
  }
});
