// Tracking in Chromium (spec §3 "Tracking event", §7 "Tracking event names"): each of the 22 names
// is sent to /shopapiv2/tracking by the action that should send it, with the §3 fields, from the
// player on its own (desktop and phone) and embedded in the demo retailer.
import { TRACKING_EVENT_NAMES, type TrackingEvent, type TrackingEventName } from '@vitrine/protocol';
import type { Browser, BrowserContext, FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { launchChromium } from './support/browser.ts';
import { testServer } from './support/test-server.ts';

const { baseUrl, retailerUrl } = testServer();
const PAGE = 'demo-store';
const LIVE_SHOW = 'demo-autumn-living';
const RECORDED_SHOW = 'demo-kitchen-favourites';
/** Generous: two cores are shared with the server and other tests. */
const WAIT = { timeout: 30_000 };

let browser: Browser;
const contexts: BrowserContext[] = [];
const pageErrors: string[] = [];
/** Every name some test saw emitted, for the check that all 22 are covered. */
const covered = new Set<TrackingEventName>();

beforeAll(async () => {
  browser = await launchChromium(['--autoplay-policy=no-user-gesture-required']);
});
afterAll(async () => {
  await browser?.close();
  expect(pageErrors).toEqual([]);
});

/** A browser context (own storage) whose tracking requests, from any frame, are collected. */
async function trackedContext(viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ viewport, locale: 'en-GB' });
  contexts.push(context);
  const events: TrackingEvent[] = [];
  context.on('request', (request) => {
    if (!request.url().endsWith('/shopapiv2/tracking') || request.method() !== 'POST') return;
    // One event, or a batch of those the player tracked in one task.
    const body = JSON.parse(request.postData() ?? '{}') as TrackingEvent | { events: TrackingEvent[] };
    events.push(...('events' in body ? body.events : [body]));
  });
  return { context, events };
}

async function openPage(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
  await page.goto(url);
  return page;
}

/** The signed-in viewer's user uid, from the session the player keeps in localStorage. */
const userUidOf = (page: Page) =>
  page.evaluate(
    () =>
      (JSON.parse(localStorage.getItem('vitrine-session') ?? 'null') as { user: { uid: string } } | null)
        ?.user.uid ?? null,
  );

/**
 * Runs `action` and waits for the tracking event `name` it emits; checks the fields of spec §3
 * that every event of this player carries and returns the event.
 */
async function expectTracked(
  events: TrackingEvent[],
  name: TrackingEventName,
  action: () => Promise<unknown>,
  expected: { campaignUid: string; userUid: string | null; product?: string },
): Promise<TrackingEvent> {
  const before = events.length;
  await action();
  await expect
    .poll(() => events.slice(before).some((event) => event.trackingEvent === name), {
      ...WAIT,
      message: `${name} was not tracked`,
    })
    .toBe(true);
  const event = events.slice(before).find((candidate) => candidate.trackingEvent === name)!;
  expect(event).toMatchObject({
    trackingEvent: name,
    pageUid: PAGE,
    campaignUid: expected.campaignUid,
    eventUid: expect.any(String),
    eventStatus: expect.stringMatching(/^(planned|live|vod)$/),
    currency: expect.stringMatching(/^[A-Z]{3}$/),
    viewerUrl: expect.stringContaining(`/widget/${PAGE}/`),
    userUid: expected.userUid,
    playingProducts: expect.any(Array),
  });
  expect(Math.abs(event.timestamp - Date.now())).toBeLessThan(120_000);
  expect(event.videoAbsoluteTime === null || event.videoAbsoluteTime >= 0).toBe(true);
  if (expected.product) expect(event.trackingInfo).toMatchObject({ productUid: expected.product });
  covered.add(name);
  return event;
}

const video = (page: Page | FrameLocator) => page.locator('video').first();

describe('tracking events of the player', () => {
  it('on its own (desktop): playback, catalogue, cart, checkout, chat and reactions', async () => {
    const { context, events } = await trackedContext();
    const page = await openPage(context, `${baseUrl}/widget/${PAGE}/${LIVE_SHOW}`);
    await page.locator('.player').waitFor(WAIT);
    // Adding to the cart signs the viewer in (anonymously): from then on every event names the user.
    const mug = page.locator('.player__panel li[data-product-uid="nordlys-ceramic-mug"] .product-card');
    await mug.click();
    await page.locator('.product-details').waitFor(WAIT);
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await expect.poll(() => userUidOf(page), WAIT).toEqual(expect.any(String));
    const userUid = await userUidOf(page);
    const fields = { campaignUid: LIVE_SHOW, userUid };
    // The add-to-cart event itself may have left before the session existed: another one names the user.
    await expectTracked(
      events,
      'cart.added-to-cart',
      () => page.getByRole('button', { name: 'Add to cart' }).click(),
      { ...fields, product: 'nordlys-ceramic-mug' },
    );
    await expectTracked(
      events,
      'player.jumped-to-cue',
      () => page.getByRole('button', { name: 'See it in the video' }).click(),
      fields,
    );
    await expectTracked(
      events,
      'catalog.returned-to-list',
      () => page.getByRole('button', { name: /All products/ }).click(),
      fields,
    );
    await expectTracked(events, 'catalog.viewed-product-details', () => mug.click(), {
      ...fields,
      product: 'nordlys-ceramic-mug',
    });
    await page.getByRole('button', { name: /All products/ }).click();

    await expectTracked(
      events,
      'player.muted',
      () =>
        video(page).evaluate((v: HTMLVideoElement) => {
          v.muted = true;
        }),
      fields,
    );
    await expectTracked(
      events,
      'player.paused',
      () => video(page).evaluate((v: HTMLVideoElement) => v.pause()),
      fields,
    );
    await expectTracked(
      events,
      'player.play',
      () => video(page).evaluate((v: HTMLVideoElement) => v.play()),
      fields,
    );
    await expectTracked(
      events,
      'player.unmuted',
      () =>
        video(page).evaluate((v: HTMLVideoElement) => {
          v.muted = false;
        }),
      fields,
    );

    // The chat: shown, a comment (after the name an anonymous viewer gives first), a reaction, hidden.
    const commentsTab = page.locator('.player__tabs [role="tab"]', { hasText: /^Comments\d*$/ });
    await expectTracked(events, 'player.comments-shown', () => commentsTab.click(), fields);
    await page.locator('.chat').waitFor(WAIT);
    await expectTracked(
      events,
      'user.commented',
      async () => {
        await page.fill('.chat-composer__input', 'Does the mug come in blue?');
        await page.click('.chat-composer button[type="submit"]');
        await page.locator('dialog.account-dialog[open]').waitFor(WAIT);
        await page.fill('dialog.account-dialog input[name="name"]', 'Tracy');
        await page.click('dialog.account-dialog .account-form__submit');
      },
      fields,
    );
    await expectTracked(
      events,
      'user.reacted',
      () => page.locator('.reaction-button').first().click(),
      fields,
    );
    await expectTracked(
      events,
      'player.comments-hidden',
      () => page.locator('.player__tabs [role="tab"]', { hasText: /^Products/ }).click(),
      fields,
    );

    // The player's own cart: opened, then the checkout begins from it.
    await expectTracked(
      events,
      'cart.opened-cart',
      () => page.locator('.player-cart-button').click(),
      fields,
    );
    await expectTracked(
      events,
      'checkout.began-checkout',
      () => page.locator('.player-cart__checkout').click(),
      fields,
    );
  });

  it('on its own (phone): the comments sheet, the now-showing pill and the end of a recorded show', async () => {
    const { context, events } = await trackedContext({ width: 390, height: 844 });
    const page = await openPage(context, `${baseUrl}/widget/${PAGE}/${RECORDED_SHOW}`);
    await page.locator('.player').waitFor(WAIT);
    const menu = page.locator('.mobile-menu');
    const closeSheet = page.locator('.mobile-sheet__header').getByRole('button', { name: 'Close' });
    // Opening the chat signs the viewer in (anonymously); then every event names the user.
    await menu.getByRole('button', { name: 'Comments' }).click();
    await expect.poll(() => userUidOf(page), WAIT).toEqual(expect.any(String));
    await closeSheet.click();
    const fields = { campaignUid: RECORDED_SHOW, userUid: await userUidOf(page) };
    await expectTracked(
      events,
      'player.comments-shown',
      () => menu.getByRole('button', { name: 'Comments' }).click(),
      fields,
    );
    await expectTracked(
      events,
      'player.comments-hidden',
      () => page.locator('.mobile-sheet__header').getByRole('button', { name: 'Close' }).click(),
      fields,
    );
    // Halfway through the show a product is playing; the products sheet scrolled away from it
    // offers the way back to it.
    await video(page).evaluate(async (v: HTMLVideoElement) => {
      if (!Number.isFinite(v.duration))
        await new Promise((resolve) => v.addEventListener('loadedmetadata', resolve, { once: true }));
      v.currentTime = v.duration / 2;
    });
    await expect.poll(() => page.locator('.player').getAttribute('data-active-product'), WAIT).not.toBe('');
    await menu.getByRole('button', { name: 'Products' }).click();
    await expect
      .poll(() => page.locator('.mobile-sheet [data-active="true"]').count(), WAIT)
      .toBeGreaterThan(0);
    await page.locator('.mobile-sheet [data-active="true"]').evaluate((active) => {
      // Three products fit a phone's sheet: a short sheet makes the list scroll as a long one would.
      const list = active.closest('.mobile-sheet__body') as HTMLElement;
      list.style.maxHeight = '140px';
      list.style.overflowY = 'auto';
      const below = active.getBoundingClientRect().top - list.getBoundingClientRect().top > 100;
      list.scrollTop = below ? 0 : list.scrollHeight;
    });
    await expectTracked(
      events,
      'catalog.scrolled-to-playing-product',
      () => page.locator('.mobile-sheet .now-showing-pill').click(),
      fields,
    );
    await page.locator('.mobile-sheet__header').getByRole('button', { name: 'Close' }).click();
    await expectTracked(
      events,
      'player.ended',
      () =>
        video(page).evaluate(async (v: HTMLVideoElement) => {
          v.muted = true;
          if (!Number.isFinite(v.duration))
            await new Promise((resolve) => v.addEventListener('loadedmetadata', resolve, { once: true }));
          v.currentTime = Math.max(0, v.duration - 0.3);
          await v.play();
        }),
      fields,
    );
  });

  it('embedded in the retailer: favourites, the host cart, product images and links, minimize, maximize, close', async () => {
    const { context, events } = await trackedContext();
    const page = await openPage(context, `${retailerUrl}/`);
    await page.waitForFunction(() => 'Vitrine' in window, undefined, WAIT);
    // A host answering with two images per product and a link to its own product page.
    const playerId = await page.evaluate(
      ({ campaignUid, baseUrl }) => {
        const vitrine = (window as unknown as { Vitrine: { init(o: unknown): { playerId: string } } })
          .Vitrine;
        const favourites = new Set<string>();
        const data = (lookup: { product_id: string }) => ({
          product_id: lookup.product_id,
          url: `${location.origin}/?product=${lookup.product_id}`,
          images: [`${baseUrl}/demo-media/product-ceramic-mug.jpg`, `${baseUrl}/demo-media/cover-vod.jpg`],
          isFavorite: favourites.has(lookup.product_id),
        });
        return vitrine.init({
          pageUid: 'demo-store',
          campaignUid,
          mode: 'modal',
          usableActions: ['OPEN_CART', 'UPDATE_CART_CONTENTS', 'GET_PRODUCT_DATA', 'TOGGLE_IS_FAVORITE'],
          supportedFeatures: { MINIMIZED_PLAYER: true, NAVIGATION: 'NEW_TAB' },
          handlers: {
            get_user_product_data: (lookup: { product_id: string }, reply: (t: string, p: unknown) => void) =>
              reply('user_product_data', data(lookup)),
            toggle_is_favorite: (
              payload: { product: { product_id: string }; isFavorite: boolean },
              reply: (t: string, p: unknown) => void,
            ) => {
              if (payload.isFavorite) favourites.add(payload.product.product_id);
              else favourites.delete(payload.product.product_id);
              reply('user_product_data', data(payload.product));
            },
            host_open_cart: () => undefined,
            host_cart_state_changed: () => undefined,
            go_to_url: () => undefined,
          },
        }).playerId;
      },
      { campaignUid: RECORDED_SHOW, baseUrl },
    );
    const frame = page.frameLocator(`iframe[src*="playerId=${playerId}"]`);
    await frame.locator('.player[data-host="on"][data-cart-mode="hostCart"]').waitFor(WAIT);
    // On the retailer's site (on_site) the player signs in anonymously to load the cart.
    const userUid = await vi.waitFor(async () => {
      const stored = await frame.locator('body').evaluate(() => {
        const session = JSON.parse(localStorage.getItem('vitrine-session') ?? 'null') as {
          user: { uid: string };
        } | null;
        return session?.user.uid ?? null;
      });
      if (stored === null) throw new Error('the player has not signed in yet');
      return stored;
    }, WAIT);
    const fields = { campaignUid: RECORDED_SHOW, userUid };
    const mug = frame.locator('.player__panel li[data-product-uid="nordlys-ceramic-mug"]');
    await expectTracked(events, 'cart.added-to-favorite', () => mug.locator('.favorite-toggle').click(), {
      ...fields,
      product: 'nordlys-ceramic-mug',
    });
    await expectTracked(
      events,
      'cart.opened-cart',
      () => frame.locator('.host-controls__button--cart').click(),
      fields,
    );
    await mug.locator('.product-card').click();
    await frame.locator('.product-details__thumbs').waitFor(WAIT);
    await expectTracked(
      events,
      'catalog.switched-product-image',
      () => frame.locator('.product-details__thumbs button').nth(1).click(),
      { ...fields, product: 'nordlys-ceramic-mug' },
    );
    await expectTracked(
      events,
      'catalog.opened-product-url',
      () => frame.locator('.product-details').getByRole('link', { name: 'See in shop' }).click(),
      { ...fields, product: 'nordlys-ceramic-mug' },
    );
    const controls = frame.locator('.host-controls');
    await expectTracked(
      events,
      'player.minimized',
      () => controls.getByRole('button', { name: /Minimize/ }).click(),
      fields,
    );
    await expectTracked(
      events,
      'player.maximized',
      () => controls.getByRole('button', { name: /Enlarge/ }).click(),
      fields,
    );
    await expectTracked(
      events,
      'player.closed',
      () => controls.getByRole('button', { name: /Close/ }).click(),
      fields,
    );
  });

  it('starts afresh when the route names another show: no tab, stream type or state of the last one', async () => {
    const { context, events } = await trackedContext();
    const page = await openPage(context, `${baseUrl}/widget/${PAGE}/${LIVE_SHOW}`);
    await page.locator('.player[data-show-state="live"]').waitFor(WAIT);
    const commentsTab = page.locator('.player__tabs [role="tab"]', { hasText: /^Comments\d*$/ });
    await commentsTab.click();
    await expect.poll(() => commentsTab.getAttribute('aria-selected'), WAIT).toBe('true');
    // A client-side navigation to the recorded show (what back and forward between shows do).
    await page.evaluate((path) => {
      history.pushState(null, '', path);
      dispatchEvent(new PopStateEvent('popstate', { state: null }));
    }, `/widget/${PAGE}/${RECORDED_SHOW}`);
    await page.locator('.player[data-show-state="recorded"]').waitFor(WAIT);
    const productsTab = page.locator('.player__tabs [role="tab"]', { hasText: /^Products/ });
    expect(await productsTab.getAttribute('aria-selected')).toBe('true');
    // The recorded show plays as a recording: its events say vod, not the last show's live.
    // A recording that resumes playing may be muted by the player when the browser refuses sound,
    // and a mute of a muted video sends nothing: once it has loaded, unmute it if it is muted
    // (waiting for the browser's volumechange, which the player hears first), then mute it.
    await expect
      .poll(() => video(page).evaluate((v: HTMLVideoElement) => v.readyState), WAIT)
      .toBeGreaterThanOrEqual(1);
    await video(page).evaluate(async (v: HTMLVideoElement) => {
      if (!v.muted) return;
      await new Promise((resolve) => {
        v.addEventListener('volumechange', resolve, { once: true });
        v.muted = false;
      });
    });
    const muted = await expectTracked(
      events,
      'player.muted',
      () =>
        video(page).evaluate((v: HTMLVideoElement) => {
          v.muted = true;
        }),
      // Opening the chat signed the viewer in.
      { campaignUid: RECORDED_SHOW, userUid: await userUidOf(page) },
    );
    expect(muted).toMatchObject({ eventUid: RECORDED_SHOW, eventStatus: 'vod' });
  });

  it('tells neither our server nor the host page what a viewer does under the browser plugin marker (spec §6)', async () => {
    const { context, events } = await trackedContext();
    // The plugin marks every page it runs on, the player's frame too, before their scripts run.
    await context.addInitScript(() => {
      const mark = () => document.documentElement?.setAttribute('data-vitrine-browser-plugin', '');
      if (document.documentElement) mark();
      else document.addEventListener('readystatechange', mark, { once: true });
    });
    const page = await openPage(context, `${retailerUrl}/`);
    await page.waitForFunction(() => 'Vitrine' in window, undefined, WAIT);
    const playerId = await page.evaluate(
      ({ campaignUid }) => {
        const heard = { trackEvents: 0, favouriteToggles: 0 };
        (window as unknown as { heard: typeof heard }).heard = heard;
        const vitrine = (window as unknown as { Vitrine: { init(o: unknown): { playerId: string } } })
          .Vitrine;
        return vitrine.init({
          pageUid: 'demo-store',
          campaignUid,
          mode: 'modal',
          usableActions: ['OPEN_CART', 'UPDATE_CART_CONTENTS', 'GET_PRODUCT_DATA', 'TOGGLE_IS_FAVORITE'],
          handlers: {
            track_event: () => {
              heard.trackEvents += 1;
            },
            get_user_product_data: (lookup: { product_id: string }, reply: (t: string, p: unknown) => void) =>
              reply('user_product_data', { product_id: lookup.product_id, isFavorite: false }),
            toggle_is_favorite: (
              payload: { product: { product_id: string }; isFavorite: boolean },
              reply: (t: string, p: unknown) => void,
            ) => {
              heard.favouriteToggles += 1;
              reply('user_product_data', {
                product_id: payload.product.product_id,
                isFavorite: payload.isFavorite,
              });
            },
            host_open_cart: () => undefined,
            host_cart_state_changed: () => undefined,
          },
        }).playerId;
      },
      { campaignUid: RECORDED_SHOW },
    );
    const frame = page.frameLocator(`iframe[src*="playerId=${playerId}"]`);
    await frame.locator('.player[data-host="on"]').waitFor(WAIT);
    const toggles = () =>
      page.evaluate(
        () => (window as unknown as { heard: { favouriteToggles: number } }).heard.favouriteToggles,
      );
    // Favourite and unfavourite: each tracks cart.added-to-favorite (or its opposite) and asks the
    // host. Once the host has the second ask, the player's messages before it have all arrived.
    const favourite = frame
      .locator('.player__panel li[data-product-uid="nordlys-ceramic-mug"]')
      .locator('.favorite-toggle');
    await favourite.click();
    await expect.poll(toggles, WAIT).toBe(1);
    await favourite.click();
    await expect.poll(toggles, WAIT).toBe(2);
    expect(
      await page.evaluate(() => (window as unknown as { heard: { trackEvents: number } }).heard.trackEvents),
    ).toBe(0);
    expect(events).toEqual([]);
  });

  it('covers each of the 22 tracking event names of spec §7', () => {
    expect(TRACKING_EVENT_NAMES).toHaveLength(22);
    expect([...covered].sort()).toEqual([...TRACKING_EVENT_NAMES].sort());
  });
});
