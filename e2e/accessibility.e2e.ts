/**
 * Keyboard and screen-reader use of the shopper's journey (issue 13 §6): axe-core finds no serious
 * or moderate violation on the shop, player, product, cart and checkout screens, on a desktop and a
 * phone; the focus follows what the shopper did; an empty required field says so and gets the focus.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeFindings } from './support/axe.ts';
import { englishPage } from './support/browser.ts';
import { chromiumForFile } from './support/file-chromium.ts';
import { webLocale } from './support/locale-texts.ts';
import { saveScreenshot } from './support/screenshots.ts';
import { testServer } from './support/test-server.ts';

const { baseUrl } = testServer();
const LIVE_SHOW = '/widget/demo-store/demo-autumn-living';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

const en = webLocale('en') as {
  player: Record<string, string> & { mobileMenu: Record<string, string> };
};
const checkoutEn = webLocale('checkout/en') as {
  checkout: {
    cart: Record<string, string>;
    form: { country: string; termsLabel: string; labels: Record<string, string> };
    shipping: Record<string, string>;
    paymentMethod: Record<string, string>;
  };
};
const interactionEn = webLocale('interaction/en') as {
  interaction: { account: Record<string, string> };
};

const browser = chromiumForFile();
const pageErrors: string[] = [];

async function newPage(viewport: {
  width: number;
  height: number;
}): Promise<{ context: BrowserContext; page: Page }> {
  return englishPage(browser(), pageErrors, viewport, { phoneWhenNarrow: true });
}

async function expectNoViolations(page: Page, screen: string) {
  const findings = await axeFindings(page);
  expect(findings, `${screen}: ${JSON.stringify(findings, null, 1)}`).toEqual([]);
  await saveScreenshot(page, `a11y-${screen}`);
}

/** What has the keyboard focus, described for an assertion message. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    return element ? `${element.tagName.toLowerCase()}.${element.className}` : 'none';
  });

describe('axe-core: no serious or moderate violations', () => {
  for (const [device, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`on the shop, player, product, cart and checkout screens (${device})`, async () => {
      const { page } = await newPage(viewport);
      await page.goto(`${baseUrl}/`);
      await page.locator('.event-card').first().waitFor();
      await expectNoViolations(page, `${device}-shop`);

      await page.goto(`${baseUrl}${LIVE_SHOW}`);
      await page.locator('.player').waitFor();
      await expectNoViolations(page, `${device}-player`);

      // The products: the panel beside the video, or the phone's sheet.
      const panel = device === 'phone' ? page.locator('.mobile-sheet') : page.locator('.player__panel');
      if (device === 'phone')
        await page.locator('.mobile-menu button', { hasText: en.player.mobileMenu.products }).tap();
      await panel.locator('.product-card', { hasText: 'Ceramic mug' }).click();
      const details = panel.locator('.product-details');
      await details.waitFor();
      await expectNoViolations(page, `${device}-product`);

      await details.getByRole('button', { name: en.player.addToCart }).click();
      await details.locator('[data-feedback="added"]').waitFor();
      await page.waitForURL(new RegExp(`${LIVE_SHOW}/[A-Za-z0-9_-]+$`));
      if (device === 'phone') {
        await page.locator('.mobile-sheet .link-button', { hasText: en.player.close }).tap();
        await page.locator('.mobile-menu button', { hasText: en.player.mobileMenu.cart }).tap();
      } else {
        await page.click('.player-cart-button');
      }
      await page.locator('.player-cart__line').first().waitFor();
      await expectNoViolations(page, `${device}-cart`);

      const checkoutUid = new URL(page.url()).pathname.split('/').pop() ?? '';
      await page.goto(`${baseUrl}/demo-autumn-living/${checkoutUid}`);
      await page.locator('.checkout-form').waitFor();
      await expectNoViolations(page, `${device}-checkout`);
      // The store's 240×64 logo keeps its proportions in the checkout's header too (issue 13 §7).
      const logo = await page.locator('.checkout-header__logo').boundingBox();
      expect((logo?.width ?? 0) / (logo?.height ?? 1)).toBeGreaterThan(2.5);
      expect(pageErrors).toEqual([]);
    });
  }
});

describe('focus follows the shopper', () => {
  it('moves to the product opened, stays on "Add to cart" after adding, and shows where it is', async () => {
    const { page } = await newPage(DESKTOP);
    await page.goto(`${baseUrl}${LIVE_SHOW}`);
    const card = page.locator('.player__panel .product-card', { hasText: 'Ceramic mug' });
    await card.focus();
    await page.keyboard.press('Enter');
    const name = page.locator('.player__panel .product-details__name');
    await name.waitFor();
    await page.waitForFunction(() => document.activeElement?.classList.contains('product-details__name'));
    expect(await name.textContent()).toBe('Ceramic mug');

    const add = page
      .locator('.player__panel .product-details')
      .getByRole('button', { name: en.player.addToCart });
    await add.focus();
    // A keyboard focus is visible: the focus ring of base.css, not the browser's default or nothing.
    const ring = await add.evaluate((element) => {
      const style = getComputedStyle(element);
      return { style: style.outlineStyle, width: Number.parseFloat(style.outlineWidth) };
    });
    expect(ring).toEqual({ style: 'solid', width: 3 });
    await page.keyboard.press('Enter');
    await page.locator('.player__panel [data-feedback="added"]').waitFor();
    expect(await focused(page)).toBe('button.button');
    expect(await add.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(pageErrors).toEqual([]);
  });

  it('on an empty checkout form, moves to the first field to fix; on the next step, to that step', async () => {
    const { page } = await newPage(DESKTOP);
    await page.goto(`${baseUrl}${LIVE_SHOW}`);
    await page.locator('.player__panel .product-card', { hasText: 'Ceramic mug' }).click();
    await page
      .locator('.player__panel .product-details')
      .getByRole('button', { name: en.player.addToCart })
      .click();
    await page.waitForURL(new RegExp(`${LIVE_SHOW}/[A-Za-z0-9_-]+$`));
    const checkoutUid = new URL(page.url()).pathname.split('/').pop() ?? '';
    await page.goto(`${baseUrl}/demo-autumn-living/${checkoutUid}`);
    const form = page.locator('.checkout-form');
    await form.waitFor();

    await page.getByRole('button', { name: checkoutEn.checkout.cart.continue }).click();
    await page.locator('.form-error').first().waitFor();
    // The country comes first in the address section and is not chosen yet.
    await page.waitForFunction(() => document.activeElement?.tagName === 'SELECT');
    expect(await page.evaluate(() => (document.activeElement as HTMLSelectElement).value)).toBe('');

    await form.locator('select').first().selectOption('DK');
    await page.getByRole('button', { name: checkoutEn.checkout.cart.continue }).click();
    // Now the first empty text field of the address.
    await page.waitForFunction(
      () =>
        document.activeElement?.tagName === 'INPUT' &&
        (document.activeElement as HTMLInputElement).value === '',
    );

    // Filled in and continued: the focus goes to the new current step, not to the page's body.
    const { form: texts, shipping, paymentMethod } = checkoutEn.checkout;
    await form.getByLabel(texts.labels.name ?? '').fill('Ada Jensen');
    await form.getByLabel(texts.labels.address ?? '').fill('Strandvejen 12');
    await form.getByLabel(texts.labels.postCode ?? '').fill('2900');
    await form.getByLabel(texts.labels.city ?? '').fill('Hellerup');
    await form.getByLabel(texts.labels.emailAddress ?? '').fill('ada@example.com');
    await form.getByLabel(texts.labels.phone ?? '').fill('+45 12 34 56 78');
    await form.getByLabel(shipping.home_delivery ?? '').check();
    await form.getByLabel(paymentMethod.test_card ?? '').check();
    await form.getByLabel(texts.termsLabel).check();
    await page.getByRole('button', { name: checkoutEn.checkout.cart.continue }).click();
    await page.waitForURL(/\/confirm$/);
    await page.waitForFunction(() => document.activeElement?.closest('[aria-current="step"]') !== null);
    expect(await page.evaluate(() => document.activeElement?.closest('li')?.dataset.step)).toBe('confirm');
    expect(pageErrors).toEqual([]);
  });

  it('answers "Continue" with an empty name in the name dialog, and puts the focus in the field', async () => {
    const { page } = await newPage(DESKTOP);
    await page.goto(`${baseUrl}${LIVE_SHOW}`);
    await page.locator('.player__tabs [role="tab"]', { hasText: /^Comments/ }).click();
    await page.fill('.chat-composer__input', 'Is the mug dishwasher safe?');
    await page.click('.chat-composer button[type="submit"]');
    const dialog = page.locator('dialog.account-dialog[open]');
    await dialog.waitFor();
    await dialog.locator('input[name="name"]').fill('   ');
    await dialog.locator('.account-form__submit').click();
    const problem = dialog.getByRole('alert');
    await problem.waitFor();
    expect(await problem.textContent()).toBe(interactionEn.interaction.account.nameMissing);
    expect(await focused(page)).toBe('input.');
    expect(await dialog.locator('input[name="name"]').getAttribute('aria-invalid')).toBe('true');
    // Typing a name clears the message.
    await dialog.locator('input[name="name"]').fill('Ada');
    await problem.waitFor({ state: 'detached' });
    expect(pageErrors).toEqual([]);
  });
});
