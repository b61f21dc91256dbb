// The on-site SDK in Chromium across real origins: the demo retailer (retailerUrl) embeds the
// player served by the Vitrine server (baseUrl), exactly as a retailer's site would. A third
// origin, served here, plays the part of a page the store never allowed.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser.ts';
import { saveScreenshot } from './support/screenshots.ts';
import { testServer } from './support/test-server.ts';

const { baseUrl, retailerUrl } = testServer();
const playerOrigin = new URL(baseUrl).origin;
const retailerOrigin = new URL(retailerUrl).origin;
/** Generous: two cores are shared with the server and other tests. */
const WAIT = { timeout: 30_000 };
const LIVE_SHOW = 'demo-autumn-living';
const RECORDED_SHOW = 'demo-kitchen-favourites';

/** What the retailer page saw: every Vitrine message that reached its window, and each init call. */
declare global {
  interface Window {
    __seen: { origin: string; playerId: string; type: string; payload: unknown }[];
    __inits: number[];
    __readyAt: Record<string, number>;
    __handled: { playerId: string; type: string; payload: unknown }[];
    Vitrine: unknown;
  }
}

let browser: Browser;
let thirdOrigin: Server;
let thirdOriginUrl = '';
const pageErrors: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  // A page on an origin the demo store does not allow: it frames the widget and forges messages.
  thirdOrigin = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    const hostOrigin = url.searchParams.get('claim') ?? thirdOriginUrl;
    const src = `${baseUrl}/widget/demo-store/${LIVE_SHOW}?${new URLSearchParams({
      embed: '1',
      playerId: 'forged-1',
      hostOrigin,
      context: 'on_site',
      mode: 'inline',
    })}`;
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><title>Not a retailer</title>
<script>window.received = []; addEventListener('message', (e) => received.push(e.data));</script>
<iframe id="player" src="${src}" style="width:360px;height:640px;border:0"></iframe>`);
  });
  await new Promise<void>((resolve) => thirdOrigin.listen(0, '127.0.0.1', resolve));
  thirdOriginUrl = `http://127.0.0.1:${(thirdOrigin.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => thirdOrigin?.close(resolve));
  expect(pageErrors).toEqual([]);
});

/** A fresh tab set (own storage) that records, on retailer pages, what the SDK does. */
async function newContext(): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
  await context.addInitScript(() => {
    if (window !== window.top) return;
    window.__seen = [];
    window.__inits = [];
    window.__readyAt = {};
    window.__handled = [];
    addEventListener('message', (event) => {
      const data = event.data as { vitrine?: unknown; playerId: string; type: string; payload: unknown };
      if (data?.vitrine !== 1) return;
      window.__seen.push({
        origin: event.origin,
        playerId: data.playerId,
        type: data.type,
        payload: data.payload,
      });
      if (data.type === 'player_ready') window.__readyAt[data.playerId] ??= performance.now();
    });
    // Times each Vitrine.init, for the init → player_ready measurement.
    let vitrine: { init(options: unknown): unknown } | undefined;
    Object.defineProperty(window, 'Vitrine', {
      configurable: true,
      get: () => vitrine,
      set(value: { init(options: unknown): unknown }) {
        const init = value.init;
        value.init = (options: unknown) => {
          window.__inits.push(performance.now());
          return init(options);
        };
        vitrine = value;
      },
    });
  });
  return context;
}

async function open(context: BrowserContext, path = '/'): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
  await page.goto(new URL(path, `${retailerUrl}/`).href);
  return page;
}

/** The demo retailer's home page in a fresh tab set (newContext). */
async function openRetailer(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext();
  return { context, page: await open(context) };
}

const inlineFrame = (page: Page) => page.frameLocator('#live-player iframe');
const frameOf = (page: Page, playerId: string) =>
  page.frameLocator(`iframe[src*="playerId=${encodeURIComponent(playerId)}"]`);

/** Waits until the player in `frame` talks to its host and knows its capabilities (its cart mode is set). */
async function connected(frame: FrameLocator, cartMode: string) {
  await frame.locator(`.player[data-host="on"][data-cart-mode="${cartMode}"]`).waitFor(WAIT);
}

/** Waits until a player has said player_ready to the page and talks to it. */
async function readyOn(page: Page, playerId: string) {
  await page.waitForFunction((id) => window.__readyAt[id] !== undefined, playerId, WAIT);
  await frameOf(page, playerId).locator('.player[data-host="on"]').waitFor(WAIT);
}

const seen = (page: Page, playerId: string, type: string) =>
  page.evaluate(
    ({ playerId, type }) => window.__seen.filter((m) => m.playerId === playerId && m.type === type),
    { playerId, type },
  );
const handled = (page: Page, playerId: string, type: string) =>
  page.evaluate(
    ({ playerId, type }) => window.__handled.filter((m) => m.playerId === playerId && m.type === type),
    { playerId, type },
  );

/**
 * Creates a player on the retailer page with the given options; its handlers (for `record`) log
 * into window.__handled. `productNames` makes it answer product-data requests with its own name
 * and price, as a shop with its own catalogue would.
 */
async function initPlayer(
  page: Page,
  options: Record<string, unknown>,
  record: string[] = [],
  productData: { namePrefix: string; price: number } | null = null,
): Promise<string> {
  return page.evaluate(
    ({ options, record, productData }) => {
      const vitrine = window.Vitrine as unknown as {
        init(o: unknown): { playerId: string };
      };
      let id = '';
      const handlers: Record<string, (payload: unknown, reply: (t: string, p: unknown) => void) => void> = {};
      for (const type of record) {
        handlers[type] = (payload) => {
          window.__handled.push({ playerId: id, type, payload });
        };
      }
      if (productData) {
        handlers.get_user_product_data = (payload, reply) => {
          const lookup = payload as { product_id: string };
          window.__handled.push({ playerId: id, type: 'get_user_product_data', payload });
          reply('user_product_data', {
            product_id: lookup.product_id,
            name: `${productData.namePrefix} ${lookup.product_id}`,
            price: productData.price,
          });
        };
      }
      const player = vitrine.init({ ...options, handlers });
      id = player.playerId;
      return id;
    },
    { options, record, productData },
  );
}

/** initPlayer for the demo store's recorded show in a modal, with the host's capabilities in `host`. */
function initRecordedShow(
  page: Page,
  host: { usableActions: string[]; supportedFeatures?: Record<string, unknown> },
  record: string[] = [],
  productData: { namePrefix: string; price: number } | null = null,
): Promise<string> {
  return initPlayer(
    page,
    { pageUid: 'demo-store', campaignUid: RECORDED_SHOW, mode: 'modal', ...host },
    record,
    productData,
  );
}

/** Closes one player the way the host page would (Player.close()). */
async function closePlayer(page: Page, playerId: string) {
  await page.evaluate((id) => {
    const vitrine = window.Vitrine as unknown as { players(): { playerId: string; close(): void }[] };
    vitrine
      .players()
      .find((player) => player.playerId === id)
      ?.close();
  }, playerId);
  await page.locator(`iframe[src*="playerId=${playerId}"]`).waitFor({ state: 'detached', ...WAIT });
}

/**
 * Frames the multi-event widget route by hand, as a host without the SDK would (fillParent,
 * on_site), and sends `messages` in order once the player says it is ready.
 */
async function frameMultiEventWidget(
  page: Page,
  frameId: string,
  playerId: string,
  messages: [type: string, payload: unknown][],
): Promise<FrameLocator> {
  await page.evaluate(
    ({ playerOrigin, hostOrigin, frameId, playerId, messages }) => {
      const frame = document.createElement('iframe');
      frame.id = frameId;
      frame.style.cssText = 'position:fixed;inset:0;width:100%;height:100%;border:0;z-index:9';
      frame.src = `${playerOrigin}/widget/demo-store/multi-event?${new URLSearchParams({
        embed: '1',
        playerId,
        hostOrigin,
        context: 'on_site',
        mode: 'fillParent',
      })}`;
      addEventListener('message', (event) => {
        if (event.source !== frame.contentWindow || event.data?.type !== 'player_ready') return;
        for (const [type, payload] of messages)
          frame.contentWindow?.postMessage({ vitrine: 1, playerId, type, payload }, playerOrigin);
      });
      document.body.append(frame);
    },
    { playerOrigin, hostOrigin: retailerOrigin, frameId, playerId, messages },
  );
  return page.frameLocator(`#${frameId}`);
}

async function box(page: Page, selector: string) {
  const found = await page.locator(selector).boundingBox();
  if (!found) throw new Error(`${selector} is not on screen`);
  return found;
}

describe('the on-site SDK on the demo retailer', () => {
  it('creates the iframe on the widget route and the player reaches player_ready', async () => {
    const { context, page } = await openRetailer();
    const iframe = page.locator('#live-player iframe');
    const src = new URL((await iframe.getAttribute('src', WAIT)) ?? '');
    expect(src.origin).toBe(playerOrigin);
    expect(src.pathname).toBe(`/widget/demo-store/${LIVE_SHOW}`);
    expect(src.searchParams.get('embed')).toBe('1');
    expect(src.searchParams.get('hostOrigin')).toBe(retailerOrigin);
    expect(src.searchParams.get('mode')).toBe('inline');
    expect(src.searchParams.get('context')).toBe('on_site');
    const playerId = src.searchParams.get('playerId') ?? '';

    await page.waitForFunction((id) => window.__readyAt[id] !== undefined, playerId, WAIT);
    const [ready] = await seen(page, playerId, 'player_ready');
    // From the player's origin, about the show the retailer asked for.
    expect(ready).toEqual({
      origin: playerOrigin,
      playerId,
      type: 'player_ready',
      payload: {
        pageUid: 'demo-store',
        campaignUid: LIVE_SHOW,
        eventUid: LIVE_SHOW,
        // The demo page's player settings: the defaults of spec §9.
        minimizedBox: { horizontal: 'right', vertical: 'bottom', horizontalMargin: 20, verticalMargin: 20 },
      },
    });
    // The retailer offers its cart: once the capabilities are in, the player sells into it.
    await connected(inlineFrame(page), 'hostCart');
    const { initAt, readyAt } = await page.evaluate(
      (id) => ({ initAt: window.__inits[0], readyAt: window.__readyAt[id] }),
      playerId,
    );
    console.log(JSON.stringify({ initToPlayerReadyMs: Math.round((readyAt ?? 0) - (initAt ?? 0)) }));

    // on_site forces anonymous use (spec §1): no sign-in button by the chat, and the prompt a
    // first comment opens asks for a name only (no sign-in, sign-up or social buttons).
    const frame = inlineFrame(page);
    // The inline player is phone-sized on the demo page: the comments open from the mobile menu.
    await frame.locator('.mobile-menu button', { hasText: 'Comments' }).click();
    await frame.locator('.chat-composer').waitFor(WAIT);
    expect(await frame.locator('.chat-composer__who .link-button').count()).toBe(0);
    await frame.locator('.chat-composer__input').fill('Hello from the shop');
    await frame.locator('.chat-composer button[type="submit"]').click();
    const dialog = frame.locator('.account-dialog');
    await dialog.locator('.account-form__submit').waitFor(WAIT);
    expect(await dialog.locator('.account-switch, .account-social').count()).toBe(0);
    expect(await dialog.locator('.account-forms__lead').textContent()).toBe('Enter a name to take part.');
    // The comment goes with the player's own context (spec §7 playerComment), not always 'checkout'.
    const commented = page.waitForRequest((request) =>
      request.url().endsWith('/shopapiv2/comment/playerComment'),
    );
    await dialog.locator('input[name="name"]').fill('Shop visitor');
    await dialog.locator('.account-form__submit').click();
    expect((await commented).postDataJSON()).toMatchObject({
      text: 'Hello from the shop',
      context: 'on_site',
    });
    await context.close();
  });

  it('sends only the messages the host declared: undeclared actions are dropped', async () => {
    const { context, page } = await openRetailer();
    const askedFor = ['get_user_account_data', 'host_request_cart_state', 'host_cart_state_changed'];
    const base = { pageUid: 'demo-store', campaignUid: LIVE_SHOW, mode: 'modal' };
    const bare = await initPlayer(page, { ...base, usableActions: [] }, [...askedFor, 'content_loaded']);
    const full = await initPlayer(
      page,
      { ...base, usableActions: ['GET_USER_DATA', 'GET_CART_CONTENTS', 'UPDATE_CART_CONTENTS'] },
      [...askedFor, 'content_loaded'],
    );
    await connected(frameOf(page, full), 'hostCart');
    // content_loaded is queued behind the dropped requests, so once it is in, they were decided.
    await page.waitForFunction(
      (ids) =>
        ids.every((id) => window.__handled.some((m) => m.playerId === id && m.type === 'content_loaded')),
      [bare, full],
      WAIT,
    );
    for (const type of ['get_user_account_data', 'host_request_cart_state']) {
      expect(await seen(page, bare, type)).toEqual([]);
      expect(await handled(page, full, type)).toHaveLength(1);
    }
    // A host with no cart of its own never gets cart changes: the player does not sell into it.
    expect(await frameOf(page, bare).locator('.player').getAttribute('data-cart-mode')).not.toBe('hostCart');
    expect(await seen(page, bare, 'host_cart_state_changed')).toEqual([]);
    await context.close();
  });

  it('adds to the retailer basket from the inline player and shows the basket count in the player', async () => {
    const { context, page } = await openRetailer();
    const frame = inlineFrame(page);
    await connected(frame, 'hostCart');
    await frame.locator('.mobile-menu button', { hasText: 'Products' }).click();
    await frame.locator('.mobile-sheet li[data-product-uid="nordlys-ceramic-mug"] .product-card').click();
    await frame.getByRole('button', { name: 'Add to cart' }).click();
    // The retailer's own basket (localStorage, its header badge) has the mug…
    await expect.poll(() => page.locator('[data-cart-count]').textContent(), WAIT).toBe('1');
    const basket = await page.evaluate(() => JSON.parse(localStorage.getItem('nordlys:cart') ?? '[]'));
    expect(basket).toEqual([{ product_id: 'NL-ceramic-mug', variant_id: null, quantity: 1 }]);
    // …and the retailer's host_cart_state_changed came back to the player's cart count (the
    // mobile menu's cart, under the open sheet).
    await expect.poll(() => frame.getByTestId('host-cart-count').first().textContent(), WAIT).toBe('1');
    // A second one sets the line to two: the player adds to what the basket holds.
    await frame.getByRole('button', { name: 'Add to cart' }).click();
    await expect.poll(() => page.locator('[data-cart-count]').textContent(), WAIT).toBe('2');
    // The retailer's basket page shows it too.
    await page.goto(`${retailerUrl}/cart.html`);
    await expect
      .poll(() => page.locator('[data-line="NL-ceramic-mug/"] [data-quantity]').textContent(), WAIT)
      .toBe('2');
    await context.close();
  });

  it('keeps the integration when the shopper picks a show in the "Watch our shows" modal', async () => {
    const { context, page } = await openRetailer();
    await page.getByRole('button', { name: 'Watch our shows' }).click();
    const modal = page.locator('.vitrine-modal iframe');
    const playerId = new URL((await modal.getAttribute('src')) ?? '').searchParams.get('playerId') ?? '';
    const frame = page.frameLocator('.vitrine-modal iframe');
    // The store front inside the modal: pick the live show (a client-side navigation in the iframe).
    await frame
      .getByRole('link', { name: /Autumn living/ })
      .first()
      .click();
    // The player on the show's route still talks to the retailer: its basket, its own close button.
    await connected(frame, 'hostCart');
    // The show's page can render before the layout's replace navigation puts the embed
    // parameters back into the iframe's address (a busy machine once read it in between).
    const frameUrl = async () => new URL((await (await modal.elementHandle())?.contentFrame())?.url() ?? '');
    await expect.poll(async () => (await frameUrl()).pathname, WAIT).toBe(`/widget/demo-store/${LIVE_SHOW}`);
    await expect
      .poll(async () => Object.fromEntries((await frameUrl()).searchParams), WAIT)
      .toMatchObject({
        embed: '1',
        playerId,
        hostOrigin: retailerOrigin,
        context: 'on_site',
        mode: 'modal',
      });
    expect((await seen(page, playerId, 'player_ready')).length).toBe(1);
    // The SDK's fallback × is gone (it sat on the "Private comments" tab); the player's own close is there.
    await expect.poll(() => page.locator('.vitrine-x').isVisible(), WAIT).toBe(false);
    await frame.locator('.host-controls').getByRole('button', { name: 'Close' }).waitFor(WAIT);
    // Add to cart goes to the retailer's basket, not to a Vitrine cart and checkout in the modal.
    await frame.locator('.player__panel li[data-product-uid="nordlys-ceramic-mug"] .product-card').click();
    await frame.getByRole('button', { name: 'Add to cart' }).click();
    await expect.poll(() => page.locator('[data-cart-count]').textContent(), WAIT).toBe('1');
    expect(await frame.locator('.player-cart__checkout').count()).toBe(0);
    // A reload of the iframe (its current address) is still the embedded player.
    await frame.locator('body').evaluate(() => location.reload());
    await connected(frame, 'hostCart');
    await context.close();
  });

  it("shows the host's product data (its name and price) instead of the catalogue's", async () => {
    const { context, page } = await openRetailer();
    const playerId = await initRecordedShow(
      page,
      { usableActions: ['GET_PRODUCT_DATA', 'UPDATE_CART_CONTENTS'] },
      [],
      { namePrefix: 'Shop name of', price: 111 },
    );
    const frame = frameOf(page, playerId);
    await connected(frame, 'hostCart');
    const mug = frame.locator('.player__panel li[data-product-uid="nordlys-ceramic-mug"]');
    await expect
      .poll(() => mug.locator('.product-card__name').textContent(), WAIT)
      .toBe('Shop name of NL-ceramic-mug');
    await expect.poll(() => mug.locator('.product-card__price').textContent(), WAIT).toMatch(/111[.,]00/);
    expect(await handled(page, playerId, 'get_user_product_data')).not.toHaveLength(0);

    // The demo retailer's members pay 10 % less: signing in changes the user, and the player asks again.
    await closePlayer(page, playerId);
    const inline = inlineFrame(page);
    await connected(inline, 'hostCart');
    await inline.locator('.mobile-menu button', { hasText: 'Products' }).click();
    const inlineMug = inline.locator(
      '.mobile-sheet li[data-product-uid="nordlys-ceramic-mug"] .product-card__price',
    );
    await expect.poll(() => inlineMug.textContent(), WAIT).toMatch(/179[.,]00/);
    await page.getByRole('button', { name: 'Sign in as a member' }).click();
    await expect.poll(() => inlineMug.textContent(), WAIT).toMatch(/161[.,]00/);
    await context.close();
  });

  it('a page the store does not allow cannot frame the player; malformed or huge messages are ignored', async () => {
    const context = await newContext();
    // A third origin framing the player: the store does not allow it, so the browser refuses to
    // render the player at all (frame-ancestors), whatever origin the page claims to be. The
    // player's own origin checks of messages (host-bridge tests) stay as the second line.
    const forger = await context.newPage();
    for (const url of [thirdOriginUrl, `${thirdOriginUrl}/?claim=${encodeURIComponent(retailerOrigin)}`]) {
      const refused = forger.waitForResponse((response) =>
        response.url().startsWith(`${playerOrigin}/widget/`),
      );
      await forger.goto(url);
      const framed = await refused;
      expect(framed.headers()['content-security-policy']).toMatch(/frame-ancestors 'self' [^;]*127\.0\.0\.1/);
      expect(framed.headers()['content-security-policy']).not.toContain(thirdOriginUrl);
      await expect
        .poll(() => forger.frames().some((frame) => frame.url().startsWith('chrome-error://')), WAIT)
        .toBe(true);
      expect(await forger.frameLocator('#player').locator('.player').count()).toBe(0);
      expect(await forger.evaluate(() => (window as unknown as { received: unknown[] }).received)).toEqual(
        [],
      );
    }

    // On the retailer: malformed, oversized and wrong-player messages are dropped, valid ones taken.
    const page = await open(context);
    const frame = inlineFrame(page);
    await connected(frame, 'hostCart');
    const playerId = new URL(
      (await page.locator('#live-player iframe').getAttribute('src')) ?? '',
    ).searchParams.get('playerId');
    await page.evaluate(
      ({ playerId, target }) => {
        const player = document.querySelector<HTMLIFrameElement>('#live-player iframe')!.contentWindow!;
        const post = (message: unknown) => player.postMessage(message, target);
        const cart = { lines: [], itemCount: 9 };
        post({
          vitrine: 1,
          playerId,
          type: 'host_cart_state_changed',
          payload: { lines: 'no', itemCount: 9 },
        });
        post({ vitrine: 2, playerId, type: 'host_cart_state_changed', payload: cart });
        post({ vitrine: 1, playerId: 'someone-else', type: 'host_cart_state_changed', payload: cart });
        post({
          vitrine: 1,
          playerId,
          type: 'host_cart_state_changed',
          payload: { ...cart, pad: 'x'.repeat(5_000_000) },
        });
        post(
          JSON.stringify({ vitrine: 1, playerId, type: 'host_cart_state_changed', payload: cart }).padEnd(
            5_000_000,
          ),
        );
        post('{not json');
        // The marker: it comes after the others, so once it shows they have all been handled.
        post({ vitrine: 1, playerId, type: 'language_change', payload: { language: 'da' } });
      },
      { playerId, target: playerOrigin },
    );
    await frame.locator('.mobile-menu button', { hasText: 'Produkter' }).waitFor(WAIT);
    expect(await frame.getByTestId('host-cart-count').first().textContent()).toBe('0');
    // Still running: a valid update is taken.
    await page.evaluate(
      ({ playerId, target }) =>
        document
          .querySelector<HTMLIFrameElement>('#live-player iframe')!
          .contentWindow!.postMessage(
            { vitrine: 1, playerId, type: 'host_cart_state_changed', payload: { lines: [], itemCount: 4 } },
            target,
          ),
      { playerId, target: playerOrigin },
    );
    await expect.poll(() => frame.getByTestId('host-cart-count').first().textContent(), WAIT).toBe('4');
    await context.close();
  });

  it('opens product links in a new tab by default (NEW_TAB) and in link mode shows "See in shop"', async () => {
    const { context, page } = await openRetailer();
    const playerId = await initRecordedShow(page, {
      usableActions: ['GET_PRODUCT_DATA'],
      supportedFeatures: { FORCE_BASKET_MODE: 'LINKS' },
    });
    // The retailer's integration answers product data with its own product pages as urls.
    await page.evaluate((id) => {
      const vitrine = window.Vitrine as unknown as {
        players(): {
          playerId: string;
          on(t: string, h: (p: { product_id: string }, r: (t: string, p: unknown) => void) => void): void;
        }[];
      };
      const player = vitrine.players().find((p) => p.playerId === id)!;
      player.on('get_user_product_data', (lookup, reply) =>
        reply('user_product_data', {
          product_id: lookup.product_id,
          url: `${location.origin}/?product=${lookup.product_id}`,
        }),
      );
    }, playerId);
    const frame = frameOf(page, playerId);
    await connected(frame, 'link');
    await frame.locator('.player__panel li[data-product-uid="nordlys-ceramic-mug"] .product-card').click();
    const popup = context.waitForEvent('page', WAIT);
    await frame.locator('.product-details__actions a.button', { hasText: 'See in shop' }).click();
    const shopTab = await popup;
    await shopTab.waitForURL(`${retailerUrl}/?product=NL-ceramic-mug`, WAIT);
    // The shopper stays on the page with the show.
    expect(page.url()).toBe(`${retailerUrl}/`);
    const [goTo] = await seen(page, playerId, 'go_to_url');
    expect(goTo?.payload).toEqual({ url: `${retailerUrl}/?product=NL-ceramic-mug`, newTab: true });
    await context.close();
  });

  it('keeps favourites in the host (TOGGLE_IS_FAVORITE); FAVORITES mode hides every cart feature', async () => {
    const { context, page } = await openRetailer();
    const playerId = await initRecordedShow(page, {
      usableActions: ['OPEN_CART', 'UPDATE_CART_CONTENTS', 'TOGGLE_IS_FAVORITE'],
      supportedFeatures: { FORCE_BASKET_MODE: 'FAVORITES' },
    });
    // The retailer's own favourites handler (retailer.js) stores the toggle and answers with it.
    await page.evaluate((id) => {
      const vitrine = window.Vitrine as unknown as {
        players(): { playerId: string; on(t: string, h: (p: unknown, r: unknown) => void): void }[];
      };
      const player = vitrine.players().find((p) => p.playerId === id)!;
      player.on('toggle_is_favorite', (payload, reply) => {
        const { product, isFavorite } = payload as { product: { product_id: string }; isFavorite: boolean };
        localStorage.setItem('e2e:favorites', JSON.stringify(isFavorite ? [product.product_id] : []));
        (reply as (t: string, p: unknown) => void)('user_product_data', {
          product_id: product.product_id,
          isFavorite,
        });
      });
    }, playerId);
    const frame = frameOf(page, playerId);
    await connected(frame, 'favorites');
    // No cart anywhere: no cart control, no add-to-cart in the product details.
    expect(await frame.locator('.host-controls__button--cart').count()).toBe(0);
    await frame.locator('.player__panel li[data-product-uid="nordlys-ceramic-mug"] .product-card').click();
    await frame.locator('.product-details').waitFor(WAIT);
    expect(await frame.getByRole('button', { name: 'Add to cart' }).count()).toBe(0);
    await frame.locator('.product-details').getByRole('link', { name: 'See in shop' }).waitFor(WAIT);
    // The favourite toggle goes through the host.
    await frame.locator('.product-details .link-button', { hasText: 'All products' }).click();
    const toggle = frame.locator('li[data-product-uid="nordlys-ceramic-mug"] .favorite-toggle');
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-pressed'), WAIT).toBe('true');
    await expect
      .poll(() => page.evaluate(() => localStorage.getItem('e2e:favorites')), WAIT)
      .toBe('["NL-ceramic-mug"]');
    await context.close();
  });

  it('tells the host it can share, its view size, and opens the host favourites (can_share, view_resized, show_favorites)', async () => {
    const { context, page } = await openRetailer();
    const record = ['can_share', 'view_resized', 'show_favorites'];
    const playerId = await initRecordedShow(
      page,
      { usableActions: ['TOGGLE_IS_FAVORITE'], supportedFeatures: { FORCE_BASKET_MODE: 'FAVORITES' } },
      record,
    );
    const frame = frameOf(page, playerId);
    await connected(frame, 'favorites');
    await expect
      .poll(() => handled(page, playerId, 'can_share'), WAIT)
      .toEqual([{ playerId, type: 'can_share', payload: {} }]);
    // The modal player fills the window: its view is the window's size, and follows a resize.
    await expect
      .poll(async () => (await handled(page, playerId, 'view_resized')).at(-1)?.payload, WAIT)
      .toEqual({ width: 1280, height: 900 });
    await page.setViewportSize({ width: 900, height: 700 });
    await expect
      .poll(async () => (await handled(page, playerId, 'view_resized')).at(-1)?.payload, WAIT)
      .toEqual({ width: 900, height: 700 });
    await saveScreenshot(page, 'embed-favorites-controls');
    // FAVORITES mode has no cart: the host's favourites take its place.
    await frame.locator('.host-controls').getByRole('button', { name: 'My favorites' }).click();
    await expect
      .poll(() => handled(page, playerId, 'show_favorites'), WAIT)
      .toEqual([{ playerId, type: 'show_favorites', payload: { eventUid: RECORDED_SHOW } }]);
    await context.close();
  });

  it('switches a multi-event player to the show the host activates (cache_activate_event)', async () => {
    const { context, page } = await openRetailer();
    const multi = await frameMultiEventWidget(page, 'multi', 'multi-1', [
      ['capabilities', { usableActions: [], emittableEvents: [], supportedFeatures: {} }],
      ['cache_preload_events', { eventIds: ['demo-kitchen-favourites'] }],
      ['cache_activate_event', { eventId: 'demo-kitchen-favourites' }],
    ]);
    await multi.locator('.player[data-show-state="recorded"]').waitFor(WAIT);
    await multi.locator('li[data-product-uid="nordlys-oak-board"]').waitFor(WAIT);
    expect(await multi.locator('.playlist button[aria-current="true"]').getAttribute('data-event-id')).toBe(
      RECORDED_SHOW,
    );
    await context.close();
  });

  it("follows live updates of the host's active stores and tells the host (set_active_store_ids → gallery_show_updated)", async () => {
    const { context, page } = await openRetailer();
    const gallery = await frameMultiEventWidget(page, 'gallery', 'gallery-1', [
      ['capabilities', { usableActions: [], emittableEvents: [], supportedFeatures: {} }],
      ['set_active_store_ids', { storeIds: ['demo-store'] }],
    ]);
    await gallery.locator('.player[data-host="on"]').waitFor(WAIT);
    await gallery.locator(`.playlist button[data-event-id="${RECORDED_SHOW}"]`).waitFor(WAIT);
    // The store saves the recorded show's campaign (unchanged values): its show is updated on-site.
    const shop = (await (
      await fetch(`${baseUrl}/reads/liveEvents.shop`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ pageUid: 'demo-store' }),
      })
    ).json()) as { vod: { id: string; campaign: { deadline: number | null; usingCheckout: boolean } }[] };
    const recorded = shop.vod.find((event) => event.id === RECORDED_SHOW);
    if (!recorded) throw new Error('the demo store has no recorded show');
    // Updates count from the moment the player subscribes (after set_active_store_ids): save until it hears one.
    await expect
      .poll(
        async () => {
          const response = await fetch(`${baseUrl}/admin/pages/demo-store/campaigns/${RECORDED_SHOW}`, {
            method: 'PUT',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${testServer().adminKey}` },
            body: JSON.stringify({ name: 'Kitchen favourites', ...recorded.campaign }),
          });
          expect(response.status).toBe(200);
          return (await seen(page, 'gallery-1', 'gallery_show_updated')).length;
        },
        { ...WAIT, interval: 1000 },
      )
      .toBeGreaterThan(0);
    const [updated] = await seen(page, 'gallery-1', 'gallery_show_updated');
    expect(updated).toMatchObject({ origin: playerOrigin, payload: { eventUid: RECORDED_SHOW } });
    await context.close();
  });

  it('lays out modal, fillParent and inline players', async () => {
    const { context, page } = await openRetailer();
    // inline: the container's width at the retailer's 9:16.
    const container = await box(page, '#live-player');
    const inline = await box(page, '#live-player iframe');
    expect(inline.x).toBeCloseTo(container.x, 0);
    expect(inline.width).toBeCloseTo(container.width, 0);
    expect(inline.height).toBeCloseTo((container.width * 16) / 9, 0);
    // The player's own controls end its title bar: the show's title stops before them, once the
    // layout has settled (a busy machine once measured it between the controls' arrival and the
    // title's shrinking).
    const inlinePlayer = inlineFrame(page);
    await connected(inlinePlayer, 'hostCart');
    const titleGap = async () => {
      const title = await inlinePlayer.locator('.video-stage__title').boundingBox();
      const controls = await inlinePlayer.locator('.host-controls').boundingBox();
      return title && controls ? controls.x - (title.x + title.width) : null;
    };
    await expect.poll(titleGap, WAIT).toBeGreaterThanOrEqual(0);

    // fillParent: exactly the box the page gives it.
    await page.evaluate(() => {
      const slot = document.createElement('div');
      slot.id = 'fill-slot';
      slot.style.cssText = 'position:absolute;left:100px;top:150px;width:640px;height:360px';
      document.body.append(slot);
    });
    const fillId = await initPlayer(page, {
      pageUid: 'demo-store',
      campaignUid: LIVE_SHOW,
      mode: 'fillParent',
      container: '#fill-slot',
    });
    await readyOn(page, fillId);
    expect(await box(page, `#fill-slot iframe`)).toEqual({ x: 100, y: 150, width: 640, height: 360 });

    // modal: the whole window, the page behind it does not scroll, Escape closes it.
    const modalId = await initPlayer(page, { pageUid: 'demo-store', campaignUid: LIVE_SHOW, mode: 'modal' });
    await readyOn(page, modalId);
    expect(await box(page, `iframe[src*="${modalId}"]`)).toEqual({ x: 0, y: 0, width: 1280, height: 900 });
    expect(await page.evaluate(() => document.documentElement.style.overflow)).toBe('hidden');
    // The SDK's fallback close gives way to the ready player's own controls.
    expect(await page.locator('.vitrine-x').isVisible()).toBe(false);
    await saveScreenshot(page, 'embed-modal');
    await page.keyboard.press('Escape');
    await page.locator(`iframe[src*="${modalId}"]`).waitFor({ state: 'detached', ...WAIT });
    expect(await page.evaluate(() => document.documentElement.style.overflow)).toBe('');
    await context.close();
  });

  it('fits an inline player into a host window shorter than its frame (parent_resize), and back', async () => {
    const { context, page } = await openRetailer();
    const frame = inlineFrame(page);
    await connected(frame, 'hostCart');
    const frameHeight = (await box(page, '#live-player iframe')).height;
    // The demo's 9:16 inline player is narrow: the phone layout, at its frame's full height.
    await frame.locator('.player[data-layout="phone"]').waitFor(WAIT);
    expect((await frame.locator('.player').boundingBox())?.height).toBeCloseTo(frameHeight, 0);

    // The shopper's window turns shorter than the frame: the SDK tells the player the window's size
    // and the player shrinks to it.
    const shortHeight = Math.round(frameHeight * 0.7);
    await page.setViewportSize({ width: 1280, height: shortHeight });
    const player = frame.locator('.player');
    await expect.poll(async () => (await player.boundingBox())?.height, WAIT).toBeCloseTo(shortHeight, 0);
    // Measured from the frame's top: scrolled to the player, the shopper sees its menu.
    const iframeTop = (await box(page, '#live-player iframe')).y;
    const menu = await frame.locator('.mobile-menu').boundingBox();
    expect(menu && menu.y + menu.height - iframeTop).toBeLessThanOrEqual(shortHeight);
    expect(menu && menu.y + menu.height - iframeTop).toBeGreaterThan(0);
    await saveScreenshot(page, 'embed-inline-short-window');

    // The window grows again: the player takes its whole frame back.
    await page.setViewportSize({ width: 1280, height: 900 });
    await expect.poll(async () => (await player.boundingBox())?.height, WAIT).toBeCloseTo(frameHeight, 0);
    await context.close();
  });

  it('minimizes to the corner and back from the player', async () => {
    const { context, page } = await openRetailer();
    const frame = inlineFrame(page);
    await connected(frame, 'hostCart');
    const inlineBox = await box(page, '#live-player iframe');
    await frame.getByRole('button', { name: 'Minimize player' }).click();
    // The SDK's default corner: bottom right, 20 px margins, 180 × 320.
    await expect
      .poll(() => box(page, '#live-player iframe'), WAIT)
      .toEqual({ x: 1280 - 20 - 180, y: 900 - 20 - 320, width: 180, height: 320 });
    await frame.locator('.player[data-minimized="true"]').waitFor(WAIT);
    await saveScreenshot(page, 'embed-minimized');
    await frame.getByRole('button', { name: 'Enlarge player' }).click();
    await expect.poll(() => box(page, '#live-player iframe'), WAIT).toEqual(inlineBox);
    await frame.locator('.player[data-minimized="false"]').waitFor(WAIT);
    await context.close();
  });

  it('keeps a minimized player across pages of the retailer: same show, near the same time', async () => {
    const { context, page } = await openRetailer();
    // The retailer's own integration options (cart, user, product data, same-tab links).
    const playerId = await initRecordedShow(page, {
      usableActions: ['OPEN_CART', 'GET_CART_CONTENTS', 'UPDATE_CART_CONTENTS'],
      supportedFeatures: { MINIMIZED_PLAYER: true, NAVIGATION: 'SAME_TAB' },
    });
    const frame = frameOf(page, playerId);
    await connected(frame, 'hostCart');
    await frame.locator('video').evaluate(async (video: HTMLVideoElement) => {
      video.muted = true;
      video.currentTime = 5;
      await video.play();
    });
    await frame.getByRole('button', { name: 'Minimize player' }).click();
    await frame.locator('.player[data-minimized="true"]').waitFor(WAIT);
    // The player reports its position every 2 s while it plays; wait for a report past 5 s.
    await page.waitForFunction(
      (id) =>
        window.__seen.some(
          (m) =>
            m.playerId === id && m.type === 'playback_position' && (m.payload as { time: number }).time > 5.5,
        ),
      playerId,
      WAIT,
    );
    const leftAt = await frame.locator('video').evaluate((video: HTMLVideoElement) => video.currentTime);
    const leftWall = Date.now();
    await page.locator('a.cart-link').click();
    await page.waitForURL(`${retailerUrl}/cart.html`, WAIT);

    // The next page: the same player (same id) in the corner, on the same show and time, playing.
    const restored = page.locator(`iframe[src*="playerId=${playerId}"]`);
    await restored.waitFor(WAIT);
    const src = new URL((await restored.getAttribute('src')) ?? '');
    expect(src.pathname).toBe(`/widget/demo-store/campaign/${RECORDED_SHOW}/event/${RECORDED_SHOW}`);
    const next = frameOf(page, playerId);
    await next.locator('.player[data-minimized="true"]').waitFor(WAIT);
    await expect
      .poll(() => box(page, `iframe[src*="playerId=${playerId}"]`), WAIT)
      .toEqual({ x: 1080, y: 560, width: 180, height: 320 });
    await next.locator('video').evaluate(
      (video: HTMLVideoElement) =>
        new Promise<void>((resolve) => {
          if (!video.paused && video.currentTime > 0) resolve();
          else video.addEventListener('playing', () => resolve(), { once: true });
        }),
    );
    const resumedAt = await next.locator('video').evaluate((video: HTMLVideoElement) => video.currentTime);
    const elapsed = (Date.now() - leftWall) / 1000;
    // Near the same time: no earlier than where it was left (less the 2 s report interval), no later than it could have played.
    expect(resumedAt).toBeGreaterThan(leftAt - 2.5);
    expect(resumedAt).toBeLessThan(leftAt + elapsed + 2.5);
    expect(await page.locator('[data-cart]').textContent()).toContain('Your basket is empty.');
    await saveScreenshot(page, 'embed-restored-on-cart-page');

    // Enlarged again, it is this page's modal player; closing it ends the journey.
    await next.getByRole('button', { name: 'Enlarge player' }).click();
    await expect
      .poll(() => box(page, `iframe[src*="playerId=${playerId}"]`), WAIT)
      .toEqual({ x: 0, y: 0, width: 1280, height: 900 });
    await next.getByRole('button', { name: 'Close player' }).click();
    await restored.waitFor({ state: 'detached', ...WAIT });
    await page.goto(`${retailerUrl}/cart.html`);
    await page.locator('[data-cart]').waitFor();
    expect(await page.locator('iframe').count()).toBe(0);
    await context.close();
  });
});
