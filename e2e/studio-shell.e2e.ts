/**
 * The studio's shell (issue 14): staff sign in with e-mail and password, see the sections their
 * role opens, switch off; nobody outside the store gets in; axe-core finds nothing serious or
 * moderate on the sign-in page and the shell, at 1280 px and on a tablet.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeFindings } from './support/axe.ts';
import { chromiumForFile } from './support/file-chromium.ts';
import { createStaffAccount, openStudioAs } from './support/studio.ts';
import { testServer } from './support/test-server.ts';

const { baseUrl, adminKey } = testServer();
const STORE = 'demo-store';

const browser = chromiumForFile();

async function newPage(viewport = { width: 1280, height: 800 }): Promise<Page> {
  const context = await browser().newContext({ viewport, locale: 'en-GB' });
  return context.newPage();
}

/** Where the studio opens for a host or owner: the live show's Go live page, else Shows. */
async function openingUrl(): Promise<string> {
  const response = await fetch(`${baseUrl}/staff/stores/${STORE}/shows?group=live&limit=1`, {
    headers: { authorization: `Bearer ${adminKey}` },
  });
  const live = ((await response.json()) as { shows: { uid: string }[] }).shows[0];
  return `${baseUrl}/studio/${STORE}/${live ? `live/${encodeURIComponent(live.uid)}` : 'shows'}`;
}

/** The navigation's sections, once the layout (its own lazy code) has rendered. */
async function navLabels(page: Page): Promise<string[]> {
  await page.locator('.studio-nav a').first().waitFor();
  return page.locator('.studio-nav a').allTextContents();
}

describe('studio sign-in', () => {
  it('signs a staff member in with e-mail and password, and refuses a wrong password with a message', async () => {
    const { email, password } = await createStaffAccount(baseUrl, adminKey, STORE, 'host');
    const page = await newPage();
    await page.goto(`${baseUrl}/studio`);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect
      .poll(() => page.getByRole('alert').first().textContent())
      .toBe('Wrong e-mail address or password.');

    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // The studio opens on Live while a show is live (the demo's may be), else on Shows.
    await page.waitForURL(await openingUrl());
    // A host runs shows, products, the store's look and reads show analytics (without revenue), never money or staff.
    expect(await navLabels(page)).toEqual(['Shows', 'Go live', 'Products', 'Analytics', 'Settings']);
    await page.context().close();
  });

  it('shows field messages from the same schema as the server before sending anything', async () => {
    const page = await newPage();
    let signInCalls = 0;
    page.on('request', (request) => {
      if (request.url().includes('/signInWithPassword')) signInCalls++;
    });
    await page.goto(`${baseUrl}/studio`);
    await page.getByLabel('E-mail').fill('not-an-address');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect
      .poll(() => page.locator('.studio-field__error').first().textContent())
      .toBe('must be an e-mail address');
    expect(await page.getByLabel('E-mail').getAttribute('aria-invalid')).toBe('true');
    expect(signInCalls).toBe(0);
    await page.context().close();
  });
});

describe('the studio by role', () => {
  it('opens to an owner every section, to a moderator only shows', async () => {
    const owner = await newPage();
    await openStudioAs(owner, { baseUrl, adminKey, pageUid: STORE, role: 'owner' });
    expect(await navLabels(owner)).toEqual([
      'Shows',
      'Go live',
      'Products',
      'Orders',
      'Analytics',
      'Contacts',
      'E-mail',
      'Settings',
      'Staff',
      'Audit log',
    ]);
    await owner.context().close();

    const moderator = await newPage();
    await openStudioAs(moderator, { baseUrl, adminKey, pageUid: STORE, role: 'moderator' });
    expect(await navLabels(moderator)).toEqual(['Shows']);
    await moderator.context().close();
  });

  it("tells a member of one store that another store's studio is closed to them", async () => {
    const page = await newPage();
    await openStudioAs(page, { baseUrl, adminKey, pageUid: STORE, role: 'owner' });
    await page.goto(`${baseUrl}/studio/someone-elses-store/orders`);
    await expect.poll(() => page.locator('h1').textContent()).toBe('No access to this store');
    await page.context().close();
  });

  it('opens on the live show, and says "not found" for an address the studio does not have', async () => {
    // A show of the store live now: the studio opens on its Go live page (issue 33 item 13).
    const put = (path: string, body: object) =>
      fetch(`${baseUrl}${path}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${adminKey}` },
        body: JSON.stringify(body),
      });
    await put(`/admin/pages/${STORE}/campaigns/shell-live-e2e`, { name: 'Shell live test show' });
    const live = await put('/admin/events/shell-live-e2e-show', {
      pageUid: STORE,
      campaignId: 'shell-live-e2e',
      status: 'public',
      currentStatus: 'live',
      eventName: 'Shell live test show',
      eventStartTimestamp: Date.now(),
      liveStartTime: Date.now(),
    });
    expect(live.status).toBe(200);
    const page = await newPage();
    await openStudioAs(page, { baseUrl, adminKey, pageUid: STORE, role: 'owner', path: '' });
    await page.waitForURL(await openingUrl());
    expect(page.url()).toMatch(/\/live\/[^/]+$/);

    for (const path of ['no-such-section', 'orders/a/b/c', 'live/x/y']) {
      await page.goto(`${baseUrl}/studio/${STORE}/${path}`);
      await expect.poll(() => page.locator('h1').textContent(), { timeout: 15_000 }).toBe('Not found');
    }
    expect(await axeFindings(page)).toEqual([]);
    await page.getByRole('link', { name: 'Back to the studio' }).click();
    await page.waitForURL(await openingUrl());
    await page.context().close();
    await put('/admin/events/shell-live-e2e-show', {
      pageUid: STORE,
      campaignId: 'shell-live-e2e',
      status: 'public',
      currentStatus: 'vod',
      eventName: 'Shell live test show',
      eventStartTimestamp: Date.now(),
    });
  });

  it('signs out to the sign-in page', async () => {
    const page = await newPage();
    await openStudioAs(page, { baseUrl, adminKey, pageUid: STORE, role: 'host' });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Sign in to the studio');
    await page.context().close();
  });
});

describe('the account page', () => {
  it('replaces the password only with the current one, then signs in with the new one', async () => {
    const page = await newPage();
    const { email, password } = await openStudioAs(page, { baseUrl, adminKey, pageUid: STORE, role: 'host' });
    await page.locator('.studio-header__who').click();
    await page.waitForURL(`${baseUrl}/studio/account`);
    await page.getByLabel('New password').fill('a-fresh-studio-password');
    await page.getByRole('button', { name: 'Save password' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('The current password is not right.');
    await page.getByLabel('Current password').fill(password);
    await page.getByRole('button', { name: 'Save password' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toMatch(/password is saved/);
    expect(await axeFindings(page)).toEqual([]);

    const signIn = await fetch(`${baseUrl}/functions/auth/signInWithPassword`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'a-fresh-studio-password' }),
    });
    expect(signIn.status).toBe(200);
    await page.context().close();
  });
});

describe('axe-core on the studio shell', () => {
  it.each([
    ['desktop', { width: 1280, height: 800 }],
    ['tablet', { width: 820, height: 1180 }],
  ])(
    'finds no serious or moderate violation on the sign-in page and the shell (%s)',
    async (_name, viewport) => {
      const page = await newPage(viewport);
      await page.goto(`${baseUrl}/studio`);
      await page.waitForSelector('form.studio-card');
      expect(await axeFindings(page)).toEqual([]);
      await openStudioAs(page, { baseUrl, adminKey, pageUid: STORE, role: 'owner' });
      expect(await axeFindings(page)).toEqual([]);
      await page.context().close();
    },
  );
});
