/**
 * The studio's settings, staff and audit screens (issue 14 §2, §7): an owner changes the player's
 * colour and sees the preview follow before saving, invites a host whom a new visitor accepts
 * (signing up on the invitation page), and finds both changes in the audit log; axe-core finds
 * nothing serious or moderate on these screens at 1280 px and on a tablet. The tests use a store
 * of their own, so the demo store other files check keeps its settings.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeFindings } from './support/axe.ts';
import { launchChromium } from './support/browser.ts';
import { saveScreenshot, screenshotsDir } from './support/screenshots.ts';
import { signInAnonymously } from './support/shopper-api.ts';
import { openStudioAs } from './support/studio.ts';
import { adminCall, testServer } from './support/test-server.ts';

const { baseUrl, adminKey } = testServer();
const STORE = `e2e-settings-${Date.now().toString(36)}`;
const STORE_NAME = 'Settings Test Shop';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
  await adminCall('PUT', `/admin/pages/${STORE}`, { name: STORE_NAME, language: 'en', currency: 'DKK' });
});
afterAll(async () => {
  await browser?.close();
});

async function newPage(viewport = { width: 1280, height: 800 }): Promise<Page> {
  const context = await browser.newContext({ viewport, locale: 'en-GB' });
  return context.newPage();
}

const buyButtonColour = (page: Page) =>
  page.getByTestId('preview-buy').evaluate((element) => getComputedStyle(element).backgroundColor);

describe('store settings', () => {
  it('shows a colour change in the player preview before saving, and keeps it once saved', async () => {
    const page = await newPage();
    await openStudioAs(page, { baseUrl, adminKey, pageUid: STORE, role: 'owner', path: 'settings' });
    await page.waitForSelector('[data-testid="player-preview"]');
    // The spec's default primary colour, #29323D.
    expect(await buyButtonColour(page)).toBe('rgb(41, 50, 61)');

    await page.getByRole('textbox', { name: 'Primary colour', exact: true }).fill('#CC3366');
    await expect.poll(() => buyButtonColour(page)).toBe('rgb(204, 51, 102)');
    await page.getByLabel('Hide prices').check();
    await expect.poll(() => page.locator('.player-preview__price').count()).toBe(0);
    await page.getByLabel('Product overlay side').selectOption('left');
    await expect
      .poll(() => page.getByTestId('preview-product').getAttribute('class'))
      .toContain('player-preview__product--left');

    const player = page.locator('#player');
    await player.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => player.getByText('Saved').count()).toBe(1);

    const read = await fetch(`${baseUrl}/reads/playerSettings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pageUid: STORE }),
    });
    const stored = JSON.stringify(await read.json());
    expect(stored).toContain('#CC3366');
    expect(stored).toContain('"hidePrices":true');

    await page.reload();
    await page.waitForSelector('[data-testid="player-preview"]');
    expect(await page.getByRole('textbox', { name: 'Primary colour', exact: true }).inputValue()).toBe(
      '#CC3366',
    );
    expect(await buyButtonColour(page)).toBe('rgb(204, 51, 102)');
    await page.context().close();
  });

  it("saves the store's terms, which its storefront terms page shows (not the demo store's)", async () => {
    const page = await newPage();
    await openStudioAs(page, { baseUrl, adminKey, pageUid: STORE, role: 'host', path: 'settings' });
    const terms = page.locator('#terms');
    await terms.getByLabel('Terms', { exact: true }).fill('Returns within 14 days.\n\nShipping from Aarhus.');
    await terms.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => terms.getByText('Saved').count()).toBe(1);
    await page.goto(`${baseUrl}/terms?store=${STORE}`);
    await expect
      .poll(() => page.locator('main[data-page="terms"] p').allTextContents())
      .toEqual(['Returns within 14 days.', 'Shipping from Aarhus.']);
    await page.context().close();
  });

  it('shows the server schema message of a bad origin next to the field, sending nothing', async () => {
    const page = await newPage();
    await openStudioAs(page, { baseUrl, adminKey, pageUid: STORE, role: 'owner', path: 'settings' });
    let sent = 0;
    page.on('request', (request) => {
      if (request.url().includes('/settings/embedding')) sent++;
    });
    const embedding = page.locator('#embedding');
    await embedding.getByLabel('Allowed origins, one per line').fill('https://shop.example/products');
    await embedding.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => embedding.locator('.studio-field__error').textContent())
      .toContain('must be an origin like https://shop.example (no path)');
    expect(sent).toBe(0);
    await page.context().close();
  });
});

describe('staff', () => {
  it('invites a host by e-mail; a new visitor signs up on the invitation page and accepts', async () => {
    const owner = await newPage();
    await openStudioAs(owner, { baseUrl, adminKey, pageUid: STORE, role: 'owner', path: 'staff' });
    const email = `new-host-${Date.now()}@e2e.example`;
    await owner.getByRole('textbox', { name: 'E-mail', exact: true }).fill(email);
    await owner.getByRole('combobox', { name: 'Role', exact: true }).selectOption('host');
    await owner.getByRole('button', { name: 'Send invitation' }).click();
    const link = await owner.getByTestId('invitation-link').inputValue();
    expect(link).toMatch(/\/studio\/invitation#/);
    await expect.poll(() => owner.getByRole('cell', { name: email, exact: true }).count()).toBe(1);

    const visitor = await newPage();
    await visitor.goto(link);
    await expect
      .poll(() => visitor.locator('main').textContent())
      .toContain(`You are invited to work on ${STORE_NAME} as Host.`);
    await visitor.getByLabel('Your name').fill('Hana Host');
    await visitor.getByLabel('E-mail').fill(email);
    await visitor.getByLabel('Password').fill('a-new-host-password');
    await visitor.getByRole('button', { name: 'Create account' }).click();
    await visitor.getByRole('button', { name: 'Accept as Hana Host' }).click();
    await visitor.waitForURL(new RegExp(`/studio/${STORE}/`));
    await visitor.waitForSelector('.studio-nav');
    expect(await visitor.locator('.studio-nav a').allTextContents()).toEqual([
      'Shows',
      'Go live',
      'Products',
      'Analytics',
      'Settings',
    ]);
    await visitor.context().close();

    await owner.reload();
    const row = owner.getByRole('row').filter({ hasText: 'Hana Host' });
    await expect.poll(() => row.getByRole('combobox').inputValue()).toBe('host');
    await expect.poll(() => owner.getByText('No open invitations.').count()).toBe(1);

    await owner.goto(`${baseUrl}/studio/${STORE}/audit`);
    const log = owner.getByTestId('audit-log');
    await expect.poll(() => log.textContent()).toContain('inviteStaff');
    expect(await log.textContent()).toContain('putStorePlayerSettings');
    await owner.context().close();
  });
});

describe('invitations bound to the invited address (issue 33 §1, §2)', () => {
  const invite = async (email: string, role: string) => {
    const response = await fetch(`${baseUrl}/staff/stores/${STORE}/invitations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${adminKey}` },
      body: JSON.stringify({ email, role }),
    });
    return ((await response.json()) as { acceptUrl: string }).acceptUrl;
  };
  const signUp = async (email: string, password: string, name: string) => {
    const { idToken } = await signInAnonymously();
    const response = await fetch(`${baseUrl}/functions/auth/signUp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${idToken}` },
      body: JSON.stringify({ email, password, name }),
    });
    if (!response.ok) throw new Error(`signing up: ${response.status} ${await response.text()}`);
  };

  it('a person with an account signs in on the invitation page and accepts; another account is refused', async () => {
    const email = `existing-${Date.now()}@e2e.example`;
    await signUp(email, 'an-existing-password-1', 'Mona Moderator');
    await signUp(`other-${email}`, 'another-password-22', 'Someone Else');
    const link = await invite(email, 'moderator');

    const visitor = await newPage();
    await visitor.goto(link);
    await expect
      .poll(() => visitor.locator('.invitation-facts').textContent())
      .toContain('e•••@e•••.example');
    expect(await visitor.locator('main').textContent()).not.toContain(email);
    if (screenshotsDir()) {
      await saveScreenshot(visitor, 'invitation-desktop', { fullPage: true });
      await visitor.setViewportSize({ width: 390, height: 844 });
      await saveScreenshot(visitor, 'invitation-phone', { fullPage: true });
      await visitor.setViewportSize({ width: 1280, height: 800 });
    }

    // Someone else's account first: signing in works, accepting is refused with the reason.
    await visitor.getByRole('button', { name: 'I already have an account' }).click();
    await visitor.getByLabel('E-mail').fill(`other-${email}`);
    await visitor.getByLabel('Password').fill('another-password-22');
    await visitor.getByRole('button', { name: 'Sign in', exact: true }).click();
    await visitor.getByRole('button', { name: 'Accept as Someone Else' }).click();
    await expect
      .poll(() => visitor.getByRole('alert').textContent())
      .toContain('This invitation was sent to e•••@e•••.example');
    await saveScreenshot(visitor, 'invitation-refused-desktop');

    await visitor.getByRole('button', { name: 'Use another account' }).click();
    await visitor.getByRole('button', { name: 'I already have an account' }).click();
    await visitor.getByLabel('E-mail').fill(email);
    await visitor.getByLabel('Password').fill('an-existing-password-1');
    await visitor.getByRole('button', { name: 'Sign in', exact: true }).click();
    await visitor.getByRole('button', { name: 'Accept as Mona Moderator' }).click();
    await visitor.waitForURL(new RegExp(`/studio/${STORE}/`));
    await visitor.waitForSelector('.studio-nav');
    await visitor.context().close();
  });

  it('the staff page sends an open invitation again with a new link; the old one stops working', async () => {
    const email = `resend-${Date.now()}@e2e.example`;
    const oldLink = await invite(email, 'host');
    const owner = await newPage();
    await openStudioAs(owner, { baseUrl, adminKey, pageUid: STORE, role: 'owner', path: 'staff' });
    await owner.getByRole('button', { name: `Send again ${email}` }).click();
    const newLink = owner.getByTestId('invitation-link');
    await expect.poll(() => newLink.inputValue()).toMatch(/\/studio\/invitation#/);
    expect(await newLink.inputValue()).not.toBe(oldLink);
    if (screenshotsDir()) {
      await saveScreenshot(owner, 'staff-desktop', { fullPage: true });
      await owner.setViewportSize({ width: 390, height: 844 });
      await saveScreenshot(owner, 'staff-phone', { fullPage: true });
    }
    const lookup = await fetch(`${baseUrl}/staff/invitations/lookup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: new URL(oldLink).hash.slice(1) }),
    });
    expect(lookup.status).toBe(404);
    await owner.context().close();
  });
});

describe('axe-core on the settings, staff, audit and invitation screens', () => {
  it.each([
    ['desktop', { width: 1280, height: 800 }],
    ['tablet', { width: 820, height: 1180 }],
    ['phone', { width: 390, height: 844 }],
  ])('finds no serious or moderate violation (%s)', async (_name, viewport) => {
    const page = await newPage(viewport);
    await openStudioAs(page, { baseUrl, adminKey, pageUid: STORE, role: 'owner', path: 'settings' });
    await page.waitForSelector('[data-testid="player-preview"]');
    expect(await axeFindings(page)).toEqual([]);
    await page.goto(`${baseUrl}/studio/${STORE}/staff`);
    await page.waitForSelector('#members-title');
    expect(await axeFindings(page)).toEqual([]);
    await page.goto(`${baseUrl}/studio/${STORE}/audit`);
    await page.waitForSelector('.studio-pager');
    expect(await axeFindings(page)).toEqual([]);

    const invitation = await fetch(`${baseUrl}/staff/stores/${STORE}/invitations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${adminKey}` },
      body: JSON.stringify({ email: `axe-${Date.now()}@e2e.example`, role: 'moderator' }),
    });
    const { acceptUrl } = (await invitation.json()) as { acceptUrl: string };
    const visitor = await newPage(viewport);
    await visitor.goto(acceptUrl);
    await visitor.waitForSelector('.invitation-facts');
    expect(await axeFindings(visitor)).toEqual([]);
    await visitor.context().close();
    await page.context().close();
  });
});
