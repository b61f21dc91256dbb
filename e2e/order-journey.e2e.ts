import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { liveSince, putCampaignShow } from './support/admin-shows.ts';
import { ADA_JENSEN, fillCheckoutForm } from './support/checkout-form.ts';
import { chromiumForFile } from './support/file-chromium.ts';
import { webLocale } from './support/locale-texts.ts';
import { saveScreenshot } from './support/screenshots.ts';
import { adminCall, testServer } from './support/test-server.ts';

// The shopper's money journey after the order (issue 13 §4, §5): the player's cart and the
// checkout show the order's state (paid, remaining), disable what the server would refuse and
// show its refusals in words; the confirmation and the order name the chosen parcel shop.

const { baseUrl } = testServer();
const LIVE_SHOW = '/widget/demo-store/demo-autumn-living';
const CAMPAIGN = 'demo-autumn-living';

const en = webLocale('en') as {
  player: Record<string, string>;
  checkout: { cart: Record<string, string> };
};
const screens = (
  webLocale('checkout/en') as {
    checkout: {
      cart: Record<string, string>;
      form: {
        country: string;
        termsLabel: string;
        invalidEmail: string;
        invalidPhone: string;
        labels: Record<string, string>;
      };
      shipping: Record<string, string>;
      paymentMethod: Record<string, string>;
      parcelShop: Record<string, string>;
      summary: Record<string, string>;
      orderState: Record<string, string> & { reduceBlocked: Record<string, string> };
      fields: Record<string, string>;
      emptyCart: Record<string, string>;
      refusal: Record<string, string>;
    };
  }
).checkout;

const browser = chromiumForFile();
const pageErrors: string[] = [];

async function openPage(context: BrowserContext, path: string): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(`${baseUrl}${path}`);
  return page;
}

/** Adds a product from the live show's list; answers its feedback element. */
async function addToCart(page: Page, productName: string) {
  const back = page.locator('.product-details .link-button', { hasText: en.player.backToList });
  if (await back.count()) await back.click();
  await page.locator('.product-card', { hasText: productName }).click();
  const details = page.locator('.product-details');
  await details.getByRole('button', { name: en.player.addToCart }).click();
  const feedback = details.locator('[data-feedback]');
  await feedback.waitFor();
  return feedback;
}

/** A new shopper with a mug in the cart, on the checkout's cart step. */
async function checkoutWithMug(): Promise<{ context: BrowserContext; checkout: Page; path: string }> {
  const context = await browser().newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
  const show = await openPage(context, LIVE_SHOW);
  expect(await (await addToCart(show, 'Ceramic mug')).getAttribute('data-feedback')).toBe('added');
  await show.waitForURL(new RegExp(`${LIVE_SHOW}/[A-Za-z0-9_-]+$`));
  const checkoutUid = new URL(show.url()).pathname.split('/').pop() ?? '';
  await show.close();
  const path = `/${CAMPAIGN}/${checkoutUid}`;
  const checkout = await openPage(context, path);
  await checkout.waitForSelector('.checkout-form');
  return { context, checkout, path };
}

/** Ada's address and payment by test card; the shipping method stays the form's own choice. */
const fillContact = (page: Page) =>
  fillCheckoutForm(page.locator('.checkout-form'), screens, ADA_JENSEN, { homeDelivery: false });

const admin = (path: string, body: unknown) => adminCall('PUT', path, body);

describe('the last unit', () => {
  it('says Added when the shopper buys it, though the product is then sold out (issue 13 §8)', async () => {
    const campaignUid = 'e2e-last-unit';
    const eventId = 'e2e-last-unit-show';
    await admin(`/staff/stores/demo-store/products/e2e-last-vase`, {
      name: 'Last vase',
      sku: 'LAST-VASE',
      prices: { DKK: 29_900, EUR: 3_995 },
      stock: 1,
    });
    await putCampaignShow(
      'demo-store',
      { uid: campaignUid, name: 'Last unit' },
      { uid: eventId, ...liveSince() },
    );
    await admin(`/admin/events/${eventId}/products/e2e-last-vase`, { productUid: 'e2e-last-vase' });

    const context = await browser().newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    const page = await openPage(context, `/widget/demo-store/${campaignUid}`);
    const feedback = await addToCart(page, 'Last vase');
    expect(await feedback.getAttribute('data-feedback')).toBe('added');
    // The stock of 0 arrives live and closes the button; the shopper's own add still reads Added.
    const button = page.locator('.product-details').getByRole('button', { name: en.player.addToCart });
    await page.waitForFunction(
      () => document.querySelector('.product-details .button')?.getAttribute('aria-disabled') === 'true',
    );
    expect(await button.getAttribute('aria-disabled')).toBe('true');
    const shown = page.locator('.product-details__feedback');
    expect(await shown.locator('[data-feedback]').getAttribute('data-feedback')).toBe('added');
    expect(await shown.textContent()).not.toContain(en.player.soldOut);
    await saveScreenshot(page, 'order-journey-last-unit-added', { fullPage: true });
    // Another shopper finds it sold out.
    const other = await browser().newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    const late = await openPage(other, `/widget/demo-store/${campaignUid}`);
    await late.locator('.product-card', { hasText: 'Last vase' }).click();
    await late.locator('.product-details__reason', { hasText: en.player.soldOut }).waitFor();
    expect(pageErrors).toEqual([]);
    await context.close();
    await other.close();
  });
});

describe('the cart', () => {
  it('can be emptied in one go, after a second question (spec §7 cancelReservation)', async () => {
    const context = await browser().newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    const show = await openPage(context, LIVE_SHOW);
    await addToCart(show, 'Ceramic mug');
    await show.click('.player-cart-button');
    const cart = show.locator('[data-testid="player-cart"]');
    await cart.locator('.player-cart__line').waitFor();
    await cart.getByRole('button', { name: 'One more Ceramic mug' }).click();
    await cart.locator('[data-testid="line-quantity"]', { hasText: '2' }).waitFor();
    await cart.getByRole('button', { name: screens.emptyCart.action }).click();
    expect(await cart.locator('.cart-empty-action__confirm').textContent()).toContain(
      screens.emptyCart.confirm,
    );
    await saveScreenshot(show, 'order-journey-empty-cart-confirm', { fullPage: true });
    // "Keep them" keeps them.
    await cart.getByRole('button', { name: screens.emptyCart.no }).click();
    expect(await cart.locator('.player-cart__line').count()).toBe(1);
    await cart.getByRole('button', { name: screens.emptyCart.action }).click();
    await cart.getByRole('button', { name: screens.emptyCart.yes }).click();
    await cart.locator('.panel-empty', { hasText: en.checkout.cart.empty ?? '' }).waitFor();
    expect(await show.locator('[data-testid="cart-count"]').count()).toBe(0);
    // The stock came back: the server holds nothing for this shopper any more.
    await show.reload();
    await show.click('.player-cart-button');
    await show.locator('[data-testid="player-cart"] .panel-empty').waitFor();
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});

describe('the details form', () => {
  it('says which field is wrong when an e-mail or phone number is filled but cannot be right (issue 13 §8)', async () => {
    const { context, checkout } = await checkoutWithMug();
    await fillContact(checkout);
    const form = checkout.locator('.checkout-form');
    await form.getByLabel(screens.shipping.home_delivery ?? '').check();
    const email = form.getByLabel(screens.form.labels.emailAddress ?? '');
    const phone = form.getByLabel(screens.form.labels.phone ?? '');
    await email.fill('ada.example.com');
    await phone.fill('abc');
    await checkout.getByRole('button', { name: screens.cart.continue }).click();
    const emailError = checkout.locator('[data-error="checkout.form.invalidEmail"]');
    await emailError.waitFor();
    expect(await emailError.textContent()).toBe(screens.form.invalidEmail);
    expect(await checkout.textContent('[data-error="checkout.form.invalidPhone"]')).toBe(
      screens.form.invalidPhone,
    );
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    expect(await phone.getAttribute('aria-invalid')).toBe('true');
    // The fields are filled: no "Please fill out your …" for them.
    expect(await checkout.locator('[data-error="checkout.form.fillOut"]').count()).toBe(0);
    // The focus is on the first wrong field.
    expect(await checkout.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('emailAddress');
    await saveScreenshot(checkout, 'order-journey-invalid-fields', { fullPage: true });
    // An empty field still gets the spec's message.
    await email.fill('');
    expect(await checkout.textContent('[data-error="checkout.form.fillOut"]')).toBe(
      `Please fill out your ${screens.fields.emailAddress}.`,
    );
    await email.fill('ada@example.com');
    await phone.fill('+45 12 34 56 78');
    expect(await checkout.locator('.checkout-form .form-error').count()).toBe(0);
    await checkout.getByRole('button', { name: screens.cart.continue }).click();
    await checkout.waitForURL(/\/confirm$/);
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});

describe('the order after payment', () => {
  it('names the parcel shop, and after paying the cart and checkout show what is paid and what is left', async () => {
    const { context, checkout, path } = await checkoutWithMug();
    await fillContact(checkout);
    const form = checkout.locator('.checkout-form');
    await form.getByLabel(screens.shipping.parcel_shop ?? '').check();
    await form.getByRole('button', { name: screens.parcelShop.find }).click();
    await form.getByLabel(/Supermarket service desk 2900/).check();
    await checkout.getByRole('button', { name: screens.cart.continue }).click();
    await checkout.waitForURL(`${baseUrl}${path}/confirm`);

    // Issue 13 §5: the confirmation names the parcel shop and its address.
    const shop = checkout.locator('[data-testid="parcel-shop"]');
    await shop.waitFor();
    expect((await shop.textContent())?.trim()).toBe(
      'Supermarket service desk 2900, Torvet 10, 2900 Hellerup',
    );
    await saveScreenshot(checkout, 'order-journey-confirm-parcel-shop', { fullPage: true });

    await checkout.click('.checkout-summary__action');
    await checkout.waitForURL(/\/payments\/test\//);
    await checkout.click('button.approve');
    await checkout.waitForSelector('[data-payment="received"]', { timeout: 20_000 });
    // …and so does the order.
    expect(await checkout.textContent('[data-testid="order-page"] [data-testid="parcel-shop"]')).toContain(
      'Supermarket service desk 2900, Torvet 10',
    );

    // Back in the show the cart is the paid order: its number, Paid, freight; paid lines keep their units.
    const show = await openPage(context, LIVE_SHOW);
    await show.click('.player-cart-button');
    const cart = show.locator('[data-testid="player-cart"]');
    await cart.locator('[data-testid="cart-paid-state"]').waitFor();
    expect(await cart.locator('[data-testid="cart-paid-state"]').textContent()).toBe(
      screens.orderState.paidInFull,
    );
    expect(await cart.locator('.cart-order-state__number strong').textContent()).toMatch(/^Order no\. \d+$/);
    expect(await cart.locator('[data-testid="cart-freight"]').textContent()).toContain('39.00');
    expect(await cart.locator('[data-testid="cart-total"]').textContent()).toContain('218.00');
    expect(await cart.getByRole('button', { name: 'Remove Ceramic mug' }).isDisabled()).toBe(true);
    expect(await cart.getByRole('button', { name: 'One more Ceramic mug' }).isDisabled()).toBe(false);
    expect(await cart.locator('[data-hint="paid"]').textContent()).toBe(
      screens.orderState.reduceBlocked.paid,
    );
    expect(await cart.getByRole('link', { name: screens.orderState.toOrder }).count()).toBe(1);
    await saveScreenshot(show, 'order-journey-cart-paid', { fullPage: true });

    // The order grows: the cart says what is left to pay, offers paying it, and the unit added
    // after the payment can go again (issue 27); the paid one could not (above).
    await cart.getByRole('button', { name: 'One more Ceramic mug' }).click();
    await cart.locator('[data-testid="cart-remaining"]').waitFor();
    expect(await cart.locator('[data-testid="cart-remaining"]').textContent()).toContain('179.00');
    expect(await cart.locator('[data-testid="cart-paid"]').textContent()).toContain('218.00');
    expect(await cart.locator('[data-testid="cart-paid-state"]').textContent()).toBe(
      screens.orderState.partlyPaid,
    );
    expect(await cart.getByRole('button', { name: 'One less Ceramic mug' }).isDisabled()).toBe(false);
    const payRest = cart.getByRole('link', {
      name: (screens.orderState.payRest ?? '').replace('{{amount}}', 'DKK 179.00'),
    });
    expect(await payRest.getAttribute('href')).toBe(`${path}/confirm`);
    await saveScreenshot(show, 'order-journey-cart-remaining', { fullPage: true });

    // The checkout's cart step shows the same: paid, remaining, and the later unit removable.
    await show.goto(`${baseUrl}${path}`);
    await show.waitForSelector('.order-totals__remaining');
    expect(await show.textContent('.checkout-summary .order-totals__remaining')).toContain('179.00');
    expect(await show.textContent('.checkout-summary .order-totals')).toContain(screens.summary.paid);
    expect(await show.getByRole('button', { name: 'One less Ceramic mug' }).isDisabled()).toBe(false);
    await saveScreenshot(show, 'order-journey-checkout-remaining', { fullPage: true });
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("shows the server's reason when cheaper delivery is refused while a payment is under way", async () => {
    const { context, checkout, path } = await checkoutWithMug();
    await fillContact(checkout);
    await checkout
      .locator('.checkout-form')
      .getByLabel(screens.shipping.home_delivery ?? '')
      .check();
    await checkout.getByRole('button', { name: screens.cart.continue }).click();
    await checkout.waitForURL(`${baseUrl}${path}/confirm`);
    await checkout.click('.checkout-summary__action');
    // On the provider's page: the payment awaits confirmation. The shopper goes back to the cart.
    await checkout.waitForURL(/\/payments\/test\//);
    await checkout.goto(`${baseUrl}${path}`);
    const form = checkout.locator('.checkout-form');
    await form.waitFor();
    const pickup = form.getByLabel(screens.shipping.store_pickup ?? '');
    // A click, not check(): the refusal can return the choice to home delivery before check()
    // looks at the radio again, and that return is what this test is about.
    await pickup.click();
    const refusal = checkout.locator('[data-error="checkout.refusal.cheaperDelivery"]');
    await refusal.waitFor();
    expect(await refusal.textContent()).toBe(screens.refusal.cheaperDelivery);
    // The form shows what is saved: home delivery.
    await checkout.waitForFunction(
      () => document.querySelector<HTMLInputElement>('input[type="radio"][value="home_delivery"]')?.checked,
    );
    expect(await pickup.isChecked()).toBe(false);
    expect(await checkout.getByRole('button', { name: 'Remove Ceramic mug' }).isDisabled()).toBe(true);
    expect(await checkout.locator('[data-hint="paymentOpen"]').textContent()).toBe(
      screens.orderState.reduceBlocked.paymentOpen,
    );
    await saveScreenshot(checkout, 'order-journey-refused-cheaper-delivery', { fullPage: true });
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
