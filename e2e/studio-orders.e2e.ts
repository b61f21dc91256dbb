/**
 * The studio's orders (issue 14 item 5), as an owner uses them: a shopper orders and pays; the
 * owner finds the order by its number, sends it to packing, marks it packed and shipped with a
 * tracking number (the shopper's order page then says it is locked and links the tracking) and
 * refunds it, part and then the rest. The order screens, contacts and mail outbox have no serious
 * or moderate axe-core findings, at 1280 px and on a tablet.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { savedMails } from '../apps/server/src/test-support/smtp-test-server.ts';
import { axeFindings } from './support/axe.ts';
import { englishPage, launchChromium } from './support/browser.ts';
import { webLocale } from './support/locale-texts.ts';
import { saveScreenshot } from './support/screenshots.ts';
import {
  fillCheckoutDetails,
  payWithTestCard,
  shopperCall,
  signInAnonymously,
} from './support/shopper-api.ts';
import { openStudioAs } from './support/studio.ts';
import { testServer } from './support/test-server.ts';

const { baseUrl, adminKey, mailDir } = testServer();
const STORE = 'demo-store';
// A show and product of this test's own: the demo show's mugs are shared by every other browser
// test, and orders paid here would take them for good.
const CAMPAIGN = 'studio-orders-e2e';
const EVENT = 'studio-orders-e2e-show';
const MUG = 'studio-orders-e2e-jug';

const lockedText = (webLocale('en') as { checkout: { order: { locked: string } } }).checkout.order.locked;

async function adminPut(path: string, body: object): Promise<void> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${adminKey}` },
    body: JSON.stringify(body),
  });
  expect(response.status, `PUT ${path}: ${await response.clone().text()}`).toBe(200);
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
  await adminPut(`/staff/stores/${STORE}/products/${MUG}`, {
    name: 'Studio test jug',
    sku: 'ST-JUG',
    prices: { DKK: 17_900, EUR: 2_395 },
    stock: 100,
  });
  await adminPut(`/admin/pages/${STORE}/campaigns/${CAMPAIGN}`, { name: 'Studio orders test show' });
  await adminPut(`/admin/events/${EVENT}`, {
    pageUid: STORE,
    campaignId: CAMPAIGN,
    status: 'public',
    currentStatus: 'live',
    eventName: 'Studio orders test show',
    eventStartTimestamp: Date.now(),
    liveStartTime: Date.now(),
  });
  await adminPut(`/admin/events/${EVENT}/products/${MUG}`, { productUid: MUG });
});
afterAll(async () => {
  await browser?.close();
});

/** A shopper orders one mug through the public API and pays on the test provider's page. */
async function paidOrder(buyerName: string) {
  const session = await signInAnonymously();
  const token = session.idToken;
  const added = await shopperCall<{ checkoutUid: string }>(
    '/shopapiv2/cart/addSingle',
    { pageUid: STORE, campaignUid: CAMPAIGN, productUid: MUG },
    token,
  );
  const ref = { pageUid: STORE, campaignUid: CAMPAIGN, checkoutUid: added.checkoutUid };
  await fillCheckoutDetails(token, ref, { name: buyerName, emailAddress: 'studio-buyer@example.com' });
  const { order } = await payWithTestCard(token, ref, 15_000);
  return { session, checkoutUid: added.checkoutUid, orderNumber: order.orderNumber };
}

const openDialog = (page: Page) => page.locator('dialog[open]');

describe('orders in the studio', () => {
  it('finds a paid order, sends it to packing (the shopper sees it locked) and refunds it', async () => {
    const buyer = `Studio Buyer ${Date.now()}`;
    const { session, checkoutUid, orderNumber } = await paidOrder(buyer);
    // The confirmation arrives at the SMTP server, in the shopper's language, as text and HTML.
    await expect
      .poll(() => savedMails(mailDir).filter((mail) => mail.subject.includes(String(orderNumber))).length, {
        timeout: 15_000,
      })
      .toBe(2);
    const confirmation = savedMails(mailDir).find(
      (mail) => mail.subject === `Your order ${orderNumber} from Nordlys Living`,
    );
    expect(confirmation?.text).toContain(`Hi ${buyer},`);
    expect(confirmation?.html).toContain(`Hi ${buyer},`);

    const errors: string[] = [];
    const { context, page } = await englishPage(browser, errors);
    await openStudioAs(page, { baseUrl, adminKey, pageUid: STORE, role: 'owner', path: 'orders' });
    await page.getByLabel('Search').fill(String(orderNumber));
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => page.locator('.studio-table tbody tr').count()).toBe(1);
    expect(await page.locator('.studio-table tbody tr').textContent()).toContain(buyer);
    expect(await axeFindings(page)).toEqual([]);
    await saveScreenshot(page, 'orders-list', { fullPage: true });

    await page.getByRole('link', { name: String(orderNumber) }).click();
    await page.waitForURL(`${baseUrl}/studio/${STORE}/orders/${checkoutUid}`);
    await expect.poll(() => page.locator('h1').textContent()).toBe(`Order ${orderNumber}`);
    expect(await page.locator('.studio-order-badges').textContent()).toContain('Paid');
    expect(await page.locator('.studio-order-timeline').textContent()).toContain('Payment received');
    expect(await axeFindings(page)).toEqual([]);

    // Send to packing, confirmed in a dialog.
    await page.getByRole('button', { name: 'Send to packing' }).click();
    await openDialog(page).getByRole('button', { name: 'Send to packing' }).click();
    await expect.poll(() => page.locator('.studio-order-badges').textContent()).toContain('Sent to packing');
    expect(await page.getByRole('button', { name: 'In packing' }).isDisabled()).toBe(true);

    // Packed, then shipped with a carrier and tracking number (issue 33 item 11).
    await page.getByRole('button', { name: 'Mark as packed' }).click();
    await expect.poll(() => page.locator('.studio-order-badges').textContent()).toContain('Packed');
    await page.getByLabel('Carrier', { exact: true }).selectOption('gls');
    await page.getByLabel('Tracking number').fill('GLS 4711');
    await page.getByRole('button', { name: 'Mark as shipped' }).click();
    await expect.poll(() => page.locator('.studio-order-badges').textContent()).toContain('Shipped');
    expect(await page.getByTestId('studio-tracking').textContent()).toContain('GLS 4711');
    expect(await page.locator('.studio-order-timeline').textContent()).toContain('Shipped');
    expect(await axeFindings(page)).toEqual([]);
    await saveScreenshot(page, 'orders-detail-shipped', { fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await saveScreenshot(page, 'orders-detail-shipped-phone', { fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });

    // The shopper's order page says the order is locked and shows the tracking link.
    const shopperContext = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      locale: 'en-GB',
    });
    const shopper = await shopperContext.newPage();
    await shopper.addInitScript((stored) => {
      if (!localStorage.getItem('vitrine-session'))
        localStorage.setItem('vitrine-session', JSON.stringify(stored));
    }, session);
    await shopper.goto(`${baseUrl}/${CAMPAIGN}/${checkoutUid}`);
    await expect
      .poll(() => shopper.getByText(lockedText).first().isVisible(), { timeout: 15_000 })
      .toBe(true);
    await expect
      .poll(() => shopper.getByTestId('tracking-link').getAttribute('href'), { timeout: 15_000 })
      .toBe('https://gls-group.com/track/GLS%204711');
    expect(await shopper.locator('.order-delivery').textContent()).toContain('GLS 4711');
    await saveScreenshot(shopper, 'shopper-order-shipped', { fullPage: true });
    await shopper.setViewportSize({ width: 390, height: 844 });
    await saveScreenshot(shopper, 'shopper-order-shipped-phone', { fullPage: true });
    await shopperContext.close();

    // A refund over what was paid is refused by the form, before anything is sent.
    const refundable = await page.getByLabel(/Amount to refund/).evaluate((input) => input.id);
    expect(refundable).toBeTruthy();
    await page.getByLabel(/Amount to refund/).fill('100000');
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    await expect
      .poll(() => page.locator('.studio-field__error').textContent())
      .toMatch(/^At most .* can be refunded\.$/);
    expect(await openDialog(page).count()).toBe(0);

    // Part of it, then the rest.
    await page.getByLabel(/Amount to refund/).fill('10');
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    expect(await openDialog(page).textContent()).toMatch(/goes back to the shopper/);
    await openDialog(page).getByRole('button', { name: 'Refund', exact: true }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toMatch(/was refunded\./);
    await expect.poll(() => page.locator('.studio-order-refunds li').count()).toBe(1);
    await saveScreenshot(page, 'orders-detail', { fullPage: true });

    await page.getByRole('button', { name: 'Everything' }).click();
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    await openDialog(page).getByRole('button', { name: 'Refund', exact: true }).click();
    await expect.poll(() => page.getByText('Nothing left to refund.').isVisible()).toBe(true);
    expect(await page.locator('.studio-order-refunds li').count()).toBe(2);
    expect(await page.locator('.studio-order-timeline').textContent()).toContain(
      'Refund recorded by the provider',
    );
    await saveScreenshot(page, 'orders-detail-refunded', { fullPage: true });

    // On a tablet the detail stays usable and accessible.
    await page.setViewportSize({ width: 820, height: 1180 });
    expect(await axeFindings(page)).toEqual([]);
    await saveScreenshot(page, 'orders-detail-tablet', { fullPage: true });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows contacts and the mail outbox (the paid order’s mails, sent) to an owner', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    const page = await context.newPage();
    await openStudioAs(page, { baseUrl, adminKey, pageUid: STORE, role: 'owner', path: 'mail' });
    await expect.poll(() => page.locator('.studio-table tbody tr').count()).toBeGreaterThan(0);
    expect(await page.locator('.studio-table tbody').textContent()).toContain('Sent');
    await page.locator('.studio-link-button').first().click();
    await expect.poll(() => page.locator('.studio-mail-view iframe').getAttribute('sandbox')).toBe('');
    expect(await axeFindings(page)).toEqual([]);
    await saveScreenshot(page, 'orders-mail', { fullPage: true });

    await page.getByRole('link', { name: 'Contacts' }).click();
    await page.waitForURL(`${baseUrl}/studio/${STORE}/contacts`);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Contacts');
    expect(await axeFindings(page)).toEqual([]);
    await saveScreenshot(page, 'orders-contacts', { fullPage: true });
    await page.setViewportSize({ width: 820, height: 1180 });
    await page.getByRole('link', { name: 'Orders' }).click();
    await expect.poll(() => page.locator('.studio-table tbody tr').count()).toBeGreaterThan(0);
    expect(await axeFindings(page)).toEqual([]);
    await saveScreenshot(page, 'orders-list-tablet', { fullPage: true });
    await context.close();
  });
});
