// The chat panel in Chromium against the real server (spec §4 "Comments"): it shows the show's
// comments with their authors, sends the viewer's own, and says so when the server refuses one.
import { COMMENT_RATE_LIMIT } from '@vitrine/protocol';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { englishPage } from './support/browser.ts';
import { chromiumForFile } from './support/file-chromium.ts';
import { shopperCall, signInAnonymously } from './support/shopper-api.ts';
import { testServer } from './support/test-server.ts';

const { baseUrl } = testServer();
const PAGE = 'demo-store';
/** The demo's live show: comments are open. */
const CAMPAIGN = 'demo-autumn-living';
const WAIT = { timeout: 30_000 };

const browser = chromiumForFile();
const pageErrors: string[] = [];

afterAll(async () => {
  expect(pageErrors).toEqual([]);
});

/** Types a comment into the composer and sends it. */
async function send(page: Page, text: string) {
  await page.fill('.chat-composer__input', text);
  await page.click('.chat-composer button[type="submit"]');
}

describe('the chat panel', () => {
  it('renders the comments, sends one, and shows the refusal when the server refuses one', async () => {
    const stamp = Date.now().toString(36);
    // Another viewer, named, has already commented (through the API).
    const other = await signInAnonymously();
    await shopperCall(
      '/functions/customerpage/updateUser',
      { customerUid: other.user.uid, updates: { name: 'Greta' } },
      other.idToken,
    );
    const theirs = `Is the scarf pure wool? ${stamp}`;
    await shopperCall(
      '/shopapiv2/comment/playerComment',
      { text: theirs, pageUid: PAGE, campaignUid: CAMPAIGN },
      other.idToken,
    );

    const { context, page } = await englishPage(browser(), pageErrors);
    await page.goto(`${baseUrl}/widget/${PAGE}/${CAMPAIGN}`);
    await page.locator('.player__tabs [role="tab"]', { hasText: /^Comments\d*$/ }).click();
    await page.locator('.chat').waitFor(WAIT);

    // Renders the comments: the other viewer's, with its author, not as the viewer's own.
    const theirComment = page.locator('.comment', { hasText: theirs });
    await theirComment.waitFor(WAIT);
    expect(await theirComment.locator('.comment__author').textContent()).toBe('Greta');
    expect(await theirComment.getAttribute('data-own')).toBeNull();

    // Sends one: an anonymous viewer gives a name first, then the comment shows as their own.
    const mine = `Ordering the mug now ${stamp}`;
    await send(page, mine);
    await page.locator('dialog.account-dialog input[name="name"]').fill('Ola');
    await page.click('dialog.account-dialog .account-form__submit');
    const myComment = page.locator('.comment[data-own]', { hasText: mine });
    await myComment.waitFor(WAIT);
    expect(await myComment.locator('.comment__author').textContent()).toBe('Ola');
    expect(await page.inputValue('.chat-composer__input')).toBe('');

    // The server takes COMMENT_RATE_LIMIT comments a window from one viewer and refuses the next:
    // the panel says why and keeps the refused text for later. Each send waits for its answer.
    const problem = page.locator('.chat-problem');
    let refusedText: string | null = null;
    for (let index = 1; index <= COMMENT_RATE_LIMIT + 5 && refusedText === null; index++) {
      const text = `Quick question ${index} ${stamp}`;
      await send(page, text);
      const accepted = page.locator('.comment[data-own]', { hasText: text });
      await accepted.or(problem).first().waitFor(WAIT);
      if (await problem.isVisible()) refusedText = text;
    }
    expect(refusedText).not.toBeNull();
    expect(await problem.textContent()).toContain('You are commenting too fast');
    expect(await page.inputValue('.chat-composer__input')).toBe(refusedText);
    await context.close();
  });
});
