import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser.ts';
import { englishText as text } from './support/locale-texts.ts';
import { saveScreenshot } from './support/screenshots.ts';
import { adminCall, testServer } from './support/test-server.ts';

/**
 * What the player says around competitions and the end of a show (issue 13 §8), on a store of
 * its own so the demo store's shows stay as the other browser tests expect them.
 */
const { baseUrl } = testServer();
const PAGE = 'e2e-wording-store';
const LIVE = 'e2e-wording-live';
const ENDING = 'e2e-wording-ending';

const admin = (method: 'PUT' | 'POST' | 'PATCH', path: string, body: unknown) =>
  adminCall<{ uid?: string }>(method, path, body);

function liveShow(campaignId: string, eventName: string, currentStatus: 'live' | 'vod') {
  const start = Date.now() - 60_000;
  return {
    pageUid: PAGE,
    campaignId,
    currentStatus,
    eventName,
    eventStartTimestamp: start,
    liveStartTime: start,
    ...(currentStatus === 'vod' ? { liveEndTime: start + 60_000 } : {}),
    cdn: 'vitrine',
    cdnVideoStartTime: start,
    cdnMp4VideoUrl: '/demo-media/demo-show.mp4',
    coverPhotoPath: '/demo-media/cover-live.jpg',
  };
}

let browser: Browser;
const contexts: BrowserContext[] = [];
const pageErrors: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  await admin('PUT', `/admin/pages/${PAGE}`, { name: 'Wording Test Shop', language: 'en', currency: 'DKK' });
  for (const campaign of [LIVE, ENDING]) {
    await admin('PUT', `/admin/pages/${PAGE}/campaigns/${campaign}`, {
      name: campaign,
      deadline: Date.now() + 86_400_000,
    });
  }
  await admin('PUT', `/admin/events/${LIVE}`, liveShow(LIVE, 'Wording live show', 'live'));
});
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
});

async function viewer(path: string, viewport = { width: 1280, height: 800 }): Promise<Page> {
  const context = await browser.newContext({ viewport, locale: 'en-GB' });
  contexts.push(context);
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(`${baseUrl}${path}`);
  await page.waitForSelector('.player');
  return page;
}

async function enterName(page: Page, name: string) {
  await page.waitForSelector('dialog.account-dialog[open]');
  await page.fill('dialog.account-dialog input[name="name"]', name);
  await page.click('dialog.account-dialog .account-form__submit');
  await page.waitForSelector('dialog.account-dialog', { state: 'detached' });
}

const commentsTab = (page: Page) => page.locator('.player__tabs [role="tab"]', { hasText: /^Comments\d*$/ });

describe('competition wording (issue 13 §8)', () => {
  it('thanks a poll voter for voting and keeps the vote out of the public chat', async () => {
    const stamp = Date.now().toString(36);
    const poll = await admin('POST', `/staff/stores/${PAGE}/shows/${LIVE}/competitions`, {
      type: 'poll',
      name: `Which glaze? ${stamp}`,
      options: [
        { id: 'sand', text: `Sand ${stamp}` },
        { id: 'moss', text: `Moss ${stamp}` },
      ],
      openForParticipation: true,
      playing: true,
    });
    const watcher = await viewer(`/widget/${PAGE}/${LIVE}`);
    await commentsTab(watcher).click();
    await watcher.waitForSelector('.chat');

    const voter = await viewer(`/widget/${PAGE}/${LIVE}`);
    const overlay = voter.locator('.competition-overlay');
    await overlay.getByText(`Moss ${stamp}`).click();
    await overlay.getByRole('button', { name: text('interaction.competitions.participate.poll') }).click();
    await enterName(voter, 'Vera');
    await overlay.getByText(text('interaction.competitions.participated.poll')).waitFor();
    expect(await overlay.getByText(text('interaction.competitions.participated.raffle')).count()).toBe(0);
    await saveScreenshot(voter, 'poll-voted-desktop');

    // A comment the voter writes afterwards reaches the public chat; the vote before it did not.
    await commentsTab(voter).click();
    await voter.fill('.chat-composer__input', `After voting ${stamp}`);
    await voter.click('.chat-composer button[type="submit"]');
    await watcher.getByText(`After voting ${stamp}`).waitFor();
    expect(await watcher.locator('.comment-list').getByText(`Moss ${stamp}`).count()).toBe(0);
    // The host moves on: the next competition is the one on screen.
    await admin('PATCH', `/staff/stores/${PAGE}/shows/${LIVE}/competitions/${poll.uid}`, { playing: false });
  });

  it('stops offering "Join" once a raffle is drawn, and names the winner', async () => {
    const stamp = Date.now().toString(36);
    const raffle = await admin('POST', `/staff/stores/${PAGE}/shows/${LIVE}/competitions`, {
      type: 'raffle',
      name: `Win a vase ${stamp}`,
      openForParticipation: true,
      playing: true,
    });
    const late = await viewer(`/widget/${PAGE}/${LIVE}`);
    const lateOverlay = late.locator('.competition-overlay');
    await lateOverlay.getByText(`Win a vase ${stamp}`).waitFor();

    const entrant = await viewer(`/widget/${PAGE}/${LIVE}`);
    const overlay = entrant.locator('.competition-overlay');
    await overlay.getByRole('textbox').fill(`Pick me ${stamp}`);
    await overlay.getByRole('button', { name: text('interaction.competitions.participate.raffle') }).click();
    await enterName(entrant, 'Wilma');
    await overlay.getByText(text('interaction.competitions.participated.raffle')).waitFor();

    await admin('POST', `/staff/stores/${PAGE}/shows/${LIVE}/control-room/competitions/${raffle.uid}/draw`, {
      count: 1,
    });
    // The viewer who never joined: the overlay goes, and the list says it is drawn, without "Join".
    await lateOverlay.waitFor({ state: 'detached' });
    await late.getByRole('button', { name: new RegExp(text('interaction.competitions.button')) }).click();
    const card = late.locator('.competitions-panel .competition-card', { hasText: `Win a vase ${stamp}` });
    await card.getByText(text('interaction.competitions.drawn')).waitFor();
    await card.getByText('Wilma').waitFor();
    expect(
      await card.getByRole('button', { name: text('interaction.competitions.participate.raffle') }).count(),
    ).toBe(0);
    await saveScreenshot(late, 'raffle-drawn-desktop');
  });
});

describe('show-ended screen (issue 13 §8)', () => {
  it('tells a viewer who was there when the show ended that it ended, not that they missed it', async () => {
    await admin('PUT', `/admin/events/${ENDING}`, liveShow(ENDING, 'Ending show', 'live'));
    const there = await viewer(`/widget/${PAGE}/${ENDING}`);
    await there.waitForSelector('.player[data-show-state="live"]');
    await admin('PUT', `/admin/events/${ENDING}`, liveShow(ENDING, 'Ending show', 'vod'));
    await there.waitForSelector('.player[data-show-state="recorded"]');
    const cover = there.locator('.video-stage__overlay--cover');
    await cover.getByText(text('player.recordedCover.endedTitle')).waitFor();
    expect(await cover.getByText(text('player.recordedCover.title')).count()).toBe(0);
    await saveScreenshot(there, 'show-ended-desktop');

    // Someone who opens the recording afterwards did miss the live show.
    const later = await viewer(`/widget/${PAGE}/${ENDING}`);
    await later
      .locator('.video-stage__overlay--cover')
      .getByText(text('player.recordedCover.title'))
      .waitFor();

    const phone = await viewer(`/widget/${PAGE}/${LIVE}`, { width: 390, height: 844 });
    await admin('PUT', `/admin/events/${LIVE}`, liveShow(LIVE, 'Wording live show', 'vod'));
    await phone
      .locator('.video-stage__overlay--cover')
      .getByText(text('player.recordedCover.endedTitle'))
      .waitFor();
    await saveScreenshot(phone, 'show-ended-phone');
    expect(pageErrors).toEqual([]);
  });
});
