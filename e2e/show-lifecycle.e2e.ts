/**
 * A show's whole life, end to end, and the control room that listens (issue 33 §10): the owner
 * creates a show and its line-up in the studio, goes live from the control room with a real
 * encoder (ffmpeg over RTMP), a viewer watches, adds the presented product and pays (the test
 * payment provider); the room shows each of these without asking (no periodic control-room GET
 * while live, every update within a bound). The owner ends the show, the replay plays, and the
 * show's analytics count the viewer and the order, with gross and net revenue equal to the order's.
 */
import { formatMoney } from '@vitrine/domain';
import type { AuthSession, CheckoutView, LiveEvent, Show, ShowAnalytics } from '@vitrine/protocol';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../apps/server/src/test-support/live-publisher.ts';
import { launchChromium } from './support/browser.ts';
import { publishToShow, type TestPublisher } from './support/live-show.ts';
import { webLocale } from './support/locale-texts.ts';
import { saveScreenshot } from './support/screenshots.ts';
import { checkoutOfViewer, fillCheckoutDetails, payWithTestCard } from './support/shopper-api.ts';
import { openStudioAs } from './support/studio.ts';
import { adminCall, bearerCall, testServer } from './support/test-server.ts';
import { playsPastOneSecond } from './support/video-playback.ts';

const { baseUrl, adminKey } = testServer();
const STORE = 'demo-store';
// Products of this test's own, so no other test's orders count in its show.
const LAMP = 'lifecycle-e2e-lamp';
const RUG = 'lifecycle-e2e-rug';
const LAMP_PRICE = 39_900;
/** A change reaches the control room within this: a push after the server's 1 s tick, on a busy machine. */
const ROOM_UPDATE_BOUND_MS = 6_000;
/** A window with nothing happening, in which a polling room would ask several times. */
const QUIET_WINDOW_MS = 6_000;
const WAIT = { timeout: 30_000 };

const roomTexts = webLocale('studio-control-room/en') as {
  actions: { goLive: string; end: string; endConfirm: string };
};
const en = webLocale('en') as { player: { addToCart: string } };

let browser: Browser;
const contexts: BrowserContext[] = [];
const pageErrors: string[] = [];
let owner: Page;
let ownerToken = '';
let publisher: TestPublisher | undefined;

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
  contexts.push(context);
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
  return page;
}

const sessionOf = (page: Page) =>
  page.evaluate(() => JSON.parse(localStorage.getItem('vitrine-session') ?? 'null') as AuthSession | null);

/**
 * Records in the page, on the machine's clock, when each of the room's figures changes, so the
 * delay measured is the page's, not this runner's polling.
 */
async function watchFigures(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: Record<string, { text: string; at: number }[]> = {};
    (window as unknown as { figureChanges: typeof seen }).figureChanges = seen;
    const note = () => {
      for (const figure of document.querySelectorAll<HTMLElement>('[data-figure]')) {
        const name = figure.dataset.figure ?? '';
        const text = figure.querySelector('dd')?.textContent ?? '';
        const list = seen[name] ?? [];
        seen[name] = list;
        if (list.at(-1)?.text !== text) list.push({ text, at: Date.now() });
      }
    };
    note();
    new MutationObserver(note).observe(document.body, {
      childList: true,
      subtree: true,
      characterData: true,
    });
  });
}

/** Waits until the room's figure `name` reads `text`; answers how long after `since` the page showed it. */
async function figureShows(page: Page, name: string, text: string, since: number): Promise<number> {
  const at = await page.waitForFunction(
    ([figure, wanted]) =>
      (window as unknown as { figureChanges: Record<string, { text: string; at: number }[]> }).figureChanges[
        figure as string
      ]?.find((change) => change.text.includes(wanted as string))?.at,
    [name, text],
    { timeout: ROOM_UPDATE_BOUND_MS + 10_000 },
  );
  return Number(await at.jsonValue()) - since;
}

/** Pays the viewer's cart through the checkout API with the test card, as the analytics test does. */
async function buy(page: Page, campaignUid: string): Promise<{ order: CheckoutView; approvedAt: number }> {
  const { token, ref } = await checkoutOfViewer(page, STORE, campaignUid);
  await fillCheckoutDetails(token, ref, {
    name: 'Lifecycle Buyer',
    emailAddress: 'lifecycle-buyer@example.com',
  });
  return payWithTestCard(token, ref, WAIT.timeout);
}

beforeAll(async () => {
  browser = await launchChromium(['--autoplay-policy=no-user-gesture-required']);
  for (const [uid, name, price] of [
    [LAMP, 'Lifecycle lamp', LAMP_PRICE],
    [RUG, 'Lifecycle rug', 59_900],
  ] as const) {
    await adminCall('PUT', `/staff/stores/${STORE}/products/${uid}`, {
      name,
      sku: uid.toUpperCase(),
      prices: { DKK: price, EUR: Math.round(price / 7.46) },
      stock: 50,
    });
  }
  owner = await newPage();
  await openStudioAs(owner, { baseUrl, adminKey, pageUid: STORE, role: 'owner', path: 'shows' });
  const session = await sessionOf(owner);
  if (!session) throw new Error('the studio has no session');
  ownerToken = session.idToken;
});

afterAll(async () => {
  publisher?.kill('SIGKILL');
  for (const context of contexts) await context.close();
  await browser?.close();
});

describe('a show from creation to its analytics', () => {
  it('goes live, sells, ends into a replay and adds up, the control room listening throughout', async () => {
    // The owner schedules the show and its line-up (the studio's calls, as its show page makes them).
    const startsAt = new Intl.DateTimeFormat('sv-SE', {
      timeZone: 'Europe/Copenhagen',
      dateStyle: 'short',
      timeStyle: 'short',
    })
      .format(new Date(Date.now() + 5 * 60_000))
      .replace(' ', 'T');
    const show = await bearerCall<Show>(ownerToken, 'POST', `/staff/stores/${STORE}/shows`, {
      name: `Lifecycle e2e ${Date.now()}`,
      startsAt,
      timeZone: 'Europe/Copenhagen',
      visibility: 'public',
    });
    await bearerCall(ownerToken, 'PUT', `/staff/stores/${STORE}/shows/${show.uid}/lineup`, {
      productUids: [LAMP, RUG],
    });
    const showPath = `/staff/stores/${STORE}/shows/${show.uid}`;

    // The control room, with every request it makes recorded.
    const roomRequests: { at: number; method: string; path: string }[] = [];
    owner.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path.startsWith(showPath)) roomRequests.push({ at: Date.now(), method: request.method(), path });
    });
    await owner.goto(`${baseUrl}/studio/${STORE}/shows/${show.uid}/control-room`);
    const stateOf = () => owner.locator('.room-status .live-state').getAttribute('data-state');
    await expect.poll(stateOf, WAIT).toBe('idle');

    // A real encoder publishes: the room hears the stream arrive and the owner goes live from it.
    publisher = await publishToShow(ownerToken, STORE, show.uid);
    await expect.poll(stateOf, { timeout: 45_000 }).toBe('receiving');
    await owner.getByRole('button', { name: roomTexts.actions.goLive }).click();
    await expect.poll(stateOf, WAIT).toBe('live');
    const liveFrom = Date.now();
    await owner.locator('[data-figure="viewers"]').waitFor(WAIT);
    await watchFigures(owner);

    // The owner presents the lamp (key 1: the rail's first product).
    await owner.locator('body').press('1');
    // (The rail names a product by its uid in the show, not the catalogue's.)
    await owner.locator('[data-presented="true"]', { hasText: 'Lifecycle lamp' }).waitFor(WAIT);

    // A viewer watches the live show: the room counts them.
    const viewer = await newPage();
    await viewer.goto(`${baseUrl}/widget/${STORE}/campaign/${show.campaignUid}/event/${show.uid}`);
    await viewer.waitForSelector('.player[data-show-state="live"]', WAIT);
    const opened = Date.now();
    await playsPastOneSecond(viewer, 45_000);
    // The player follows the show's products as soon as it shows: from then on it counts (the
    // count may be there already: a negative delay).
    const viewersAfterMs = await figureShows(owner, 'viewers', '1', opened);

    // The viewer adds the presented lamp: the room's adds follow.
    await viewer.locator('.player__panel .product-card', { hasText: 'Lifecycle lamp' }).first().click();
    const added = viewer.waitForResponse((response) => response.url().endsWith('/shopapiv2/cart/addSingle'));
    const addAt = Date.now();
    await viewer.locator('.product-details').getByRole('button', { name: en.player.addToCart }).click();
    expect((await added).status()).toBe(200);
    const addsAfterMs = await figureShows(owner, 'adds', '1', addAt);

    // The viewer pays: the room shows the order and its revenue (the items, as the room counts it).
    const { order, approvedAt } = await buy(viewer, show.campaignUid);
    const ordersAfterMs = await figureShows(owner, 'orders', '1', approvedAt);
    const revenueAfterMs = await figureShows(
      owner,
      'revenue',
      formatMoney(order.subtotal, order.currency, 'en'),
      approvedAt,
    );

    // Nothing happens for a while: a listening room asks nothing (a polling one asked every second).
    const quietFrom = Date.now();
    await owner.waitForTimeout(QUIET_WINDOW_MS);
    const quietRequests = roomRequests.filter((request) => request.at >= quietFrom);
    const liveRequests = roomRequests.filter((request) => request.at >= liveFrom);
    const statsGets = liveRequests.filter((request) => request.path.endsWith('/control-room/stats'));
    console.log(
      JSON.stringify({
        lifecycleRoomUpdateMs: {
          viewersAfterPlayerOpened: viewersAfterMs,
          addsAfterClick: addsAfterMs,
          ordersAfterPaymentApproved: ordersAfterMs,
          revenueAfterPaymentApproved: revenueAfterMs,
        },
        lifecycleRoomRequestsWhileLive: liveRequests.map((request) => `${request.method} ${request.path}`),
        lifecycleRoomLiveSeconds: Math.round((Date.now() - liveFrom) / 1000),
      }),
    );
    expect(statsGets).toEqual([]);
    expect(quietRequests).toEqual([]);
    expect(viewersAfterMs).toBeLessThanOrEqual(ROOM_UPDATE_BOUND_MS);
    expect(addsAfterMs).toBeLessThanOrEqual(ROOM_UPDATE_BOUND_MS);
    expect(ordersAfterMs).toBeLessThanOrEqual(ROOM_UPDATE_BOUND_MS);
    await saveScreenshot(owner, 'lifecycle-control-room-live', { fullPage: true });

    // The owner ends the show; the recording becomes the replay, which plays.
    await owner.getByRole('button', { name: roomTexts.actions.end }).click();
    await owner.getByRole('dialog').getByRole('button', { name: roomTexts.actions.endConfirm }).click();
    await expect.poll(stateOf, WAIT).toBe('ended');
    publisher.kill('SIGINT');
    await waitFor(
      'the replay',
      async () => {
        const [current] = await adminCall<LiveEvent[]>('POST', '/reads/liveEvents.byId', {
          ids: [show.uid],
        });
        return current?.event.currentStatus === 'vod' ? current : null;
      },
      30_000,
    );
    await viewer.reload();
    await viewer.waitForSelector('.player', WAIT);
    await viewer.evaluate(async () => {
      const video = document.querySelector('video') as HTMLVideoElement;
      video.muted = true;
      await video.play().catch(() => {});
    });
    await playsPastOneSecond(viewer, 45_000);

    // The show's analytics: the viewer, the order paid, and revenue equal to the order's.
    let report: ShowAnalytics | undefined;
    await expect
      .poll(
        async () => {
          await bearerCall(ownerToken, 'POST', `/staff/stores/${STORE}/analytics/refresh`);
          report = await bearerCall<ShowAnalytics>(
            ownerToken,
            'GET',
            `/staff/stores/${STORE}/analytics/shows/${show.uid}`,
          );
          return [report.totals.uniqueViewers, report.totals.orders, report.totals.paidOrders];
        },
        { timeout: 60_000, interval: 1_000 },
      )
      .toEqual([1, 1, 1]);
    if (!report) throw new Error('no report');
    expect(report.totals.liveViewers).toBe(1);
    expect(report.totals.adds).toBe(1);
    expect(report.totals.revenue).toEqual([{ currency: order.currency, amount: order.subtotal }]);
    expect(report.totals.revenueBreakdown).toEqual([
      {
        currency: order.currency,
        items: order.subtotal,
        freight: order.freight,
        gross: order.subtotal + order.freight,
        refunds: 0,
        net: order.subtotal + order.freight,
        netWithoutFreight: order.subtotal,
      },
    ]);
    expect(order.totalPrice).toBe(order.subtotal + order.freight);
    expect(order.subtotal).toBe(LAMP_PRICE);

    // The owner's report page says the same.
    await owner.goto(`${baseUrl}/studio/${STORE}/analytics/shows/${show.uid}`);
    const totals = owner.locator('[data-testid="analytics-totals"]');
    await totals.waitFor(WAIT);
    const totalsText = (await totals.textContent()) ?? '';
    expect(totalsText).toContain('Unique viewers1');
    expect(totalsText).toContain('Orders1');
    const revenueRow = owner.locator('[data-testid="analytics-revenue"] tbody tr');
    await revenueRow.first().waitFor(WAIT);
    const cells = await revenueRow.first().locator('td').allTextContents();
    // Columns: items, freight, gross, refunds, net, net without freight (amounts with two decimals).
    const digits = cells.map((cell) => Number(cell.replace(/\D/g, '')));
    expect(digits).toEqual([
      order.subtotal,
      order.freight,
      order.totalPrice,
      0,
      order.totalPrice,
      order.subtotal,
    ]);
    await saveScreenshot(owner, 'lifecycle-analytics-report', { fullPage: true });
    expect(pageErrors).toEqual([]);
  });
});
