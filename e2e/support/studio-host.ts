import type { StaffRole } from '@vitrine/protocol';
import type { Browser, Page } from 'playwright-core';
import { englishPage, launchChromium } from './browser.ts';
import { createStaffAccount, openStudioAs } from './studio.ts';
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
  const { page } = await englishPage(browser, pageErrors);
  const hostToken = (await createStaffAccount(baseUrl, adminKey, store, 'host')).session.idToken;
  return { browser, page, hostToken };
}

/** Opens a show's control room in `page` (openStudioAs on this worker's server) as a new staff member in `role`. */
export function openControlRoomAs(
  page: Page,
  pageUid: string,
  showUid: string,
  role: StaffRole,
): Promise<{ email: string; password: string }> {
  const { baseUrl, adminKey } = testServer();
  return openStudioAs(page, { baseUrl, adminKey, pageUid, role, path: `shows/${showUid}/control-room` });
}
