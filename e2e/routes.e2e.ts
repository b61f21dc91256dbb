import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayAhead, liveOnDemoVideo, putCampaignShow } from './support/admin-shows.ts';
import { englishPage, launchChromium } from './support/browser.ts';
import { englishText as text } from './support/locale-texts.ts';
import { saveScreenshot } from './support/screenshots.ts';
import { adminCall, testServer } from './support/test-server.ts';

/**
 * The routes of spec §2 that had no browser test (issue 13 §19), the store's own terms behind
 * every terms link (§11), the special customer options pages (§18), and no React Router
 * "No `HydrateFallback` element" warning on any page (§10). A store of its own, so the demo
 * store stays as the other browser tests expect it.
 */
const { baseUrl } = testServer();
const STORE = 'e2e-routes-store';
const CAMPAIGN = 'e2e-routes-show';
const STORE_TERMS = 'Routes Test Shop terms: returns within 60 days, delivery from Odense.';

const admin = (path: string, body: unknown) => adminCall('PUT', path, body);

let browser: Browser;
let context: BrowserContext;
let page: Page;
const pageErrors: string[] = [];
/** Every console warning and error of every page, with the address it was logged on. */
const consoleMessages: { url: string; text: string }[] = [];
/** The checkout the test viewer's `{campaignUid}/create` made. */
let checkoutUid = '';

beforeAll(async () => {
  browser = await launchChromium();
  await admin(`/admin/pages/${STORE}`, {
    name: 'Routes Test Shop',
    language: 'en',
    currency: 'DKK',
    terms: STORE_TERMS,
    address: { name: 'Routes Test ApS', street: 'Vestergade 3', postCode: '5000', city: 'Odense C' },
  });
  await admin(`/staff/stores/${STORE}/products/routes-cup`, {
    name: 'Routes cup',
    sku: 'RC-1',
    prices: { DKK: 9_900, SEK: 13_900, NOK: 13_900, EUR: 1_295, PLN: 5_900, GBP: 1_095 },
    stock: 50,
  });
  await putCampaignShow(
    STORE,
    { uid: CAMPAIGN, name: 'Routes show', deadline: dayAhead() },
    { eventName: 'Routes show — live', ...liveOnDemoVideo() },
  );
  await admin(`/admin/events/${CAMPAIGN}/products/routes-cup`, { productUid: 'routes-cup' });
  ({ context, page } = await englishPage(browser, pageErrors));
  page.on('console', (message) => {
    if (message.type() === 'warning' || message.type() === 'error') {
      consoleMessages.push({ url: page.url(), text: message.text() });
    }
  });
});

afterAll(async () => {
  await browser?.close();
});

const checkoutRef = () => `${CAMPAIGN}/${checkoutUid}`;

describe('create route', () => {
  it('makes the viewer a checkout for the campaign and opens it', async () => {
    await page.goto(`${baseUrl}/${CAMPAIGN}/create`);
    await page.waitForURL(new RegExp(`/${CAMPAIGN}/(?!create)[^/?#]+$`));
    checkoutUid = decodeURIComponent(new URL(page.url()).pathname.split('/').at(-1) ?? '');
    expect(checkoutUid).not.toBe('');
    await page.locator('.checkout-header__store', { hasText: 'Routes Test Shop' }).waitFor();
    await page.getByRole('heading', { level: 1 }).waitFor();
  });

  it('answers a campaign that does not exist with the not-found page', async () => {
    await page.goto(`${baseUrl}/no-such-campaign-e2e/create`);
    await page.getByRole('heading', { name: text('notFound.title') }).waitFor();
  });
});

describe('terms per store (issue 13 §11)', () => {
  it("links the checkout to the checkout store's own terms", async () => {
    // The viewer's cart in this show is the checkout `create` made; with a line in it the form shows.
    await page.goto(`${baseUrl}/widget/${STORE}/${CAMPAIGN}`);
    await page.locator('.product-card', { hasText: 'Routes cup' }).click();
    await page
      .locator('.product-details')
      .getByRole('button', { name: text('player.addToCart') })
      .click();
    await page.locator('.product-details [data-feedback]').waitFor();
    await page.goto(`${baseUrl}/${checkoutRef()}`);
    const link = page.locator('a.checkout-terms__link');
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(`/terms?store=${STORE}`);
    const [terms] = await Promise.all([context.waitForEvent('page'), link.click()]);
    await terms.getByText(STORE_TERMS).waitFor();
    await terms.getByRole('link', { name: /Routes Test Shop/ }).waitFor();
    await saveScreenshot(terms, 'terms-own-store-desktop', { fullPage: true });
    await terms.close();
  });

  it("links the store front page's footer to its own terms, and the default store keeps /terms", async () => {
    await page.goto(`${baseUrl}/widget/${STORE}`);
    await page.locator('.shop-footer').getByText('Vestergade 3').waitFor();
    await page
      .locator('.shop-footer')
      .getByRole('link', { name: text('shop.terms') })
      .click();
    await page.getByText(STORE_TERMS).waitFor();
    expect(new URL(page.url()).search).toBe(`?store=${STORE}`);
    // Back to the store it came from, not the default store.
    await page.getByRole('link', { name: /Routes Test Shop/ }).click();
    await page.waitForURL(`${baseUrl}/widget/${STORE}`);

    await page.goto(`${baseUrl}/`);
    await page
      .locator('.shop-footer')
      .getByRole('link', { name: text('shop.terms') })
      .click();
    await page.waitForURL(`${baseUrl}/terms`);
    await page.getByText(/These terms apply to all purchases from Nordlys Living ApS/).waitFor();
    expect(await page.getByText(STORE_TERMS).count()).toBe(0);
  });

  it("links the contact-capture consent to the store's own terms", async () => {
    await page.goto(`${baseUrl}/widget/${STORE}/tiktok`);
    await page.getByRole('link', { name: text('interaction.contact.terms') }).click();
    await page.getByText(STORE_TERMS).waitFor();
  });

  it('answers terms of a store that does not exist with the not-found page', async () => {
    await page.goto(`${baseUrl}/terms?store=no-such-store-e2e`);
    await page.getByRole('heading', { name: text('notFound.title') }).waitFor();
  });
});

describe('options and location routes (spec §2)', () => {
  it('shows the options page in its basic layout and saves back to the checkout', async () => {
    await page.goto(`${baseUrl}/options/${STORE}/${checkoutRef()}`);
    await page.getByRole('heading', { name: text('checkout.options.title') }).waitFor();
    await page.getByText(text('checkout.options.intro').replace('{{store}}', 'Routes Test Shop')).waitFor();
    await saveScreenshot(page, 'options-desktop', { fullPage: true });
  });

  for (const fixedId of ['vitrine-outlet', 'vitrine-partner']) {
    it(`shows the special customer page /options/${fixedId}/… for the checkout's store, not not-found (issue 13 §18)`, async () => {
      await page.goto(`${baseUrl}/options/${fixedId}/${checkoutRef()}`);
      await page.locator(`[data-page="checkout-options"][data-fixed-page-id="${fixedId}"]`).waitFor();
      await page.getByRole('heading', { name: text('checkout.options.title') }).waitFor();
      await page.getByText(text('checkout.options.intro').replace('{{store}}', 'Routes Test Shop')).waitFor();
      expect(await page.locator('[data-page="not-found"]').count()).toBe(0);
      if (fixedId === 'vitrine-outlet')
        await saveScreenshot(page, 'options-fixed-id-desktop', { fullPage: true });
    });
  }

  it("lets the viewer pick up at the store's street address and returns to the checkout", async () => {
    await page.goto(`${baseUrl}/select-checkout-location/${STORE}/${checkoutRef()}`);
    await page.getByRole('heading', { name: text('checkout.pickup.title') }).waitFor();
    const choice = page.locator('.checkout-location .choice');
    await choice.getByText('Routes Test Shop').waitFor();
    await choice.getByText('Vestergade 3, 5000 Odense C').waitFor();
    await saveScreenshot(page, 'pickup-location-desktop', { fullPage: true });
    await choice.click();
    await page.getByRole('button', { name: text('checkout.pickup.confirm') }).click();
    await page.waitForURL(`${baseUrl}/${checkoutRef()}`);
  });
});

describe('error and login routes (spec §2)', () => {
  it("shows the checkout error page with the store's name and a way back to the checkout", async () => {
    await page.goto(`${baseUrl}/${STORE}/${checkoutRef()}/error`);
    await page.getByRole('heading', { name: text('checkout.error.title') }).waitFor();
    await page.locator('.checkout-error__store', { hasText: 'Routes Test Shop' }).waitFor();
    await saveScreenshot(page, 'checkout-error-desktop', { fullPage: true });
    await page.getByRole('link', { name: text('checkout.tryAgain') }).click();
    await page.waitForURL(`${baseUrl}/${checkoutRef()}`);
  });

  it('shows the login page with its sign-in form', async () => {
    await page.goto(`${baseUrl}/login`);
    await page.getByLabel(text('interaction.account.email')).waitFor();
    await page.locator('main.account-page input[type="password"]').waitFor();
    await saveScreenshot(page, 'login-desktop', { fullPage: true });
  });
});

describe('hydration (issue 13 §10)', () => {
  it('logs no "No `HydrateFallback` element" warning on any page', async () => {
    const paths = [
      '/',
      '/terms',
      `/widget/${STORE}`,
      `/widget/${STORE}/${CAMPAIGN}`,
      '/widget/demo-store/multi-event',
      `/widget/${STORE}/tiktok`,
      '/login',
      `/${checkoutRef()}`,
      `/options/${STORE}/${checkoutRef()}`,
      `/options/vitrine-outlet/${checkoutRef()}`,
      `/select-checkout-location/${STORE}/${checkoutRef()}`,
      `/${STORE}/${checkoutRef()}/error`,
      '/no/such/page',
    ];
    for (const path of paths) {
      await page.goto(`${baseUrl}${path}`);
      await page.waitForLoadState('networkidle');
    }
    const hydrationWarnings = consoleMessages.filter((message) => message.text.includes('HydrateFallback'));
    expect(hydrationWarnings).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
