import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpTestServer } from '../apps/server/src/test-support/smtp-test-server.ts';
import { axeFindings } from './support/axe.ts';
import { launchChromium } from './support/browser.ts';
import { saveScreenshot } from './support/screenshots.ts';
import { type RunningServer, startServer } from './support/server-process.ts';

/**
 * A real shop's first run and an owner getting back in (issue 28 items 2 and 3): a fresh
 * database without the demo, the setup page from `/`, then recovery by e-mail through a real
 * SMTP server this test starts.
 */
const OWNER = { name: 'Ingrid Owner', email: 'ingrid@nordlys.example', password: 'first run passphrase 42' };
const NEW_PASSWORD = 'recovered passphrase 77';
const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;

const dataDir = mkdtempSync(join(tmpdir(), 'vitrine-first-run-'));
let smtp: Awaited<ReturnType<typeof startSmtpTestServer>>;
let server: RunningServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  smtp = await startSmtpTestServer();
  server = await startServer({
    VITRINE_DATA_DIR: dataDir,
    VITRINE_SEED_DEMO: '0',
    VITRINE_ADMIN_KEY: 'first-run-e2e-admin-key-0123456789abcdef',
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Nordlys Living <shop@nordlys.example>',
  });
  browser = await launchChromium();
}, 900_000);

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await server?.stop();
  await smtp?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A new browser with nothing stored: a person who is signed in nowhere (an ended session). */
async function freshPage(viewport: { width: number; height: number } = VIEWPORTS.desktop): Promise<Page> {
  const context = await browser.newContext({ viewport, locale: 'en-GB' });
  contexts.push(context);
  const page = await context.newPage();
  // Pages of the studio load their code and texts lazily: slow when the machine is busy.
  page.setDefaultTimeout(90_000);
  return page;
}

/** Screenshots of the page at desktop and phone size (saveScreenshot), and axe's serious findings (none expected). */
async function shootAndCheck(page: Page, name: string) {
  for (const [size, viewport] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(viewport);
    await saveScreenshot(page, `operator-${name}-${size}`, { fullPage: true });
  }
  await page.setViewportSize(VIEWPORTS.desktop);
  const serious = (await axeFindings(page)).filter(
    (finding) => finding.impact === 'serious' || finding.impact === 'critical',
  );
  expect(serious).toEqual([]);
}

/** The link of the next mail to arrive with `subject`. */
async function linkOfNextMail(subject: string, count: number): Promise<string> {
  const mails = await smtp.waitFor(count, 30_000);
  const mail = mails[count - 1];
  expect(mail?.subject).toBe(subject);
  expect(mail?.to).toEqual([OWNER.email]);
  const link = /(http\S+)/.exec(mail?.text ?? '')?.[1];
  if (!link) throw new Error(`no link in ${mail?.text}`);
  return link;
}

describe('first run of a real store', () => {
  it('prints a setup link (not a demo studio link) and leads from / through setup into the studio', async () => {
    const setupLink = /^\s+(http\S+\/setup#\S+)$/m.exec(server.output())?.[1];
    expect(setupLink, server.output()).toBeDefined();
    expect(server.output()).not.toContain('demo owner');

    // `/` without a store is the setup page; without the link's code, it asks for it.
    const page = await freshPage();
    await page.goto(`${server.url}/`);
    await page.waitForURL(`${server.url}/setup`);
    await page.getByRole('heading', { name: 'Set up your shop' }).waitFor();
    await page.getByLabel('Setup code').waitFor();

    // The printed link carries the code (opened from the terminal: a new page).
    const linked = await freshPage();
    await linked.goto(setupLink as string);
    await linked.getByLabel('Store name').fill('Nordlys Living');
    expect(await linked.getByLabel('Setup code').count()).toBe(0);
    await shootAndCheck(linked, 'setup');
    await linked.getByLabel('Your name').fill(OWNER.name);
    await linked.getByLabel('Your e-mail').fill(OWNER.email);
    await linked.getByLabel('Choose a password').fill(OWNER.password);
    await linked.getByRole('button', { name: 'Create the store' }).click();
    await linked.waitForURL(/\/studio\/nordlys-living(\/|$)/);
    await linked.getByText('Nordlys Living').first().waitFor();

    // The link is spent, and `/` is now the new store's shop.
    const again = await freshPage();
    await again.goto(setupLink as string);
    await again.getByRole('heading', { name: 'This shop is set up.' }).waitFor();
    await again.goto(`${server.url}/`);
    await again.getByText('Nordlys Living').first().waitFor();
    expect(new URL(again.url()).pathname).toBe('/');
  });
});

describe('an owner whose session ended gets back in by e-mail', () => {
  it('signs in with an e-mailed one-time link', async () => {
    const page = await freshPage();
    await page.goto(`${server.url}/studio`);
    await page.getByRole('heading', { name: 'Sign in to the studio' }).waitFor();
    const signInText = await page.locator('main').innerText();
    expect(signInText).not.toContain('`');
    expect(signInText).not.toMatch(/prints a one-time studio link/);
    await shootAndCheck(page, 'sign-in');

    // Asking without an address says what is missing.
    await page.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
    await page.getByText('Type your e-mail address first.').waitFor();

    await page.getByLabel('E-mail').fill(OWNER.email);
    await page.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
    await page
      .getByText('If an account has this address, a sign-in link is on its way.', { exact: false })
      .waitFor();
    const link = await linkOfNextMail('Your sign-in link', 1);
    expect(new URL(link).origin).toBe(server.url);

    await page.goto(link);
    await page.waitForURL(/\/studio\/nordlys-living(\/|$)/);
    await page.getByText('Nordlys Living').first().waitFor();

    // Once only.
    const second = await freshPage();
    await second.goto(link);
    await second.getByText('This sign-in link was already used or has expired.', { exact: false }).waitFor();
  });

  it('chooses a new password from an e-mailed reset link, then signs in with it', async () => {
    const page = await freshPage(VIEWPORTS.phone);
    await page.goto(`${server.url}/studio`);
    await page.getByLabel('E-mail').fill(OWNER.email);
    await page.getByRole('button', { name: 'Forgot password' }).click();
    await page.getByText('a link to choose a new password is on its way', { exact: false }).waitFor();
    const link = await linkOfNextMail('Reset your password', 2);
    expect(new URL(link).pathname).toBe('/studio/reset-password');

    await page.goto(link);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await shootAndCheck(page, 'reset-password');
    await page.getByLabel('New password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Save and sign in' }).click();
    await page.waitForURL(/\/studio\/nordlys-living(\/|$)/);

    const later = await freshPage();
    await later.goto(`${server.url}/studio`);
    await later.getByLabel('E-mail').fill(OWNER.email);
    await later.getByLabel('Password').fill(NEW_PASSWORD);
    await later.getByRole('button', { name: 'Sign in', exact: true }).click();
    await later.waitForURL(/\/studio\/nordlys-living(\/|$)/);
  });
});
