import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTestOidcProvider,
  type TestOidcProvider,
} from '../apps/server/src/test-support/test-oidc-provider.ts';
import { launchChromium } from './support/browser.ts';
import { type RunningServer, SERVER_START_BOUND_MS, startServer } from './support/server-process.ts';

/**
 * Social sign-in in the player, end to end: a real OpenID Connect provider (`oidc-provider`,
 * with its development login and consent pages) and a server of our own configured with it.
 * The player opens the provider in a popup; the provider returns to /auth/callback, which hands
 * the URL back to the player.
 */

const LIVE_SHOW = '/widget/demo-store/demo-autumn-living';
let provider: TestOidcProvider;
let server: RunningServer;
let browser: Browser;
let dataDir: string;

beforeAll(async () => {
  provider = await startTestOidcProvider();
  dataDir = mkdtempSync(join(tmpdir(), 'vitrine-e2e-oidc-'));
  server = await startServer({
    VITRINE_DATA_DIR: dataDir,
    // Without a redirect URI the server sends the provider back to its own /auth/callback.
    VITRINE_OIDC_PROVIDERS: JSON.stringify([provider.providerConfig()]),
  });
  provider.addRedirectUris([`${server.url}/auth/callback`]);
  browser = await launchChromium();
}, SERVER_START_BOUND_MS + 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await provider?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function viewer(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
  const page = await context.newPage();
  await page.goto(`${server.url}${LIVE_SHOW}`);
  await page.locator('.player__tabs [role="tab"]', { hasText: /^Comments\d*$/ }).click();
  await page.waitForSelector('.chat-composer');
  // The player signs in anonymously by itself (spec §4).
  await page.waitForFunction(() => localStorage.getItem('vitrine-session') !== null);
  return page;
}

const session = (page: Page) =>
  page.evaluate(
    () =>
      JSON.parse(localStorage.getItem('vitrine-session') ?? 'null') as {
        user: { uid: string; name: string; isAnonymous: boolean };
      },
  );

/** Signs in at the test provider as `login` through the player's "Continue with Test ID" button. */
async function signInWithProvider(page: Page, login: string) {
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForSelector('dialog.account-dialog[open]');
  const popupOpened = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Continue with Test ID' }).click();
  const popup = await popupOpened;
  await popup.waitForSelector('input[name="login"]');
  await popup.fill('input[name="login"]', login);
  await popup.fill('input[name="password"]', 'any password');
  await popup.click('button[type="submit"]');
  // Then the consent page; the callback page closes the popup once it has handed the URL back.
  await popup.waitForSelector('button[type="submit"]');
  await Promise.all([popup.waitForEvent('close'), popup.click('button[type="submit"]')]);
  await page.waitForSelector('dialog.account-dialog', { state: 'detached' });
}

describe('social sign-in through OpenID Connect', () => {
  let first: { uid: string };

  it('upgrades the anonymous viewer with the identity from the provider', async () => {
    const page = await viewer();
    const anonymous = await session(page);
    await signInWithProvider(page, 'carol');
    const signedIn = await session(page);
    expect(signedIn.user.isAnonymous).toBe(false);
    // Upgraded in place: the same account, now with the provider's profile name.
    expect(signedIn.user.uid).toBe(anonymous.user.uid);
    await page.getByText('Chatting as Social carol').waitFor();
    first = signedIn.user;
  });

  it('signs in as the existing account when the identity is already in use (spec §8 retry)', async () => {
    const page = await viewer();
    const anonymous = await session(page);
    await signInWithProvider(page, 'carol');
    const signedIn = await session(page);
    expect(signedIn.user.isAnonymous).toBe(false);
    expect(signedIn.user.uid).toBe(first.uid);
    expect(signedIn.user.uid).not.toBe(anonymous.user.uid);
    await page.getByText('Chatting as Social carol').waitFor();
  });

  it("refuses an attacker's half-finished callback link opened in the victim's browser", async () => {
    // The attacker starts a sign-in himself (through the API, keeping the flow secret) and signs
    // in at the provider as himself in his own browser; its callback page finds no secret there,
    // so the flow stays unfinished and he sends the link on.
    const started = await fetch(`${server.url}/functions/auth/oidc/start`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ providerId: 'testid' }),
    });
    const { authorizationUrl, flowSecret } = (await started.json()) as {
      authorizationUrl: string;
      flowSecret: string;
    };
    const attackerContext = await browser.newContext();
    const attackerPage = await attackerContext.newPage();
    await attackerPage.goto(authorizationUrl);
    await attackerPage.fill('input[name="login"]', 'mallory');
    await attackerPage.fill('input[name="password"]', 'any password');
    await attackerPage.click('button[type="submit"]');
    await attackerPage.waitForSelector('button[type="submit"]');
    await attackerPage.click('button[type="submit"]');
    await attackerPage.waitForURL((url) => url.pathname === '/auth/callback');
    const callbackLink = attackerPage.url();
    await attackerContext.close();

    const victim = await viewer();
    const before = await session(victim);
    await victim.goto(callbackLink);
    await victim.getByText('Signing in did not work. Please try again.').waitFor();
    const after = await session(victim);
    expect(after.user).toEqual(before.user);
    expect(after.user.isAnonymous).toBe(true);
    await victim.context().close();

    // The link was not used up by the victim's browser: only the secret's holder finishes it.
    const finished = await fetch(`${server.url}/functions/auth/oidc/complete`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ callbackUrl: callbackLink, flowSecret }),
    });
    expect(finished.status).toBe(200);
    expect(((await finished.json()) as { user: { uid: string } }).user.uid).not.toBe(before.user.uid);
  });
});
