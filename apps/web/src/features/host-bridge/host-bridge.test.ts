import { HOST_ACTIVE_STORES_MAX, HOST_PRODUCT_DATA_TIMEOUT_MS } from '@vitrine/domain';
import type { HostCapabilities, ProductLookup } from '@vitrine/protocol';
import { HOST_PROTOCOL_VERSION } from '@vitrine/protocol/vocabulary';
import { describe, expect, it } from 'vitest';
import { productEntry } from './bridge-state.ts';
import type { EmbedParams } from './embed-params.ts';
import { type BridgeDeps, createHostBridge, type HostCommand } from './host-bridge.ts';
import type { IncomingMessage } from './host-messages.ts';
import { storeIdBatches } from './store-id-batches.ts';

const PARAMS: EmbedParams = {
  playerId: 'player-1',
  hostOrigin: 'https://shop.example',
  context: 'on_site',
  mode: 'modal',
  resume: null,
};
const READY = { pageUid: 'demo-store', campaignUid: 'c1', eventUid: 'e1' };
const lookup = (id: string): ProductLookup => ({ product_id: id, sku: null, url: null });

/** A bridge on a fake window: what it posts, a way to deliver host messages, and its timers. */
function harness(allowedOrigins: readonly string[] | Error = ['https://shop.example/']) {
  const posted: { message: { type: string; payload: unknown }; targetOrigin: string }[] = [];
  const warnings: string[] = [];
  const timers: { callback: () => void; ms: number }[] = [];
  let handler: ((event: IncomingMessage) => void) | null = null;
  const parent = {
    postMessage(message: unknown, targetOrigin: string) {
      posted.push({ message: message as { type: string; payload: unknown }, targetOrigin });
    },
  };
  const deps: BridgeDeps = {
    parent,
    listen(listener) {
      handler = listener;
      return () => {
        handler = null;
      };
    },
    allowedOrigins: () =>
      allowedOrigins instanceof Error ? Promise.reject(allowedOrigins) : Promise.resolve(allowedOrigins),
    changeLanguage: (language) => warnings.push(`language ${language}`),
    setTimer: (callback, ms) => timers.push({ callback, ms }),
    log: { warn: (message) => warnings.push(message), debug: () => undefined, failure: () => undefined },
  };
  const bridge = createHostBridge(PARAMS, deps);
  // The fake dependencies answer at once (resolved promises): running the queued promise callbacks
  // is all it takes for the bridge to act on them; no time needs to pass.
  const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
  const deliver = (type: string, payload: unknown, overrides: Partial<IncomingMessage> = {}) =>
    handler?.({
      origin: 'https://shop.example',
      source: parent,
      data: { vitrine: HOST_PROTOCOL_VERSION, playerId: 'player-1', type, payload },
      ...overrides,
    });
  const types = () => posted.map((entry) => entry.message.type);
  return { bridge, posted, types, warnings, timers, deliver, settle, listening: () => handler !== null };
}

const capabilities = (
  usableActions: HostCapabilities['usableActions'],
  extra: Partial<HostCapabilities> = {},
) => ({
  usableActions,
  emittableEvents: [],
  supportedFeatures: {},
  ...extra,
});

describe('host bridge', () => {
  it('stays off, listening to nothing and posting nothing, when the host origin is not allowed', async () => {
    const h = harness(['https://other.example']);
    h.bridge.ready(READY);
    h.bridge.send('close', {});
    await h.settle();
    expect(h.bridge.getState().status).toBe('off');
    expect(h.listening()).toBe(false);
    expect(h.posted).toEqual([]);
    expect(h.warnings).toHaveLength(1);
  });

  it('stays off when the allowed origins cannot be read', async () => {
    const h = harness(new Error('offline'));
    h.bridge.ready(READY);
    await h.settle();
    expect(h.bridge.getState().status).toBe('off');
    expect(h.posted).toEqual([]);
  });

  it('sends player_ready once, to the host origin only, then waits for the capabilities', async () => {
    const h = harness();
    h.bridge.ready(READY);
    h.bridge.ready({ ...READY, eventUid: 'e2' });
    h.bridge.announce('content_loaded', 'e1');
    await h.settle();
    expect(h.bridge.getState().status).toBe('on');
    expect(h.types()).toEqual(['player_ready']);
    expect(h.posted[0]).toEqual({
      message: { vitrine: 1, playerId: 'player-1', type: 'player_ready', payload: READY },
      targetOrigin: 'https://shop.example',
    });
  });

  it('sends the queued messages the capabilities allow once they arrive', async () => {
    const h = harness();
    h.bridge.ready(READY);
    h.bridge.announce('content_loaded', 'e1');
    h.bridge.announce('content_loaded', 'e1');
    h.bridge.send('host_open_cart', {});
    h.bridge.send('toggle_is_favorite', { product: lookup('p1'), isFavorite: true, eventUid: 'e1' });
    await h.settle();
    h.deliver('capabilities', capabilities(['OPEN_CART', 'GET_CART_CONTENTS']));
    expect(h.types()).toEqual([
      'player_ready',
      'content_loaded',
      'host_open_cart',
      'host_request_cart_state',
    ]);
    h.bridge.send('host_cart_state_changed', { product_id: 'p1', variant_id: null, quantity: 1 });
    h.bridge.send('go_to_url', { url: 'https://shop.example/p1', newTab: true });
    expect(h.types().slice(4)).toEqual(['go_to_url']);
  });

  it('ignores messages from other origins, windows and players', async () => {
    const h = harness();
    h.bridge.ready(READY);
    await h.settle();
    h.deliver('capabilities', capabilities(['OPEN_CART']), { origin: 'https://evil.example' });
    h.deliver('capabilities', capabilities(['OPEN_CART']), { source: {} });
    h.deliver('capabilities', capabilities(['OPEN_CART']), {
      data: { vitrine: 1, playerId: 'player-2', type: 'capabilities', payload: capabilities(['OPEN_CART']) },
    });
    expect(h.bridge.getState().capabilities).toBeNull();
  });

  it('asks for product data as a list when the host takes lists: queued → pending → loaded', async () => {
    const h = harness();
    h.bridge.ready(READY);
    h.bridge.requestProductData([lookup('p1'), lookup('p2')]);
    await h.settle();
    expect(productEntry(h.bridge.getState(), 'p1')?.state).toBe('queued');
    h.deliver('capabilities', capabilities(['GET_PRODUCT_DATA', 'GET_PRODUCT_DATA_LIST']));
    await h.settle();
    expect(h.posted.at(-1)?.message).toMatchObject({
      type: 'get_user_product_data_list',
      payload: { products: [lookup('p1'), lookup('p2')] },
    });
    expect(productEntry(h.bridge.getState(), 'p1')?.state).toBe('pending');
    h.deliver('user_product_data_list', {
      products: [
        { product_id: 'p1', name: 'Host name', price: 10, isFavorite: true },
        { product_id: 'unasked', name: 'Injected' },
      ],
    });
    const state = h.bridge.getState();
    expect(productEntry(state, 'p1')).toEqual({
      state: 'loaded',
      data: { product_id: 'p1', name: 'Host name', price: 10, isFavorite: true },
    });
    expect(productEntry(state, 'p2')?.state).toBe('pending');
    expect(state.productData).not.toHaveProperty('unasked');
    expect(state.favorites).toEqual({ p1: true });
  });

  it('asks one product at a time without GET_PRODUCT_DATA_LIST, and gives up on silent hosts', async () => {
    const h = harness();
    h.bridge.ready(READY);
    await h.settle();
    h.deliver('capabilities', capabilities(['GET_PRODUCT_DATA']));
    h.bridge.requestProductData([lookup('p1'), lookup('p2')]);
    h.bridge.requestProductData([lookup('p1')]);
    await h.settle();
    expect(h.types().filter((type) => type === 'get_user_product_data')).toHaveLength(2);
    const timer = h.timers.filter((entry) => entry.ms === HOST_PRODUCT_DATA_TIMEOUT_MS).at(-1);
    timer?.callback();
    expect(productEntry(h.bridge.getState(), 'p2')).toEqual({ state: 'loaded', data: null });
  });

  it('forgets product requests the host cannot answer', async () => {
    const h = harness();
    h.bridge.ready(READY);
    h.bridge.requestProductData([lookup('p1')]);
    await h.settle();
    h.deliver('capabilities', capabilities([]));
    await h.settle();
    expect(h.bridge.getState().requests.states).toEqual({});
    expect(h.types()).toEqual(['player_ready']);
  });

  it('re-asks for product data when the user account changes, and ignores user data it did not ask for', async () => {
    const h = harness();
    h.bridge.ready(READY);
    await h.settle();
    h.deliver('capabilities', capabilities(['GET_PRODUCT_DATA_LIST', 'GET_USER_DATA']));
    h.bridge.requestProductData([lookup('p1')]);
    await h.settle();
    h.deliver('user_product_data', { product_id: 'p1', price: 5 });
    h.deliver('user_account_data', { userAccountId: 'user-7', name: 'Ada' });
    let state = h.bridge.getState();
    expect(state.user).toEqual({ userAccountId: 'user-7', name: 'Ada' });
    expect(state.productData).toEqual({});
    await h.settle();
    state = h.bridge.getState();
    expect(productEntry(state, 'p1')?.state).toBe('pending');
    expect(h.types().filter((type) => type === 'get_user_product_data_list')).toHaveLength(2);

    const other = harness();
    other.bridge.ready(READY);
    await other.settle();
    other.deliver('capabilities', capabilities([]));
    other.deliver('user_account_data', { userAccountId: 'user-7' });
    expect(other.bridge.getState().user.userAccountId).toBeNull();
  });

  it('resets the user to anonymous when the host clears its user data, and prices for the anonymous user', async () => {
    const h = harness();
    h.bridge.ready(READY);
    await h.settle();
    h.deliver('capabilities', capabilities(['GET_PRODUCT_DATA_LIST', 'GET_USER_DATA']));
    h.deliver('user_account_data', { userAccountId: 'member-1', name: 'Ida' });
    h.bridge.requestProductData([lookup('p1')]);
    await h.settle();
    h.deliver('user_product_data', { product_id: 'p1', price: 90 });
    expect(h.bridge.getState().productData.p1?.price).toBe(90);
    // The host's shopper signed out: it says so with a null user account id.
    h.deliver('user_account_data', { userAccountId: null });
    let state = h.bridge.getState();
    expect(state.user).toEqual({ userAccountId: null, name: null });
    expect(state.productData).toEqual({});
    await h.settle();
    expect(productEntry(h.bridge.getState(), 'p1')?.state).toBe('pending');

    // Or it clears its data by declaring its actions again without GET_USER_DATA.
    h.deliver('user_account_data', { userAccountId: 'member-2', name: 'Ole' });
    h.deliver('user_product_data', { product_id: 'p1', price: 80 });
    h.deliver('capabilities', capabilities(['GET_PRODUCT_DATA_LIST']));
    state = h.bridge.getState();
    expect(state.user).toEqual({ userAccountId: null, name: null });
    expect(state.productData).toEqual({});
    await h.settle();
    expect(productEntry(h.bridge.getState(), 'p1')?.state).toBe('pending');
  });

  it('keeps the host cart and its errors, and passes commands to the player', async () => {
    const h = harness();
    const commands: HostCommand[] = [];
    h.bridge.onCommand((command) => commands.push(command));
    h.bridge.ready(READY);
    await h.settle();
    h.deliver('host_cart_state_changed', { lines: [], itemCount: 3 });
    h.deliver('host_cart_update_error', { product_id: 'p1', message: 'nope' });
    h.deliver('minimize', {});
    h.deliver('language_change', { language: 'da-DK' });
    h.deliver('set_active_store_ids', { storeIds: ['s1'] });
    const state = h.bridge.getState();
    expect(state.hostCart?.itemCount).toBe(3);
    expect(state.cartError).toEqual({ productId: 'p1', seq: 1 });
    expect(state.activeStoreIds).toEqual(['s1']);
    expect(commands.map((command) => command.type)).toEqual(['minimize', 'language_change']);
    expect(h.warnings).toContain('language da-DK');
    h.bridge.dismissCartError();
    expect(h.bridge.getState().cartError).toBeNull();
  });

  it('passes the playlist commands of spec §7 to the player, with their payloads; malformed ones are ignored', async () => {
    const h = harness();
    const commands: HostCommand[] = [];
    h.bridge.onCommand((command) => commands.push(command));
    h.bridge.ready(READY);
    await h.settle();
    h.deliver('playlist_update', { items: [{ eventId: 'e2' }, { eventId: 'e1' }], activeItemId: 'e2' });
    h.deliver('cache_preload_events', { eventIds: ['e3'] });
    h.deliver('cache_activate_event', { eventId: 'e3' });
    // Spec §5: unexpected data from the host is ignored.
    h.deliver('playlist_update', { items: 'e4' });
    h.deliver('cache_preload_events', { eventIds: Array.from({ length: 11 }, (_, index) => `e${index}`) });
    h.deliver('close', {});
    h.deliver('share', {});
    expect(commands.map(({ type, payload }) => ({ type, payload }))).toEqual([
      {
        type: 'playlist_update',
        payload: { items: [{ eventId: 'e2' }, { eventId: 'e1' }], activeItemId: 'e2' },
      },
      { type: 'cache_preload_events', payload: { eventIds: ['e3'] } },
      { type: 'cache_activate_event', payload: { eventId: 'e3' } },
      { type: 'close', payload: {} },
      { type: 'share', payload: {} },
    ]);
  });

  it('takes numeric ids and sizes as numbers or numeric strings (spec §5)', async () => {
    const h = harness();
    h.bridge.ready(READY);
    await h.settle();
    h.deliver('capabilities', capabilities(['GET_PRODUCT_DATA_LIST']));
    h.bridge.requestProductData([lookup('42')]);
    await h.settle();
    // A host whose product ids are numbers: 42 answers the lookup of "42".
    h.deliver('user_product_data', { product_id: 42, price: 7 });
    expect(h.bridge.getState().productData['42']?.price).toBe(7);
    h.deliver('parent_resize', { width: '640', height: 480 });
    expect(h.bridge.getState().parentSize).toEqual({ width: 640, height: 480 });
    // Not numeric: refused whole, the last size stays.
    h.deliver('parent_resize', { width: 'wide', height: 480 });
    h.deliver('parent_resize', { width: Number.NaN, height: 480 });
    expect(h.bridge.getState().parentSize).toEqual({ width: 640, height: 480 });
  });

  it('follows more active stores than one lookup takes, in batches', async () => {
    const h = harness();
    h.bridge.ready(READY);
    await h.settle();
    const storeIds = Array.from({ length: 25 }, (_, index) => `store-${index}`);
    h.deliver('set_active_store_ids', { storeIds });
    expect(h.bridge.getState().activeStoreIds).toEqual(storeIds);
    expect(storeIdBatches(storeIds).map((batch) => batch.length)).toEqual([10, 10, 5]);
    // Past the bound the message is refused whole, with a warning, and the last list stays.
    h.deliver('set_active_store_ids', {
      storeIds: Array.from({ length: HOST_ACTIVE_STORES_MAX + 1 }, (_, index) => `s${index}`),
    });
    expect(h.bridge.getState().activeStoreIds).toEqual(storeIds);
  });

  it('does not post messages that fail the protocol schema', async () => {
    const h = harness();
    h.bridge.ready(READY);
    await h.settle();
    h.deliver('capabilities', capabilities([]));
    h.bridge.send('go_to_url', { url: 'x'.repeat(5000), newTab: true });
    expect(h.types()).toEqual(['player_ready']);
  });
});
