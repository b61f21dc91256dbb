import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { liveSince, putCampaignShow } from './support/admin-shows.ts';
import { ADA_JENSEN, fillCheckoutForm } from './support/checkout-form.ts';
import { chromiumForFile } from './support/file-chromium.ts';
import { webLocale } from './support/locale-texts.ts';
import { saveScreenshot } from './support/screenshots.ts';
import { adminCall, testServer } from './support/test-server.ts';

const { baseUrl } = testServer();
const LIVE_SHOW = '/widget/demo-store/demo-autumn-living';

/** The English checkout texts the test reads (locales/en.json and locales/checkout/en.json). */
interface CheckoutTexts {
  feedback: { label: { added: string } };
  form: {
    country: string;
    termsLabel: string;
    note: string;
    labels: Record<'name' | 'address' | 'postCode' | 'city' | 'emailAddress' | 'phone', string>;
  };
  shipping: { home_delivery: string };
  paymentMethod: { test_card: string };
  payment: { receivedTitle: string; declined: string; interrupted: string };
  cart: { continue: string; toCheckout: string };
}
const en = webLocale('en') as {
  checkout: CheckoutTexts;
  player: Record<string, string>;
};
/** The checkout screens' English: their own namespace (locales/checkout) over the player's cart texts. */
const screens = webLocale('checkout/en') as { checkout: CheckoutTexts };
const texts = Object.fromEntries(
  [...new Set([...Object.keys(en.checkout), ...Object.keys(screens.checkout)])].map((key) => {
    const part = (source: CheckoutTexts) => (source as unknown as Record<string, object>)[key] ?? {};
    return [key, { ...part(en.checkout), ...part(screens.checkout) }];
  }),
) as unknown as CheckoutTexts;

/** Spec §5, word for word: what an empty checkout form must say. */
const SPEC_FORM_MESSAGES = [
  'Please fill out your address, city, post code, name, email address, phone number.',
  'Please choose a shipping method.',
  'Please choose a payment method.',
  'Please accept our payment terms.',
];
const SPEC_STATE_MESSAGES = [
  'No shipping method selected.',
  'No payment method selected.',
  'Terms and conditions not accepted.',
  'Select your delivery country.',
  'Delivery address is missing.',
];

const browser = chromiumForFile();
const contexts: BrowserContext[] = [];
const pageErrors: string[] = [];

/** A new shopper: a fresh browser profile, so a fresh anonymous account and cart. */
async function newShopper(): Promise<BrowserContext> {
  const context = await browser().newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
  contexts.push(context);
  return context;
}

async function openPage(context: BrowserContext, path: string): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(`${baseUrl}${path}`);
  return page;
}

/** Opens a product's details in the player and adds it, with the variant's option values when given. */
async function addToCart(page: Page, productName: string, optionValues: string[] = []) {
  const back = page.locator('.product-details .link-button', { hasText: en.player.backToList });
  if (await back.count()) await back.click();
  await page.locator('.product-card', { hasText: productName }).click();
  const details = page.locator('.product-details');
  await details.waitFor();
  for (const value of optionValues)
    await details.locator('.variant-picker__value', { hasText: value }).click();
  await details.getByRole('button', { name: en.player.addToCart }).click();
  const feedback = details.locator('[data-feedback]');
  await feedback.waitFor();
  return feedback;
}

const fillAsAda = (page: Page) => fillCheckoutForm(page.locator('.checkout-form'), texts, ADA_JENSEN);

/** From the confirmation step: order, then choose on the test provider's hosted page. */
async function payOnProviderPage(
  page: Page,
  start: () => Promise<void>,
  choice: 'approve' | 'decline' | 'abandon',
) {
  await start();
  await page.waitForURL(/\/payments\/test\//);
  await page.click(`button.${choice}`);
  await page.waitForURL(/\/success\?transaction=/);
}

const admin = adminCall;

/** Adds the mug in a show and opens its checkout; answers the checkout page and its path. */
async function checkoutWithMug(showPath: string): Promise<{ checkout: Page; path: string }> {
  const shopper = await newShopper();
  const show = await openPage(shopper, showPath);
  await addToCart(show, 'Ceramic mug');
  await show.waitForURL(new RegExp(`${showPath}/[A-Za-z0-9_-]+$`));
  const checkoutUid = new URL(show.url()).pathname.split('/').pop() ?? '';
  const campaignUid = showPath.split('/').pop() ?? '';
  const path = `/${campaignUid}/${checkoutUid}`;
  const checkout = await openPage(shopper, path);
  await checkout.waitForSelector('.checkout-form');
  return { checkout, path };
}

const textsOf = (page: Page, selector: string) =>
  page.$$eval(selector, (elements) => elements.map((element) => element.textContent?.trim() ?? ''));

describe('cart and checkout', () => {
  it('buys a shirt variant and a mug from the live show: cart live in two tabs, validation, payment received', async () => {
    const shopper = await newShopper();
    const show = await openPage(shopper, LIVE_SHOW);

    // A sold-out variant cannot be added: the button says why.
    await show.locator('.product-card', { hasText: 'Linen shirt' }).click();
    const details = show.locator('.product-details');
    await details.locator('.variant-picker__value', { hasText: 'Sage' }).click();
    await details.locator('.variant-picker__value', { hasText: 'L' }).click();
    expect(await details.getByRole('button', { name: en.player.addToCart }).isDisabled()).toBe(true);
    expect(await details.locator('.product-details__reason').textContent()).toBe(en.player.soldOut);
    await details.locator('.variant-picker__value', { hasText: 'L' }).click();

    const added = await addToCart(show, 'Linen shirt', ['Sage', 'M']);
    expect(await added.getAttribute('data-feedback')).toBe('added');
    expect(await added.textContent()).toBe(texts.feedback.label.added);

    // Spec §2: once a cart is found the widget route is replaced with its checkout variant.
    await show.waitForURL(new RegExp(`${LIVE_SHOW}/[A-Za-z0-9_-]+$`));
    const checkoutUid = new URL(show.url()).pathname.split('/').pop() ?? '';
    expect(checkoutUid).not.toBe('');

    // A second tab finds the same cart, and follows it live.
    const second = await openPage(shopper, LIVE_SHOW);
    await second.waitForURL(`${baseUrl}${LIVE_SHOW}/${checkoutUid}`);
    await second.click('.player-cart-button');
    const cart = second.locator('[data-testid="player-cart"]');
    await cart.locator('.player-cart__line').first().waitFor();
    expect(await textsOf(second, '.player-cart__name')).toEqual(['Linen shirt']);
    expect(await textsOf(second, '.player-cart__variant')).toEqual(['Sage / M']);

    await addToCart(show, 'Ceramic mug');
    await second.waitForFunction(() => document.querySelectorAll('.player-cart__line').length === 2);
    expect(await second.textContent('[data-testid="cart-count"]')).toBe('2');
    await saveScreenshot(second, 'checkout-player-cart', { fullPage: true });

    // To the checkout from the second tab's cart.
    await cart.getByRole('link', { name: texts.cart.toCheckout }).click();
    await second.waitForURL(`${baseUrl}/demo-autumn-living/${checkoutUid}`);
    const checkout = second;
    await checkout.waitForSelector('.checkout-form');
    expect(await textsOf(checkout, '.order-line__name')).toEqual(['Linen shirt', 'Ceramic mug']);

    // Continuing with an empty form shows every §5 message, verbatim.
    const problems = await textsOf(checkout, '[data-problem]');
    expect(problems, JSON.stringify(problems)).toEqual(SPEC_STATE_MESSAGES);
    await checkout.getByRole('button', { name: texts.cart.continue }).click();
    await checkout.waitForSelector('.form-error');
    const shown = await textsOf(checkout, '.form-error');
    for (const message of SPEC_FORM_MESSAGES) expect(shown).toContain(message);
    expect(shown).toContain('Select your delivery country.');
    expect(checkout.url()).toBe(`${baseUrl}/demo-autumn-living/${checkoutUid}`);
    await saveScreenshot(checkout, 'checkout-validation', { fullPage: true });

    // Fixed: the messages go and the confirmation step opens.
    await fillAsAda(checkout);
    await checkout.locator('.checkout-form').getByLabel(texts.form.note).fill('Leave it by the door');
    expect(await textsOf(checkout, '.form-error')).toEqual([]);
    expect(await checkout.locator('[data-problem]').count()).toBe(0);
    await checkout.getByRole('button', { name: texts.cart.continue }).click();
    await checkout.waitForURL(`${baseUrl}/demo-autumn-living/${checkoutUid}/confirm`);
    await checkout.waitForSelector('.delivery-summary');
    // The saved, completed spec §3 record: postcodeAndCity and the comment to the shop (commentField).
    const summary = (await checkout.textContent('.delivery-summary')) ?? '';
    expect(summary).toContain('Ada Jensen');
    expect(summary).toContain('2900 Hellerup');
    expect(await checkout.textContent('.delivery-summary__note')).toBe('Leave it by the door');
    await saveScreenshot(checkout, 'checkout-confirm-address', { fullPage: true });
    await checkout.setViewportSize({ width: 390, height: 844 });
    await saveScreenshot(checkout, 'checkout-confirm-address-phone', { fullPage: true });
    await checkout.setViewportSize({ width: 1280, height: 800 });
    // Freight of home delivery (DKK 49.00) on top of 549.00 + 179.00.
    expect(await checkout.textContent('[data-testid="order-freight"]')).toContain('49.00');
    expect(await checkout.textContent('[data-testid="order-total"]')).toContain('777.00');

    await payOnProviderPage(checkout, () => checkout.click('.checkout-summary__action'), 'approve');
    await checkout.waitForSelector('[data-payment="received"]', { timeout: 20_000 });
    expect(await checkout.textContent('.payment-received h2')).toBe(texts.payment.receivedTitle);
    const orderHeading = await checkout.textContent('[data-testid="order-page"] h2');
    expect(orderHeading).toMatch(/^Order no\. \d+$/);
    expect(await textsOf(checkout, '[data-testid="order-page"] .order-line__name')).toEqual([
      'Linen shirt',
      'Ceramic mug',
    ]);
    expect(await checkout.textContent('[data-testid="order-page"] [data-testid="order-total"]')).toContain(
      '777.00',
    );
    await saveScreenshot(checkout, 'checkout-payment-received', { fullPage: true });
    expect(pageErrors).toEqual([]);
  });

  it('retries a declined payment and then receives it', async () => {
    const shopper = await newShopper();
    const show = await openPage(shopper, LIVE_SHOW);
    await addToCart(show, 'Ceramic mug');
    await show.waitForURL(new RegExp(`${LIVE_SHOW}/[A-Za-z0-9_-]+$`));
    const checkoutUid = new URL(show.url()).pathname.split('/').pop() ?? '';

    const checkout = await openPage(shopper, `/demo-autumn-living/${checkoutUid}`);
    await checkout.waitForSelector('.checkout-form');
    await fillAsAda(checkout);
    await checkout.getByRole('button', { name: texts.cart.continue }).click();
    await checkout.waitForURL(/\/confirm$/);

    await payOnProviderPage(checkout, () => checkout.click('.checkout-summary__action'), 'decline');
    const declined = checkout.locator('[data-payment="declined"]');
    await declined.waitFor({ timeout: 20_000 });
    expect(await declined.locator('p').first().textContent()).toBe(texts.payment.declined);
    await saveScreenshot(checkout, 'checkout-payment-declined', { fullPage: true });

    await payOnProviderPage(checkout, () => declined.getByRole('button', { name: /DKK/ }).click(), 'approve');
    await checkout.waitForSelector('[data-payment="received"]', { timeout: 20_000 });
    // Mug 179.00 + freight 49.00, paid once.
    expect(await checkout.textContent('[data-testid="order-total"]')).toContain('228.00');
    expect(pageErrors).toEqual([]);
  });

  it('shows the locked-order notice as soon as the order is sent to packing, and offers no payment', async () => {
    const { checkout, path } = await checkoutWithMug(LIVE_SHOW);
    await fillAsAda(checkout);
    await checkout.getByRole('button', { name: texts.cart.continue }).click();
    await checkout.waitForURL(/\/confirm$/);
    // Leaving the payment page interrupts the payment: it can be retried.
    await payOnProviderPage(checkout, () => checkout.click('.checkout-summary__action'), 'abandon');
    const interrupted = checkout.locator('[data-payment="abandoned"]');
    await interrupted.locator('button').waitFor({ timeout: 20_000 });
    expect(await interrupted.locator('p').first().textContent()).toBe(texts.payment.interrupted);

    const checkoutUid = path.split('/').pop() ?? '';
    await admin('POST', `/staff/stores/demo-store/orders/${checkoutUid}/packing`);
    // The reservation's live query brings the new status; no reload.
    const notice = checkout.locator('[data-notice="locked"]');
    await notice.waitFor({ timeout: 60_000 });
    expect(await notice.textContent()).toBe(
      'The order has been locked for changes and payments because it was sent for packing.',
    );
    expect(await checkout.locator('[data-payment] button').count()).toBe(0);
    // The cart step is closed for a locked order: the route lands on the order.
    await checkout.goto(`${baseUrl}${path}`);
    await checkout.waitForURL(`${baseUrl}${path}/success`);
    await checkout.waitForSelector('[data-notice="locked"]');
    await saveScreenshot(checkout, 'checkout-locked', { fullPage: true });
    expect(pageErrors).toEqual([]);
  });

  it('refuses an order once the campaign deadline has passed', async () => {
    const campaignUid = 'e2e-checkout-deadline';
    const eventId = 'e2e-checkout-deadline-show';
    const campaign = { name: 'Last-minute deals', deadline: Date.now() + 60 * 60_000 };
    await putCampaignShow('demo-store', { uid: campaignUid, ...campaign }, { uid: eventId, ...liveSince() });
    await admin('PUT', `/admin/events/${eventId}/products/nordlys-ceramic-mug`, {
      productUid: 'nordlys-ceramic-mug',
    });

    const { checkout, path } = await checkoutWithMug(`/widget/demo-store/${campaignUid}`);
    await fillAsAda(checkout);
    await admin('PUT', `/admin/pages/demo-store/campaigns/${campaignUid}`, {
      ...campaign,
      deadline: Date.now() - 1000,
    });

    await checkout.goto(`${baseUrl}${path}`);
    const notice = checkout.locator('[data-notice="deadline"]');
    await notice.waitFor();
    expect(await notice.textContent()).toBe('Sorry, deadline for ordering these products is overdue.');
    expect(await checkout.getByRole('button', { name: texts.cart.continue }).isDisabled()).toBe(true);
    // The confirmation step is closed too.
    await checkout.goto(`${baseUrl}${path}/confirm`);
    await checkout.waitForURL(`${baseUrl}${path}`);
    await saveScreenshot(checkout, 'checkout-deadline', { fullPage: true });
    expect(pageErrors).toEqual([]);
  });
});
