/**
 * Mail delivery in the studio's settings (issue 33 item 9): an owner sees that mail is sent and
 * through which server, sends a test mail that reaches the SMTP server (a real one, the test
 * server's), and axe-core finds nothing serious or moderate in the card on a desktop and a
 * phone. A host's settings have no such card. Screenshots go to VITRINE_SHOTS_DIR when set.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeFindings } from './support/axe.ts';
import { launchChromium } from './support/browser.ts';
import { saveScreenshot } from './support/screenshots.ts';
import { openStudioAs } from './support/studio.ts';
import { adminCall, testServer } from './support/test-server.ts';

const { baseUrl, adminKey, mailDir } = testServer();
const STORE = `e2e-mail-${Date.now().toString(36)}`;

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
  await adminCall('PUT', `/admin/pages/${STORE}`, {
    name: 'Mail Test Shop',
    language: 'en',
    currency: 'DKK',
  });
});
afterAll(async () => {
  await browser?.close();
});

async function newPage(viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ viewport, locale: 'en-GB' });
  return context.newPage();
}

/** The test mails the test SMTP server received for `to` (its invitation came there too). */
const testMailsTo = (to: string) =>
  readdirSync(mailDir)
    .map((name) => readFileSync(join(mailDir, name), 'utf8'))
    .filter((raw) => raw.includes(`To: ${to}`) && raw.includes('Subject: Test mail from Mail Test Shop'));

describe('mail delivery in the settings', () => {
  it.each([
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 390, height: 844 }],
  ])('shows the SMTP server, sends a test mail to the owner, and passes axe (%s)', async (name, viewport) => {
    const page = await newPage(viewport);
    const { email } = await openStudioAs(page, {
      baseUrl,
      adminKey,
      pageUid: STORE,
      role: 'owner',
      path: 'settings',
    });
    const card = page.locator('#mail');
    await card.getByTestId('mail-transport').waitFor();
    expect(await card.getByTestId('mail-transport').textContent()).toMatch(
      /Mail is sent through the SMTP server smtp:\/\/127\.0\.0\.1:\d+\./,
    );
    expect(await card.getByText('SMTP_URL', { exact: true }).count()).toBe(1);
    expect(await card.getByText('No undelivered mails.').count()).toBe(1);

    await card.getByRole('button', { name: 'Send test mail' }).click();
    await expect
      .poll(() => card.getByRole('status').first().textContent())
      .toBe(`Test mail delivered to ${email}.`);
    await expect.poll(() => testMailsTo(email).length).toBe(1);

    await card.scrollIntoViewIfNeeded();
    await saveScreenshot(card, `mail-delivery-${name}`);
    expect(await axeFindings(page)).toEqual([]);
    await page.context().close();
  });

  it('is not in a host’s settings', async () => {
    const page = await newPage({ width: 1280, height: 800 });
    await openStudioAs(page, { baseUrl, adminKey, pageUid: STORE, role: 'host', path: 'settings' });
    await page.waitForSelector('#time-zone');
    expect(await page.locator('#mail').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Mail', exact: true }).count()).toBe(0);
    await page.context().close();
  });
});
