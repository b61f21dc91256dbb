import { utcToZonedLocal } from '@vitrine/domain';
import type { Show } from '@vitrine/protocol';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeFindings } from './support/axe.ts';
import { englishPage, launchChromium } from './support/browser.ts';
import { webLocale } from './support/locale-texts.ts';
import { saveScreenshot } from './support/screenshots.ts';
import { createStaffAccount } from './support/studio.ts';
import { testServer } from './support/test-server.ts';

// Issue 14 item 4, as a retailer's host would: sign in to the studio, schedule a show with three
// products from the catalogue (reordered by keyboard drag), publish it after confirming, and find
// it on the storefront, which never showed it while it was a draft.

const { baseUrl, adminKey } = testServer();
const STORE = 'demo-store';
const ZONE = 'Europe/Copenhagen';
const HOUR = 3_600_000;

const texts = webLocale('studio-shows/en') as {
  list: { new: string };
  editor: { create: string; preview: string; newTitle: string };
  fields: { name: string; startsAt: string; timeZone: string };
  publish: { button: string; confirm: string };
  unpublish: { button: string };
  lineup: { add: string; a11y: { over: string; dropped: string } };
};

async function post<T>(path: string, body: unknown, bearer?: string): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
    body: JSON.stringify(body),
  });
  expect(response.status, `${path}: ${await response.clone().text()}`).toBeLessThan(300);
  return (await response.json()) as T;
}

async function shopShowNames(): Promise<string[]> {
  const events = await post<Record<'live' | 'planned' | 'vod', Array<{ event: { eventName: string } }>>>(
    '/reads/liveEvents.shop',
    { pageUid: STORE },
  );
  return [...events.live, ...events.planned, ...events.vod].map((event) => event.event.eventName);
}

let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  ({ page } = await englishPage(browser, pageErrors, { width: 1280, height: 900 }));
});

afterAll(async () => {
  await browser?.close();
});

describe('scheduling a show in the studio', () => {
  it('schedules a show with three products, publishes it and the storefront shows it', async () => {
    // A host of the demo store (invited by the admin key and accepted), signing in with the form.
    const host = await createStaffAccount(baseUrl, adminKey, STORE, 'host');
    await page.goto(`${baseUrl}/studio`);
    await page.getByLabel('E-mail').fill(host.email);
    await page.getByLabel('Password').fill(host.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/studio\//);

    await page.goto(`${baseUrl}/studio/${STORE}/shows`);
    await page.getByRole('link', { name: texts.list.new }).click();
    // The list's own search field is labelled "Search by name": fill the form once it is there.
    await page.getByRole('heading', { name: texts.editor.newTitle }).waitFor();
    const name = `Studio e2e show ${Date.now()}`;
    const start = Math.ceil((Date.now() + 2 * HOUR) / 60_000) * 60_000;
    await page.getByLabel(texts.fields.name, { exact: true }).fill(name);
    await page.getByLabel(texts.fields.timeZone).fill(ZONE);
    await page.getByLabel(texts.fields.startsAt).fill(utcToZonedLocal(start, ZONE));
    await page.getByRole('button', { name: texts.editor.create }).click();
    await page.waitForURL(/\/shows\/[A-Za-z0-9_-]{10,}$/);
    const showUid = page.url().split('/').at(-1) as string;

    // Three products from the catalogue, then the third moved to the top with the keyboard.
    const results = page.locator('.shows-picker__result');
    const lineup = page.locator('.shows-lineup__item .shows-lineup__name');
    for (let count = 1; count <= 3; count++) {
      await results.first().getByRole('button', { name: texts.lineup.add }).click();
      await expect.poll(() => lineup.count()).toBe(count);
    }
    const saved = () => page.locator('.shows-lineup[aria-busy="false"]').waitFor();
    await saved();
    const picked = await lineup.allInnerTexts();
    // One place up at a time (dnd-kit's keyboard sensor: space picks up, arrows move, space drops).
    // dnd-kit's live region says what happened: wait for each step before the next key.
    const said = (text: string) =>
      page.locator('[id^="DndLiveRegion"]').filter({ hasText: text }).waitFor({ state: 'attached' });
    const moveUp = async (index: number) => {
      const name = firstLine(await lineup.nth(index).innerText()) as string;
      await page.locator('.shows-lineup__handle').nth(index).focus();
      await page.keyboard.press('Space');
      // Picked up (its announcement is at once replaced by "over its own place").
      await page.locator('.shows-lineup__item--dragging').waitFor();
      await page.keyboard.press('ArrowUp');
      await said(fill(texts.lineup.a11y.over, { name, position: index }));
      await page.keyboard.press('Space');
      await said(fill(texts.lineup.a11y.dropped, { name, position: index }));
      await saved();
    };
    await moveUp(2);
    await expect.poll(() => lineup.allInnerTexts()).toEqual([picked[0], picked[2], picked[1]]);
    await moveUp(1);
    const reordered = [picked[2], picked[0], picked[1]];
    await expect.poll(() => lineup.allInnerTexts()).toEqual(reordered);

    // Saved in that order, at the wall-clock time given in the store's zone; still a draft.
    const show = await studioRead<Show>(`/staff/stores/${STORE}/shows/${showUid}`);
    expect(show).toMatchObject({
      name,
      startsAt: start,
      timeZone: ZONE,
      visibility: 'draft',
      productCount: 3,
    });
    expect(show.lineup.map((item) => item.name)).toEqual(reordered.map(firstLine));
    expect(await shopShowNames()).not.toContain(name);
    expect((await fetch(`${baseUrl}/calendar/${showUid}/show.ics`)).status).toBe(404);

    await expectNoViolations(page, 'show editor');
    await page.getByRole('button', { name: texts.publish.button }).click();
    await page.locator('dialog[open]').getByRole('button', { name: texts.publish.confirm }).click();
    await page.getByRole('button', { name: texts.unpublish.button }).waitFor();
    await expect.poll(shopShowNames).toContain(name);

    await page.getByRole('link', { name: texts.editor.preview }).click();
    // The editor has a heading of that name too: the preview is there once the address is its own.
    await page.waitForURL(/\/preview$/);
    await page.getByRole('heading', { name }).waitFor();
    await expectNoViolations(page, 'show preview');
    await page.goto(`${baseUrl}/studio/${STORE}/shows`);
    await page.getByRole('link', { name }).waitFor();
    await expectNoViolations(page, 'show list');

    const calendar = await fetch(`${baseUrl}/calendar/${showUid}/show.ics`);
    expect(calendar.status).toBe(200);
    expect(await calendar.text()).toContain(`SUMMARY:${name}\r\n`);

    // On the storefront: the store's page lists it with the upcoming shows, and its link plays it.
    const storefront = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await storefront.goto(`${baseUrl}/widget/${STORE}`);
    await storefront.getByText(name).first().waitFor();
    await storefront.goto(show.links.storefrontUrl);
    await storefront.getByText(name).first().waitFor();
    await saveScreenshot(storefront, 'shows-storefront');
    await storefront.close();
    expect(pageErrors).toEqual([]);
  });
});

/** axe-core finds nothing of impact moderate or worse on the page as it is now. */
async function expectNoViolations(target: Page, screen: string): Promise<void> {
  const findings = await axeFindings(target);
  expect(findings, `${screen}: ${JSON.stringify(findings, null, 1)}`).toEqual([]);
}

/** A text of the locale file with its {{placeholders}} filled. */
const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_match, key: string) => String(values[key]));

const firstLine = (text: string | undefined) => (text ?? '').split('\n')[0]?.split(' · ')[0]?.trim();

/** A GET studio call with the admin key (automation acts as an owner of every store). */
async function studioRead<T>(path: string): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${adminKey}` } });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}
