// The built loader (dist/sdk.js as esbuild makes it) run in a fake browser: the global, the iframe
// address, the sender checks, capabilities, replies, layout modes and the minimized player's
// return on the next page.
import { beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { bundle } from '../build.mjs';
import {
  type FakeBrowser,
  type FakeElement,
  type FakeWindow,
  fakeBrowser,
} from './test-support/fake-browser.ts';

const PLAYER = 'https://live.example';
const HOST = 'https://shop.example';

let code: string;
beforeAll(async () => {
  code = await bundle('sdk.js', { write: false });
});

function loaded(
  options?: Parameters<typeof fakeBrowser>[0],
): FakeBrowser & { vitrine: NonNullable<FakeBrowser['window']['Vitrine']> } {
  const browser = fakeBrowser(options);
  browser.run(code);
  return Object.assign(browser, { vitrine: browser.window.Vitrine! });
}

const envelope = (playerId: string, type: string, payload?: unknown) => ({
  vitrine: 1,
  playerId,
  type,
  payload,
});

const frameWindow = (player: { iframe: unknown }) => (player.iframe as FakeElement).contentWindow!;

function ready(browser: FakeBrowser, player: { playerId: string; iframe: unknown }) {
  const win = frameWindow(player);
  browser.message(
    win,
    PLAYER,
    envelope(player.playerId, 'player_ready', { pageUid: 'demo-store', campaignUid: null, eventUid: null }),
  );
  return win;
}

describe('the /sdk.js loader', () => {
  it('defines window.Vitrine once: loading it again keeps the instance and adds no listener', () => {
    const browser = loaded();
    const first = browser.window.Vitrine;
    browser.run(code);
    expect(browser.window.Vitrine).toBe(first);
    expect(browser.listeners.window.message).toHaveLength(1);
    expect(browser.listeners.document.keydown).toHaveLength(1);
    expect(first?.version).toBe('0.1.0');
  });

  it('puts the iframe on the widget route of the script origin, with what the player reads', () => {
    const { vitrine } = loaded();
    const campaign = new URL(
      vitrine.init({ pageUid: 'demo-store', campaignUid: 'autumn', mode: 'modal', context: 'on_site' }).iframe
        .src,
    );
    expect(campaign.origin).toBe(PLAYER);
    expect(campaign.pathname).toBe('/widget/demo-store/autumn');
    expect(Object.fromEntries(campaign.searchParams)).toEqual({
      embed: '1',
      playerId: expect.stringMatching(/^vp-/),
      hostOrigin: HOST,
      context: 'on_site',
      mode: 'modal',
    });
    const event = new URL(
      vitrine.init({
        pageUid: 'demo-store',
        campaignUid: 'autumn',
        eventUid: 'ev 1',
        mode: 'modal',
        language: 'da',
      }).iframe.src,
    );
    expect(event.pathname).toBe('/widget/demo-store/campaign/autumn/event/ev%201');
    expect(event.searchParams.get('lang')).toBe('da');
    expect(new URL(vitrine.init({ pageUid: 'demo-store' }).iframe.src).pathname).toBe('/widget/demo-store/');
  });

  it('gives every player its own id and iframe', () => {
    const { vitrine, iframes } = loaded();
    const a = vitrine.init({ pageUid: 'demo-store' });
    const b = vitrine.init({ pageUid: 'demo-store' });
    expect(a.playerId).not.toBe(b.playerId);
    expect(iframes()).toHaveLength(2);
    expect(vitrine.players().map((p) => p.playerId)).toEqual([a.playerId, b.playerId]);
  });

  it('rejects bad options with a message naming them', () => {
    const { vitrine } = loaded();
    expect(() => vitrine.init({ pageUid: '' })).toThrow(/pageUid/);
    expect(() => vitrine.init({ pageUid: 'p', eventUid: 'e' })).toThrow(/campaignUid/);
    expect(() => vitrine.init({ pageUid: 'p', mode: 'inline', container: '#missing' })).toThrow(/container/);
    expect(() => vitrine.init({ pageUid: 'p', mode: 'popup' as never })).toThrow(/mode/);
    expect(() => vitrine.init({ pageUid: 'p', usableActions: ['FLY'] as never })).toThrow(/usableActions/);
    const noOrigin = fakeBrowser({ scriptSrc: null });
    noOrigin.run(code);
    expect(() => noOrigin.window.Vitrine!.init({ pageUid: 'p' })).toThrow(/origin/);
  });

  it('answers player_ready with the capabilities, posted only to the player origin', () => {
    const browser = loaded();
    const player = browser.vitrine.init({
      pageUid: 'demo-store',
      usableActions: ['OPEN_CART', 'GET_PRODUCT_DATA'],
      supportedFeatures: { NAVIGATION: 'SAME_TAB', SOMETHING: true } as never,
      handlers: { host_open_cart: () => {}, get_user_product_data: () => {} },
    });
    const win = ready(browser, player);
    expect(win.posted[0]).toEqual({
      targetOrigin: PLAYER,
      message: envelope(player.playerId, 'capabilities', {
        usableActions: ['OPEN_CART', 'GET_PRODUCT_DATA'],
        emittableEvents: ['host_open_cart', 'get_user_product_data'],
        supportedFeatures: { NAVIGATION: 'SAME_TAB' },
      }),
    });
    expect(win.types()).toEqual(['capabilities', 'parent_resize']);
    expect(win.posted.every((p) => p.targetOrigin === PLAYER)).toBe(true);
  });

  it('ignores messages from another origin, another window, another player id or of unknown shape', () => {
    const browser = loaded();
    const seen: unknown[] = [];
    const player = browser.vitrine.init({
      pageUid: 'demo-store',
      handlers: { host_open_cart: (p) => seen.push(p) },
    });
    const win = frameWindow(player);
    const other = new (win.constructor as new () => FakeWindow)();
    browser.message(win, 'https://evil.example', envelope(player.playerId, 'host_open_cart', {}));
    browser.message(other, PLAYER, envelope(player.playerId, 'host_open_cart', {}));
    browser.message(null, PLAYER, envelope(player.playerId, 'host_open_cart', {}));
    browser.message(win, PLAYER, envelope('vp-someone-else', 'host_open_cart', {}));
    browser.message(win, PLAYER, { ...envelope(player.playerId, 'host_open_cart', {}), vitrine: 2 });
    browser.message(win, PLAYER, envelope(player.playerId, 'steal_cookies', {}));
    browser.message(win, PLAYER, envelope(player.playerId, 'host_open_cart', 'x'.repeat(70_000)));
    browser.message(win, PLAYER, JSON.stringify(envelope(player.playerId, 'host_open_cart', {})));
    expect(seen).toEqual([]);
    expect(win.posted).toEqual([]);
    browser.message(win, PLAYER, envelope(player.playerId, 'host_open_cart'));
    expect(seen).toEqual([{}]);
  });

  it('dispatches to the handler with a reply to the same player; holds sends until the player is ready', () => {
    const browser = loaded();
    const player = browser.vitrine.init({
      pageUid: 'demo-store',
      usableActions: ['GET_PRODUCT_DATA'],
      handlers: {
        get_user_product_data: ({ product_id }, reply) =>
          reply('user_product_data', { product_id, price: 549 }),
      },
    });
    player.send('user_account_data', { userAccountId: 'u1', name: 'Ida' });
    const win = frameWindow(player);
    expect(win.posted).toEqual([]);
    ready(browser, player);
    expect(win.types()).toEqual(['capabilities', 'parent_resize', 'user_account_data']);
    browser.message(
      win,
      PLAYER,
      envelope(player.playerId, 'get_user_product_data', { product_id: 'p1', sku: null, url: null }),
    );
    expect(win.posted.at(-1)).toEqual({
      targetOrigin: PLAYER,
      message: envelope(player.playerId, 'user_product_data', { product_id: 'p1', price: 549 }),
    });
    // A payload missing a required field never reaches the handler.
    browser.message(win, PLAYER, envelope(player.playerId, 'get_user_product_data', { sku: 'x' }));
    expect(win.posted).toHaveLength(4);
    expect(() => player.send('nope' as never, {} as never)).toThrow(/unknown message type/);
  });

  it('logs a failing handler and goes on', async () => {
    const browser = loaded();
    const player = browser.vitrine.init({
      pageUid: 'demo-store',
      handlers: {
        host_open_cart: () => {
          throw new Error('boom');
        },
        host_request_cart_state: async () => {
          throw new Error('async boom');
        },
      },
    });
    const win = ready(browser, player);
    browser.message(win, PLAYER, envelope(player.playerId, 'host_open_cart', {}));
    browser.message(win, PLAYER, envelope(player.playerId, 'host_request_cart_state', {}));
    // The async handler's rejection is reported once its promise settles.
    await vi.waitFor(() =>
      expect(browser.errors.map((args) => String((args[1] as Error).message))).toEqual([
        'boom',
        'async boom',
      ]),
    );
  });

  it('tells the player about handlers added later by sending the capabilities again', () => {
    const browser = loaded();
    const player = browser.vitrine.init({ pageUid: 'demo-store' });
    const win = ready(browser, player);
    const off = player.on('track_event', () => {});
    expect(win.posted.at(-1)?.message.payload).toMatchObject({ emittableEvents: ['track_event'] });
    off();
    expect(win.posted.at(-1)?.message.payload).toMatchObject({ emittableEvents: [] });
  });

  it('modal: covers the window, locks scrolling, closes on Escape and on the close button', () => {
    // The player is removed after its closing animation: a fake clock runs past it instead of a wait.
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const browser = loaded();
    const player = browser.vitrine.init({ pageUid: 'demo-store', mode: 'modal' });
    const root = browser.body.children[0]!;
    expect(root.className).toBe('vitrine-root vitrine-modal');
    expect(root.attributes['aria-modal']).toBe('true');
    expect(browser.html.style.overflow).toBe('hidden');
    // The page's close button until the player is ready; then the player's own controls take over.
    const fallbackClose = root.findAll('button')[0]!;
    expect(fallbackClose.hidden).toBe(false);
    const win = ready(browser, player);
    expect(fallbackClose.hidden).toBe(true);
    browser.keydown('Escape');
    expect(win.types().at(-1)).toBe('close');
    expect(root.style.display).toBe('none');
    expect(browser.html.style.overflow).toBe('');
    expect(root.connected).toBe(true);
    vi.runAllTimers();
    expect(root.connected).toBe(false);
    expect(browser.vitrine.players()).toEqual([]);

    browser.vitrine.init({ pageUid: 'demo-store', mode: 'modal' });
    const button = browser.body.children[0]!.findAll('button')[0]!;
    button.onclick?.();
    expect(browser.body.children[0]!.style.display).toBe('none');
  });

  it('fillParent and inline go into their container; inline keeps its aspect ratio', () => {
    const browser = loaded();
    const fill = new (browser.body.constructor as new (tag: string) => FakeElement)('div');
    const inline = new (browser.body.constructor as new (tag: string) => FakeElement)('div');
    (browser.window.selectors as Map<string, FakeElement>).set('#inline', inline);
    browser.vitrine.init({ pageUid: 'demo-store', mode: 'fillParent', container: fill as never });
    browser.vitrine.init({
      pageUid: 'demo-store',
      mode: 'inline',
      container: '#inline',
      aspectRatio: '9:16',
    });
    expect(fill.children[0]!.className).toBe('vitrine-root vitrine-fill');
    expect(inline.children[0]!.className).toBe('vitrine-root vitrine-inline');
    expect(inline.children[0]!.style.aspectRatio).toBe('9 / 16');
    expect(browser.html.style.overflow).toBe('');
  });

  it('minimizes to the corner on the player’s word, maximizes back, and closes when the player closes', () => {
    const browser = loaded();
    const player = browser.vitrine.init({ pageUid: 'demo-store', mode: 'modal' });
    const win = ready(browser, player);
    const root = browser.body.children[0]!;
    const box = root.children[0]!;
    browser.message(win, PLAYER, envelope(player.playerId, 'minimize', {}));
    expect(player.minimized).toBe(true);
    expect(box.style).toMatchObject({ width: '180px', height: '320px', right: '20px', bottom: '20px' });
    expect(browser.html.style.overflow).toBe('');
    expect(JSON.parse(browser.storage.get('vitrine:minimized')!).playerId).toBe(player.playerId);
    browser.message(win, PLAYER, envelope(player.playerId, 'maximize', {}));
    expect(player.minimized).toBe(false);
    expect(box.style).toMatchObject({ width: '', height: '', right: '', bottom: '' });
    expect(browser.storage.has('vitrine:minimized')).toBe(false);
    browser.message(win, PLAYER, envelope(player.playerId, 'close', {}));
    expect(root.connected).toBe(false);
  });

  it('keeps the player maximized when the host does not offer MINIMIZED_PLAYER', () => {
    const browser = loaded();
    const player = browser.vitrine.init({
      pageUid: 'demo-store',
      supportedFeatures: { MINIMIZED_PLAYER: false },
    });
    const win = ready(browser, player);
    browser.message(win, PLAYER, envelope(player.playerId, 'minimize', {}));
    expect(player.minimized).toBe(false);
  });

  it('brings a minimized player back on the next page of the tab, with the handlers given there', () => {
    const first = loaded();
    const player = first.vitrine.init({
      pageUid: 'demo-store',
      campaignUid: 'autumn',
      mode: 'inline',
      container: new (first.body.constructor as new (tag: string) => FakeElement)('div') as never,
      usableActions: ['OPEN_CART'],
      minimized: { horizontal: 'left', margin: 12 },
    });
    player.minimize();
    // The next page: a new document in the same tab.
    const next = loaded({ storage: first.storage });
    const [iframe] = next.iframes();
    expect(iframe).toBeDefined();
    const url = new URL(iframe!.src);
    expect(url.pathname).toBe('/widget/demo-store/autumn');
    expect(url.searchParams.get('playerId')).toBe(player.playerId);
    expect(url.searchParams.get('minimized')).toBe('1');
    expect(url.searchParams.get('mode')).toBe('modal');
    const box = next.body.children[0]!.children[0]!;
    expect(box.style).toMatchObject({ left: '12px', bottom: '12px' });
    const cartOpened: unknown[] = [];
    const restored = next.vitrine.restore({ handlers: { host_open_cart: (p) => cartOpened.push(p) } });
    expect(restored?.playerId).toBe(player.playerId);
    expect(next.iframes()).toHaveLength(1);
    const win = ready(next, restored!);
    expect(win.posted[0]?.message.payload).toEqual({
      usableActions: ['OPEN_CART'],
      emittableEvents: ['host_open_cart'],
      supportedFeatures: {},
    });
    expect(win.types()).toContain('minimize');
    next.message(win, PLAYER, envelope(player.playerId, 'host_open_cart', {}));
    expect(cartOpened).toHaveLength(1);
    // Saved by another Vitrine server: not ours to restore.
    expect(loaded({ storage: first.storage, scriptSrc: 'https://other.example/sdk.js' }).iframes()).toEqual(
      [],
    );
  });

  it("minimizes to the page's configured corner unless init names one", () => {
    const browser = loaded();
    const pageBox = { horizontal: 'left', vertical: 'top', horizontalMargin: 8, verticalMargin: 30 };
    const readyWithBox = (player: { playerId: string; iframe: unknown }) => {
      const win = frameWindow(player);
      browser.message(
        win,
        PLAYER,
        envelope(player.playerId, 'player_ready', {
          pageUid: 'demo-store',
          campaignUid: null,
          eventUid: null,
          minimizedBox: pageBox,
        }),
      );
      browser.message(win, PLAYER, envelope(player.playerId, 'minimize', {}));
    };
    const bySettings = browser.vitrine.init({ pageUid: 'demo-store' });
    readyWithBox(bySettings);
    expect(browser.body.children[0]!.children[0]!.style).toMatchObject({ left: '8px', top: '30px' });
    expect(bySettings.minimized).toBe(true);

    const byInit = browser.vitrine.init({ pageUid: 'demo-store', minimized: { margin: 12 } });
    readyWithBox(byInit);
    expect(browser.body.children[1]!.children[0]!.style).toMatchObject({ right: '12px', bottom: '12px' });
  });

  it('brings the player back at the show and time it last reported, playing if it was', () => {
    const first = loaded();
    const player = first.vitrine.init({ pageUid: 'demo-store', mode: 'modal' });
    const win = ready(first, player);
    const report = (payload: object) =>
      first.message(win, PLAYER, envelope(player.playerId, 'playback_position', payload));
    report({ campaignUid: 'kitchen', eventUid: 'kitchen-ev', time: 40, playing: true });
    player.minimize();
    // Reports while minimized replace the saved one; a malformed one is dropped unread.
    report({ campaignUid: 'kitchen', eventUid: 'kitchen-ev', time: 42, playing: false });
    report({ campaignUid: 'kitchen', eventUid: 'kitchen-ev', time: 'late', playing: true });
    const paused = new URL(loaded({ storage: first.storage }).iframes()[0]!.src);
    expect(paused.pathname).toBe('/widget/demo-store/campaign/kitchen/event/kitchen-ev');
    expect(paused.searchParams.get('resumeEvent')).toBe('kitchen-ev');
    expect(paused.searchParams.get('resumeAt')).toBe('42');
    expect(paused.searchParams.has('autoplay')).toBe(false);

    report({ campaignUid: 'kitchen', eventUid: 'kitchen-ev', time: 50, playing: true });
    const playing = new URL(loaded({ storage: first.storage }).iframes()[0]!.src);
    expect(playing.searchParams.get('autoplay')).toBe('1');
    // The video went on playing between the report and the next page.
    expect(Number(playing.searchParams.get('resumeAt'))).toBeGreaterThanOrEqual(50);
    expect(Number(playing.searchParams.get('resumeAt'))).toBeLessThan(52);
  });

  it('navigates only to http(s) URLs on go_to_url, minimizing first for a same-tab link', () => {
    const browser = loaded();
    const player = browser.vitrine.init({ pageUid: 'demo-store' });
    const win = ready(browser, player);
    browser.message(
      win,
      PLAYER,
      envelope(player.playerId, 'go_to_url', { url: 'javascript:alert(1)', newTab: false }),
    );
    browser.message(
      win,
      PLAYER,
      envelope(player.playerId, 'go_to_url', { url: 'https://x.example/a', newTab: true }),
    );
    expect(browser.navigations).toEqual([]);
    expect(browser.opened).toEqual(['https://x.example/a']);
    browser.message(win, PLAYER, envelope(player.playerId, 'go_to_url', { url: '/cart', newTab: false }));
    expect(browser.navigations).toEqual([`${HOST}/cart`]);
    expect(player.minimized).toBe(true);
    expect(win.types().at(-1)).toBe('minimize');
  });
});
