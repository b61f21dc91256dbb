import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './browser.ts';
import { createStaffAccount } from './studio.ts';
import { testServer } from './test-server.ts';

/**
 * The set-up of a file that works in the studio as a store's host at a desktop: a Chromium of the
 * file's own (with `chromiumFlags`), an English 1280×800 page whose uncaught errors go into
 * `pageErrors`, and a new host account of the store, whose session token calls the API as the host.
 */
export async function startStudioHost(
  store: string,
  pageErrors: string[],
  chromiumFlags: string[] = [],
): Promise<{ browser: Browser; page: Page; hostToken: string }> {
  const { baseUrl, adminKey } = testServer();
  const browser = await launchChromium(chromiumFlags);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  const hostToken = (await createStaffAccount(baseUrl, adminKey, store, 'host')).session.idToken;
  return { browser, page, hostToken };
}
