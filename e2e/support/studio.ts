import type { AuthSession, StaffRole } from '@vitrine/protocol';
import type { Page } from 'playwright-core';

let accounts = 0;

async function post<T>(url: string, body: unknown, headers: Record<string, string> = {}): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`POST ${url}: ${response.status} ${await response.text()}`);
  return response.json() as Promise<T>;
}

/**
 * A new staff account of `pageUid` in `role`, made the way a real one is: the admin key invites
 * an e-mail, a visitor signs up with it and accepts the invitation's link. Answers the account's
 * session (as the studio keeps it) and its credentials.
 */
export async function createStaffAccount(
  baseUrl: string,
  adminKey: string,
  pageUid: string,
  role: StaffRole,
): Promise<{ session: AuthSession; email: string; password: string }> {
  const email = `staff-${++accounts}-${Date.now()}@e2e.example`;
  const password = 'studio-e2e-password-42';
  const { acceptUrl } = await post<{ acceptUrl: string }>(
    `${baseUrl}/staff/stores/${encodeURIComponent(pageUid)}/invitations`,
    { email, role },
    { authorization: `Bearer ${adminKey}` },
  );
  const anonymous = await post<AuthSession>(`${baseUrl}/functions/auth/signInAnonymously`, {});
  const session = await post<AuthSession>(
    `${baseUrl}/functions/auth/signUp`,
    { email, password, name: `E2E ${role}` },
    { authorization: `Bearer ${anonymous.idToken}` },
  );
  await post(
    `${baseUrl}/staff/invitations/accept`,
    { token: new URL(acceptUrl).hash.slice(1) },
    { authorization: `Bearer ${session.idToken}` },
  );
  return { session, email, password };
}

/**
 * Opens the studio in `page` as a new staff member of `pageUid` (see createStaffAccount): the
 * session is put where the web app keeps it before the first page loads.
 */
export async function openStudioAs(
  page: Page,
  options: { baseUrl: string; adminKey: string; pageUid: string; role: StaffRole; path?: string },
): Promise<{ email: string; password: string }> {
  const account = await createStaffAccount(options.baseUrl, options.adminKey, options.pageUid, options.role);
  // Only into an empty store: later loads keep the session the app has rotated since.
  await page.addInitScript((session) => {
    if (!localStorage.getItem('vitrine-session'))
      localStorage.setItem('vitrine-session', JSON.stringify(session));
  }, account.session);
  await page.goto(`${options.baseUrl}/studio/${encodeURIComponent(options.pageUid)}/${options.path ?? ''}`);
  // The section's own code loads after the layout: wait for its heading, not just the frame.
  await page.waitForSelector('.studio-nav');
  await page.locator('#studio-main h1').first().waitFor();
  return account;
}
