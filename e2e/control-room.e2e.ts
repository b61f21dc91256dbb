import {
  broadcastDelayMs,
  formatMoney,
  streamClockCueTime,
  WINNER_NOTIFICATION_EXTRA_DELAY_MS,
} from '@vitrine/domain';
import type {
  CheckoutView,
  CompetitionAdminView,
  ControlRoom,
  ControlRoomStats,
  LiveEvent,
  StaffRole,
} from '@vitrine/protocol';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../apps/server/src/test-support/live-publisher.ts';
import { dayAhead, plannedNow, putCampaignShow } from './support/admin-shows.ts';
import { axeFindings } from './support/axe.ts';
import { launchChromium } from './support/browser.ts';
import { publishToShow, type TestPublisher } from './support/live-show.ts';
import { webLocale } from './support/locale-texts.ts';
import { saveScreenshot } from './support/screenshots.ts';
import {
  clickToRemoval,
  frameErrorOf,
  lateOnFrames,
  recordSocketArrivals,
  sighting,
  steadyDelay,
  streamClockError,
  watchFor,
} from './support/stream-sightings.ts';
import { openControlRoomAs } from './support/studio-host.ts';
import { adminCall, bearerCall, testServer } from './support/test-server.ts';
import { playsPastOneSecond } from './support/video-playback.ts';

// Issue 16 items 1 to 6, with three browsers on a show fed by ffmpeg over RTMP: the host (an owner)
// runs the control room, a moderator works beside them, a viewer watches the player. A second
// viewer (a fourth browser profile) writes the comments the moderator hides and is banned.

const { baseUrl } = testServer();
const PAGE = 'demo-store';
const CAMPAIGN = 'e2e-control-room';
const SHOW = 'e2e-control-room-show';
const MUG = 'nordlys-ceramic-mug';
const BOARD = 'nordlys-oak-board';
/** How far off the stamped moment a presented product may appear (as the live player's own test allows). */
const CUE_TOLERANCE_MS = 250;
/** Issue 16: every action reaches viewers within a second. */
const ACTION_TO_VIEWER_MS = 1000;
/** Spec wording of the banned viewer's chat (locales/interaction). */
const BANNED_MESSAGE = "You can't comment: the store's moderators have banned you from its chat.";

const room = webLocale('studio-control-room/en') as {
  page: { title: string };
  actions: { goLive: string; end: string; endConfirm: string };
  competitions: { openAction: string; close: string; draw: string };
};
const moderation = webLocale('studio-moderation/en') as {
  actions: { hide: string; ban: string };
};
const en = webLocale('en') as {
  player: { addToCart: string; tabs: { video: string } };
};
const interaction = webLocale('interaction/en') as {
  interaction: { competitions: { participate: { raffle: string }; participated: { raffle: string } } };
};

let browser: Browser;
const contexts: BrowserContext[] = [];
let host: Page;
let moderator: Page;
let viewer: Page;
let troll: Page;
let moderatorToken = '';
let hostToken = '';
let publisher: TestPublisher | undefined;
const pageErrors: string[] = [];

async function api<T>(token: string, method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json().catch(() => null)) as T };
}

async function newPage(viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ viewport, locale: 'en-GB' });
  contexts.push(context);
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return page;
}

/** The viewer's id token, as their player keeps it. */
const sessionToken = (page: Page) =>
  page.evaluate(() => JSON.parse(localStorage.getItem('vitrine-session') ?? '{}').idToken as string);

/** Writes a comment in the player's chat (the first one signs in with `name`); answers its uid. */
async function commentInPlayer(page: Page, text: string, name: string): Promise<string> {
  await page.fill('.chat-composer__input', text);
  await page.click('.chat-composer button[type="submit"]');
  const dialog = page.locator('dialog.account-dialog[open]');
  const posted = page.locator('.chat .comment', { hasText: text });
  await dialog.or(posted).first().waitFor({ timeout: 10_000 });
  if (await dialog.isVisible()) {
    await dialog.locator('input[name="name"]').fill(name);
    await dialog.locator('.account-form__submit').click();
  }
  await posted.waitFor({ timeout: 10_000 });
  const uid = await posted.getAttribute('data-comment-uid');
  if (!uid) throw new Error(`no uid on the comment "${text}"`);
  return uid;
}

/** Opens the show's control room in `page` as a new staff member in `role`; answers their session token. */
async function openRoomAs(page: Page, role: StaffRole): Promise<string> {
  await openControlRoomAs(page, PAGE, SHOW, role);
  return sessionToken(page);
}

const ROOM_PATH = `/staff/stores/${PAGE}/shows/${SHOW}/control-room`;
const stats = (token: string) => bearerCall<ControlRoomStats>(token, 'GET', `${ROOM_PATH}/stats`);
const streamState = (page: Page) => page.locator('.room-status .live-state').getAttribute('data-state');

beforeAll(async () => {
  browser = await launchChromium(['--autoplay-policy=no-user-gesture-required']);
  await putCampaignShow(
    PAGE,
    { uid: CAMPAIGN, name: 'Control room e2e', deadline: dayAhead() },
    { uid: SHOW, status: 'public', ...plannedNow() },
  );
  for (const [sorting, productUid] of [MUG, BOARD].entries())
    await adminCall('PUT', `/admin/events/${SHOW}/products/${productUid}`, {
      productUid,
      sorting,
    });

  host = await newPage();
  moderator = await newPage({ width: 1024, height: 768 });
  hostToken = await openRoomAs(host, 'owner');
  moderatorToken = await openRoomAs(moderator, 'moderator');
});

afterAll(async () => {
  publisher?.kill('SIGKILL');
  for (const context of contexts) await context.close();
  await browser?.close();
});

describe('the control room', () => {
  it('runs a live show with a host, a moderator and a viewer', async () => {
    // The encoder starts; the room sees the stream arrive and the host goes live from it.
    publisher = await publishToShow(hostToken, PAGE, SHOW);
    await expect.poll(() => streamState(host), { timeout: 25_000 }).toBe('receiving');
    await host.getByRole('button', { name: room.actions.goLive }).click();
    await expect.poll(() => streamState(host), { timeout: 10_000 }).toBe('live');
    await expect.poll(() => streamState(moderator), { timeout: 5_000 }).toBe('live');
    await host.locator('[data-room-timer]').waitFor();

    // The moderator may not end the show or see revenue: not offered, and refused by the server.
    expect(await moderator.getByRole('button', { name: room.actions.end }).count()).toBe(0);
    expect(await moderator.locator('[data-figure="revenue"]').count()).toBe(0);
    expect((await api(moderatorToken, 'POST', `/staff/stores/${PAGE}/shows/${SHOW}/stream/end`)).status).toBe(
      403,
    );
    expect((await stats(moderatorToken)).revenue).toBeNull();
    await host.locator('[data-figure="revenue"]').waitFor();

    // A viewer watches the live show.
    viewer = await newPage();
    await recordSocketArrivals(viewer);
    await viewer.goto(`${baseUrl}/widget/${PAGE}/campaign/${CAMPAIGN}/event/${SHOW}`);
    await viewer.waitForSelector('.player[data-show-state="live"]');
    await playsPastOneSecond(viewer, 30_000);
    await viewer.waitForSelector('.video-stage[data-live-delay-ms]');
    // Measured against once the player has caught up with the edge: the once-a-second sample lags
    // the truth while it does.
    const viewerDelayMs = await steadyDelay(viewer);
    await watchFor(viewer, 'presented', `.player[data-active-product="${MUG}"]`);

    // The host presses 1: the first product of the rail is presented, stamped on the stream clock.
    await host.locator('body').press('1');
    const presented = await waitFor(
      'the presentation',
      async () =>
        (await bearerCall<ControlRoom>(hostToken, 'GET', ROOM_PATH)).presented.find((p) => p.uid === MUG) ??
        null,
      5_000,
    );
    const pressedAt = Date.now();
    // The moderator's room shows it at once (the controlRoom live query pushes it; the time is
    // printed below): the bound is for a busy machine, not the claim.
    await moderator
      .locator(`[data-product-uid="${MUG}"][data-presented="true"]`)
      .waitFor({ timeout: 15_000 });
    const moderatorSawAfterMs = Date.now() - pressedAt;
    const shown = await sighting(viewer, 'presented');
    // The frame the product came on: it stays the active one until the host presents another.
    const shownOnStreamMs = Number(await viewer.getAttribute('.player', 'data-active-product-stream-ms'));
    const [event] = await adminCall<LiveEvent[]>('POST', '/reads/liveEvents.byId', {
      ids: [SHOW],
    });
    if (!event) throw new Error('no event');
    const present = await streamClockError(viewer, {
      uid: MUG,
      stampedAt: presented.start,
      dueAt: presented.start + broadcastDelayMs(event) + shown.delayMs,
      shownAt: shown.at,
    });
    // On her frames: the product must come on the first frame at or after the stamped one. Where
    // its message reached her page after that frame (a starved machine's socket), it comes on the
    // frame on screen then, as late as the message was (estimated with the delay sample).
    const onFrames = frameErrorOf(shown, shownOnStreamMs, streamClockCueTime(presented.start, event));
    const messageLateMs = Math.max(0, -present.arrivedBeforeDueMs);
    const measured = {
      controlRoomViewerDelayMs: viewerDelayMs,
      controlRoomPresentFrameErrorMs: onFrames.frameErrorMs,
      controlRoomPresentSkippedMs: onFrames.skippedMs,
      controlRoomPresentOnStreamClockErrorMs: present.onStreamClockErrorMs,
      controlRoomPresentArrivedBeforeDueMs: present.arrivedBeforeDueMs,
      controlRoomPresentErrorMs: present.errorMs,
      controlRoomPresentShownAfterStampMs: shown.at - presented.start,
      controlRoomModeratorSawPresentAfterMs: moderatorSawAfterMs,
    };
    console.log(JSON.stringify(measured));
    expect(onFrames.frameErrorMs, JSON.stringify(measured)).toBeGreaterThanOrEqual(0);
    expect(lateOnFrames(onFrames), JSON.stringify(measured)).toBeLessThanOrEqual(
      messageLateMs + CUE_TOLERANCE_MS,
    );

    // The viewer adds the presented product to the cart and comments.
    await viewer.locator('.player__panel .product-card', { hasText: 'mug' }).first().click();
    await viewer.locator('.product-details').getByRole('button', { name: en.player.addToCart }).click();
    await viewer.locator('[data-feedback="added"]').first().waitFor({ timeout: 10_000 });

    await viewer.locator('.player__tabs [role="tab"]', { hasText: /^Comments\d*$/ }).click();
    await commentInPlayer(viewer, 'Is the mug dishwasher safe?', 'Viola');

    // A second viewer joins and writes two comments the moderator will not keep.
    troll = await newPage();
    await troll.goto(`${baseUrl}/widget/${PAGE}/campaign/${CAMPAIGN}/event/${SHOW}`);
    await troll.waitForSelector('.player[data-show-state="live"]');
    await troll.locator('.player__tabs [role="tab"]', { hasText: /^Comments\d*$/ }).click();
    const rudeUid = await commentInPlayer(troll, 'Buy followers at my site', 'Trolle');
    const secondUid = await commentInPlayer(troll, 'Still here, still selling', 'Trolle');
    await viewer.locator(`.chat [data-comment-uid="${secondUid}"]`).waitFor({ timeout: 10_000 });

    // The room counts what the viewers just did: two watching, three comments typed in the chat
    // (a rate over the last minute, so read now), the host's page showing the same.
    const early = await waitFor(
      'the room to count the comments',
      async () => {
        const current = await stats(hostToken);
        return current.viewers === 2 && current.commentsPerMinute === 3 ? current : null;
      },
      10_000,
    );
    expect(early).toMatchObject({ viewers: 2, commentsPerMinute: 3, addsToCart: 1 });
    await host.locator('[data-figure="comments"] dd', { hasText: /^3$/ }).waitFor({ timeout: 5_000 });
    await moderator.locator('[data-figure="comments"] dd', { hasText: /^3$/ }).waitFor({ timeout: 5_000 });

    // A poll: prepared and opened in the room, then closed.
    const poll = await bearerCall<CompetitionAdminView>(
      moderatorToken,
      'POST',
      `/staff/stores/${PAGE}/shows/${SHOW}/competitions`,
      {
        type: 'poll',
        name: 'Oak or walnut?',
        options: [
          { id: 'oak', text: 'Oak' },
          { id: 'walnut', text: 'Walnut' },
        ],
      },
    );
    const pollItem = host.locator(`[data-competition-uid="${poll.uid}"]`);
    await pollItem.getByRole('button', { name: room.competitions.openAction }).click();
    await pollItem.getByRole('button', { name: room.competitions.close }).waitFor();
    await pollItem.getByRole('button', { name: room.competitions.close }).click();
    await pollItem.getByRole('button', { name: room.competitions.openAction }).waitFor();

    // A raffle: opened from the moderator's room; both viewers join.
    const raffle = await bearerCall<CompetitionAdminView>(
      hostToken,
      'POST',
      `/staff/stores/${PAGE}/shows/${SHOW}/competitions`,
      { type: 'raffle', name: 'Win the oak board', presentationPrimaryText: 'Say hi to join' },
    );
    const raffleForModerator = moderator.locator(`[data-competition-uid="${raffle.uid}"]`);
    await raffleForModerator.getByRole('button', { name: room.competitions.openAction }).click();
    for (const [page, greeting] of [
      [viewer, 'Hi from the e2e viewer'],
      [troll, 'Hi from the troll'],
    ] as const) {
      const overlay = page.locator('.competition-overlay');
      await overlay.getByText('Say hi to join').waitFor({ timeout: 15_000 });
      await overlay.getByRole('textbox').fill(greeting);
      await overlay
        .getByRole('button', { name: interaction.interaction.competitions.participate.raffle })
        .click();
      await overlay.getByText(interaction.interaction.competitions.participated.raffle).waitFor();
    }
    // The live entry count reaches the host's room.
    const raffleForHost = host.locator(`[data-competition-uid="${raffle.uid}"]`);
    await raffleForHost.getByText('Entries: 2').waitFor({ timeout: 5_000 });

    // The moderator hides the second viewer's comment, then bans its author: measured from the
    // click to the comment leaving the first viewer's chat.
    const rudeRow = moderator.locator(`.moderation__chat [data-comment-uid="${rudeUid}"]`);
    await rudeRow.waitFor({ timeout: 10_000 });
    const hide = await clickToRemoval(
      moderator,
      rudeRow.getByRole('button', { name: moderation.actions.hide, exact: true }),
      viewer,
      `.chat [data-comment-uid="${rudeUid}"]`,
      rudeUid,
    );
    // The moderator's own list keeps the comment, marked hidden, with its author's ban at hand.
    await rudeRow.locator('.moderation__badge', { hasText: /^Hidden by E2E moderator$/ }).waitFor();
    const banButton = rudeRow.getByRole('button', {
      name: moderation.actions.ban.replace('{{name}}', 'Trolle'),
      exact: true,
    });
    await banButton.waitFor({ timeout: 10_000 }).catch(async (error) => {
      await saveScreenshot(moderator, 'control-room-moderator-no-ban-button', { fullPage: true });
      throw error;
    });
    const ban = await clickToRemoval(
      moderator,
      banButton,
      viewer,
      `.chat [data-comment-uid="${secondUid}"]`,
      secondUid,
    );
    // Each removal with when its message reached the viewer's page: a miss says whether the
    // server and socket or the viewer's page took the time.
    const latencies = {
      controlRoomHideReachedViewerMs: hide.ms,
      controlRoomHideMessageMs: hide.messageMs,
      controlRoomBanReachedViewerMs: ban.ms,
      controlRoomBanMessageMs: ban.messageMs,
    };
    console.log(JSON.stringify(latencies));
    expect(hide.ms, JSON.stringify(latencies)).toBeLessThanOrEqual(ACTION_TO_VIEWER_MS);
    expect(ban.ms, JSON.stringify(latencies)).toBeLessThanOrEqual(ACTION_TO_VIEWER_MS);
    // The banned viewer is told why, has no composer, and cannot post around the player either.
    const told = troll.locator('.chat-closed--banned');
    await told.waitFor({ timeout: 5_000 });
    expect(await told.textContent()).toBe(BANNED_MESSAGE);
    expect(await troll.locator('.chat-composer__input').count()).toBe(0);
    const refused = await api<{ message?: string }>(
      await sessionToken(troll),
      'POST',
      '/shopapiv2/comment/playerComment',
      { text: 'let me back', pageUid: PAGE, campaignUid: CAMPAIGN },
    );
    expect(refused.status).toBe(403);
    expect(JSON.stringify(refused.body)).toMatch(/banned/i);
    // Their comments stay gone for the first viewer; the moderator's own list keeps them, marked.
    expect(
      await viewer
        .locator('.chat .comment', { hasText: /Buy followers|Still here|Hi from the troll/ })
        .count(),
    ).toBe(0);
    await saveScreenshot(troll, 'control-room-banned-viewer', { fullPage: true });

    // The host draws: the banned entrant is left out, so the first viewer wins, and a second draw
    // finds nobody left (it would draw the banned viewer were they not left out).
    const drawnAt = Date.now();
    await raffleForHost.getByRole('button', { name: room.competitions.draw }).click();
    await raffleForHost.getByText('Winner: Viola').waitFor();
    const secondDraw = await api<{ message?: string }>(
      hostToken,
      'POST',
      `${ROOM_PATH}/competitions/${raffle.uid}/draw`,
      { count: 1 },
    );
    console.log(JSON.stringify({ controlRoomSecondDraw: secondDraw }));
    expect(secondDraw.status).toBe(409);
    await viewer.locator('[data-notice="winner"]').waitFor({ timeout: 30_000 });
    const noticeAfterMs = Date.now() - drawnAt;
    console.log(JSON.stringify({ controlRoomWinnerNoticeAfterMs: noticeAfterMs, viewerDelayMs }));
    expect(noticeAfterMs).toBeGreaterThanOrEqual(WINNER_NOTIFICATION_EXTRA_DELAY_MS);
    expect(noticeAfterMs).toBeLessThan(WINNER_NOTIFICATION_EXTRA_DELAY_MS + viewerDelayMs + 5_000);
    expect(await troll.locator('[data-notice="winner"]').count()).toBe(0);

    // The first viewer orders the cart they filled in the player, through the checkout's calls.
    const viewerToken = await sessionToken(viewer);
    const { uid: checkoutUid } = await bearerCall<{ uid: string | null }>(
      viewerToken,
      'POST',
      '/shopapiv2/cart/getCartUid',
      { pageUid: PAGE, campaignUid: CAMPAIGN, context: 'checkout' },
    );
    if (!checkoutUid) throw new Error("the viewer's add made no cart");
    const ref = { pageUid: PAGE, campaignUid: CAMPAIGN, checkoutUid };
    await bearerCall(viewerToken, 'POST', '/functions/customerpage/updateCheckoutDetails', {
      ...ref,
      details: {
        deliveryCountry: 'DK',
        address: {
          name: 'Viola Jensen',
          address: 'Mejlgade 1',
          postCode: '8000',
          city: 'Aarhus C',
          phone: '+45 12 34 56 78',
          emailAddress: 'viola@example.com',
        },
        shippingMethod: 'home_delivery',
        paymentMethod: 'test_card',
        termsAccepted: true,
      },
    });
    const order = await bearerCall<CheckoutView>(
      viewerToken,
      'POST',
      '/functions/customerpage/placeOrder',
      ref,
    );
    expect(order.orderNumber).not.toBeNull();
    expect(order.items).toHaveLength(1);

    // The live numbers match what the test did: two watching, the one add and the one order, the
    // revenue the order's goods (freight is not revenue), the presented product's own figures.
    const figures = await waitFor(
      'the numbers to count the order',
      async () => {
        const current = await stats(hostToken);
        return current.viewers === 2 && current.addsToCart === 1 && current.orders === 1 ? current : null;
      },
      10_000,
    );
    expect(figures).toMatchObject({
      viewers: 2,
      addsToCart: 1,
      orders: 1,
      revenue: [{ currency: order.currency, amount: order.subtotal }],
    });
    // Still within the minute of the three comments (the raffle entries post comments the player does not count).
    expect(figures.commentsPerMinute).toBeLessThanOrEqual(3);
    expect(figures.peakViewers).toBeGreaterThanOrEqual(2);
    expect(figures.presented.find((p) => p.uid === MUG)).toMatchObject({ addsToCart: 1, orders: 1 });
    expect(figures.competitions.find((c) => c.uid === raffle.uid)).toMatchObject({
      participantCount: 2,
      winnerCount: 1,
    });
    console.log(
      JSON.stringify({
        controlRoomFigures: {
          viewers: figures.viewers,
          peakViewers: figures.peakViewers,
          commentsPerMinute: figures.commentsPerMinute,
          addsToCart: figures.addsToCart,
          orders: figures.orders,
          revenue: figures.revenue,
        },
        orderSubtotal: order.subtotal,
        orderFreight: order.freight,
      }),
    );
    console.log(JSON.stringify({ controlRoomMedianDelayMs: figures.medianDelayMs, viewerDelayMs }));
    expect(figures.medianDelayMs).not.toBeNull();
    // The host's page shows them, revenue included; the moderator's the same without revenue.
    await host.locator('[data-figure="viewers"] dd', { hasText: /^2$/ }).waitFor();
    await host.locator('[data-figure="adds"] dd', { hasText: /^1$/ }).waitFor();
    await host.locator('[data-figure="orders"] dd', { hasText: /^1$/ }).waitFor();
    const revenueText = formatMoney(order.subtotal, order.currency, 'en');
    await host.locator('[data-figure="revenue"] dd', { hasText: revenueText }).waitFor({ timeout: 5_000 });
    await moderator.locator('[data-figure="orders"] dd', { hasText: /^1$/ }).waitFor();
    expect(await moderator.locator('[data-figure="revenue"]').count()).toBe(0);
    expect((await stats(moderatorToken)).revenue).toBeNull();

    // The room on a desktop, a tablet and a phone; accessible on each.
    for (const [name, viewport] of [
      ['desktop', { width: 1280, height: 800 }],
      ['tablet', { width: 1024, height: 768 }],
      ['phone', { width: 390, height: 844 }],
    ] as const) {
      await host.setViewportSize(viewport);
      // Nothing wider than the screen (the moderation columns once overflowed it with a ban listed).
      expect(await host.evaluate(() => document.documentElement.scrollWidth), name).toBeLessThanOrEqual(
        viewport.width,
      );
      expect(await axeFindings(host)).toEqual([]);
      await saveScreenshot(host, `control-room-host-${name}`, { fullPage: true });
    }
    await host.setViewportSize({ width: 1280, height: 800 });
    expect(await moderator.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1024);
    expect(await axeFindings(moderator)).toEqual([]);
    await saveScreenshot(moderator, 'control-room-moderator-tablet', { fullPage: true });

    // A network drop: the moderator's room says so and comes back with the current state.
    await moderator.evaluate(() => {
      const page = window as unknown as { offlineEventAt?: number };
      window.addEventListener('offline', () => (page.offlineEventAt = Date.now()), { once: true });
    });
    const offlineAt = Date.now();
    await moderator.context().setOffline(true);
    await moderator
      .locator('.room-badge--offline')
      .waitFor({ timeout: 10_000 })
      .catch(async (error: Error) => {
        // What the moderator's page had: whether the browser told it, and the room's status line.
        const seen = await moderator.evaluate(() => ({
          onLine: navigator.onLine,
          offlineEventAt: (window as unknown as { offlineEventAt?: number }).offlineEventAt ?? null,
          status: document.querySelector('.room-status')?.outerHTML ?? null,
        }));
        await saveScreenshot(moderator, 'control-room-moderator-no-offline-badge', { fullPage: true });
        throw new Error(`${error.message}\nwent offline at ${offlineAt}; the page: ${JSON.stringify(seen)}`);
      });
    await host.locator('body').press('2');
    await moderator.context().setOffline(false);
    await moderator.locator('.room-badge--offline').waitFor({ state: 'detached', timeout: 10_000 });
    await moderator
      .locator(`[data-product-uid="${BOARD}"][data-presented="true"]`)
      .waitFor({ timeout: 3_000 });

    // End: the host ends the show; the replay has the presented products as chapters.
    await host.getByRole('button', { name: room.actions.end }).click();
    await host.getByRole('dialog').getByRole('button', { name: room.actions.endConfirm }).click();
    await expect.poll(() => streamState(host), { timeout: 15_000 }).toBe('ended');
    publisher.kill('SIGINT');
    await waitFor(
      'the replay',
      async () => {
        const [current] = await adminCall<LiveEvent[]>('POST', '/reads/liveEvents.byId', {
          ids: [SHOW],
        });
        return current?.event.currentStatus === 'vod' ? current : null;
      },
      15_000,
    );
    const replay = await newPage();
    await replay.goto(`${baseUrl}/widget/${PAGE}/campaign/${CAMPAIGN}/event/${SHOW}`);
    await replay.getByRole('tab', { name: en.player.tabs.video }).click();
    const chapters = replay.locator('.video-chapters__chapter');
    await chapters.first().waitFor();
    const names = await chapters.locator('.video-chapters__name').allTextContents();
    console.log(JSON.stringify({ controlRoomReplayChapters: names }));
    expect(names).toHaveLength(2);
    await saveScreenshot(replay, 'control-room-replay-chapters', { fullPage: true });

    // The replay replays the show's chat in step with the video, as viewers last saw it: nothing
    // before its moment, the question once the video passes it, never what the moderator removed.
    await replay.locator('.player__tabs [role="tab"]', { hasText: /^Comments\d*$/ }).click();
    const seek = (to: 'start' | 'end') =>
      replay.evaluate((where) => {
        const video = document.querySelector('video');
        if (!video || !Number.isFinite(video.duration)) return false;
        video.pause();
        video.currentTime = where === 'start' ? 0 : video.duration - 0.2;
        return true;
      }, to);
    const question = replay.locator('.chat .comment__text', { hasText: 'Is the mug dishwasher safe?' });
    await expect.poll(() => seek('start'), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => question.count(), { timeout: 5_000 }).toBe(0);
    await seek('end');
    await question.waitFor({ timeout: 5_000 });
    expect(
      await replay
        .locator('.chat .comment', { hasText: /Buy followers|Still here|Hi from the troll/ })
        .count(),
    ).toBe(0);
    await seek('start');
    await expect.poll(() => question.count(), { timeout: 5_000 }).toBe(0);
    await saveScreenshot(replay, 'control-room-replay-chat', { fullPage: true });
    expect(pageErrors).toEqual([]);
  });
});
