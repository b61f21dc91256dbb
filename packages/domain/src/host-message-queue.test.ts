import { PLAYER_TO_HOST_MESSAGE_TYPES, type PlayerToHostType } from '@vitrine/protocol/vocabulary';
import { describe, expect, it } from 'vitest';
import {
  changeProductDataUser,
  createHostOutbox,
  createProductDataRequests,
  expireProductData,
  HOST_OUTBOX_MAX_QUEUED,
  type HostMessagingCapabilities,
  hasLoadedProductData,
  hostSupports,
  isHostMessageAllowed,
  isProductDataPending,
  markProductDataSent,
  offerHostMessage,
  queuedProductIds,
  queueProductData,
  receiveHostCapabilities,
  receiveProductData,
  requiredHostAction,
} from './host-message-queue.ts';

interface Message {
  type: PlayerToHostType;
  n?: number;
}

const NONE: HostMessagingCapabilities = { usableActions: [], emittableEvents: [] };
const CART: HostMessagingCapabilities = {
  usableActions: ['UPDATE_CART_CONTENTS', 'OPEN_CART'],
  emittableEvents: ['content_loaded'],
};

describe('requiredHostAction', () => {
  it('maps each host-dependent message to the action it needs (spec §6)', () => {
    expect(requiredHostAction('host_open_cart')).toBe('OPEN_CART');
    expect(requiredHostAction('host_request_cart_state')).toBe('GET_CART_CONTENTS');
    expect(requiredHostAction('host_cart_state_changed')).toBe('UPDATE_CART_CONTENTS');
    expect(requiredHostAction('get_user_account_data')).toBe('GET_USER_DATA');
    expect(requiredHostAction('get_user_product_data')).toBe('GET_PRODUCT_DATA');
    expect(requiredHostAction('get_user_product_data_list')).toBe('GET_PRODUCT_DATA_LIST');
    expect(requiredHostAction('toggle_is_favorite')).toBe('TOGGLE_IS_FAVORITE');
  });

  it('needs nothing for go_to_url and the lifecycle messages', () => {
    const free = PLAYER_TO_HOST_MESSAGE_TYPES.filter((type) => requiredHostAction(type) === null);
    expect(free.sort()).toEqual(
      [
        'can_share',
        'close',
        'content_loaded',
        'gallery_show_updated',
        'go_to_url',
        'maximize',
        'minimize',
        'playback_position',
        'player_ready',
        'show_favorites',
        'track_event',
        'video_ready',
        'view_resized',
      ].sort(),
    );
  });
});

describe('isHostMessageAllowed', () => {
  it('sends action messages only for usable actions', () => {
    expect(isHostMessageAllowed('host_cart_state_changed', CART)).toBe(true);
    expect(isHostMessageAllowed('host_open_cart', CART)).toBe(true);
    expect(isHostMessageAllowed('toggle_is_favorite', CART)).toBe(false);
    expect(isHostMessageAllowed('get_user_product_data', NONE)).toBe(false);
  });

  it('always sends lifecycle messages and go_to_url', () => {
    for (const type of [
      'close',
      'minimize',
      'maximize',
      'go_to_url',
      'video_ready',
      'view_resized',
    ] as const) {
      expect(isHostMessageAllowed(type, NONE)).toBe(true);
    }
  });

  it('mirrors tracking only when emittableEvents lists track_event or is empty', () => {
    expect(isHostMessageAllowed('track_event', NONE)).toBe(true);
    expect(isHostMessageAllowed('track_event', { ...NONE, emittableEvents: ['track_event'] })).toBe(true);
    expect(isHostMessageAllowed('track_event', CART)).toBe(false);
  });
});

describe('hostSupports', () => {
  it('is false while the capabilities are unknown', () => {
    expect(hostSupports(null, 'OPEN_CART')).toBe(false);
    expect(hostSupports(CART, 'OPEN_CART')).toBe(true);
    expect(hostSupports(CART, 'GET_USER_DATA')).toBe(false);
  });
});

describe('host outbox (spec §4 "Messages to the host page are queued until the host\'s capabilities are known")', () => {
  it('queues messages until the capabilities arrive', () => {
    const step = offerHostMessage(createHostOutbox<Message>(), { type: 'content_loaded' });
    expect(step.send).toEqual([]);
    expect(step.dropped).toEqual([]);
    expect(step.outbox.queued).toEqual([{ type: 'content_loaded' }]);
  });

  it('sends player_ready at once, before any capabilities', () => {
    const step = offerHostMessage(createHostOutbox<Message>(), { type: 'player_ready' });
    expect(step.send).toEqual([{ type: 'player_ready' }]);
    expect(step.outbox.queued).toEqual([]);
  });

  it('then sends the queued messages in order, dropping the unsupported ones', () => {
    let outbox = createHostOutbox<Message>();
    for (const message of [
      { type: 'content_loaded', n: 1 },
      { type: 'toggle_is_favorite', n: 2 },
      { type: 'host_cart_state_changed', n: 3 },
      { type: 'track_event', n: 4 },
    ] as Message[]) {
      outbox = offerHostMessage(outbox, message).outbox;
    }
    const step = receiveHostCapabilities(outbox, CART);
    expect(step.send.map((message) => message.n)).toEqual([1, 3]);
    expect(step.dropped.map((message) => message.n)).toEqual([2, 4]);
    expect(step.outbox).toEqual({ capabilities: CART, queued: [] });
  });

  it('sends or drops at once once the capabilities are known', () => {
    const ready = receiveHostCapabilities(createHostOutbox<Message>(), CART).outbox;
    expect(offerHostMessage(ready, { type: 'host_open_cart' }).send).toEqual([{ type: 'host_open_cart' }]);
    expect(offerHostMessage(ready, { type: 'get_user_account_data' }).dropped).toEqual([
      { type: 'get_user_account_data' },
    ]);
  });

  it('takes capabilities sent again in place of the earlier ones', () => {
    const first = receiveHostCapabilities(createHostOutbox<Message>(), NONE).outbox;
    const second = receiveHostCapabilities(first, CART).outbox;
    expect(offerHostMessage(second, { type: 'host_open_cart' }).send).toHaveLength(1);
  });

  it('holds at most HOST_OUTBOX_MAX_QUEUED messages, dropping the oldest', () => {
    let outbox = createHostOutbox<Message>();
    const dropped: Message[] = [];
    for (let n = 0; n < HOST_OUTBOX_MAX_QUEUED + 2; n++) {
      const step = offerHostMessage(outbox, { type: 'track_event', n });
      outbox = step.outbox;
      dropped.push(...step.dropped);
    }
    expect(outbox.queued).toHaveLength(HOST_OUTBOX_MAX_QUEUED);
    expect(dropped.map((message) => message.n)).toEqual([0, 1]);
    expect(outbox.queued[0]?.n).toBe(2);
  });
});

describe('product data requests (spec §4 "queued, then pending, then loaded")', () => {
  it('goes queued → pending → loaded per product', () => {
    let requests = queueProductData(createProductDataRequests(), ['a', 'b']);
    expect(requests.states).toEqual({ a: 'queued', b: 'queued' });
    expect(queuedProductIds(requests)).toEqual(['a', 'b']);
    requests = markProductDataSent(requests, ['a']);
    expect(requests.states).toEqual({ a: 'pending', b: 'queued' });
    const received = receiveProductData(requests, 'a');
    expect(received.accepted).toBe(true);
    expect(received.requests.states).toEqual({ a: 'loaded', b: 'queued' });
    expect(isProductDataPending(received.requests, 'a')).toBe(false);
    expect(isProductDataPending(received.requests, 'b')).toBe(true);
    expect(hasLoadedProductData(received.requests)).toBe(true);
    expect(hasLoadedProductData(requests)).toBe(false);
  });

  it('does not ask again for products already asked about', () => {
    const requests = markProductDataSent(queueProductData(createProductDataRequests(), ['a']), ['a']);
    expect(queueProductData(requests, ['a'])).toBe(requests);
    expect(queueProductData(requests, ['a', 'c']).states).toEqual({ a: 'pending', c: 'queued' });
  });

  it('ignores data for products it did not ask for (spec §5)', () => {
    const requests = queueProductData(createProductDataRequests(), ['a']);
    const received = receiveProductData(requests, 'z');
    expect(received.accepted).toBe(false);
    expect(received.requests).toBe(requests);
    expect(receiveProductData(requests, 'constructor').accepted).toBe(false);
  });

  it('lets pending requests time out into loaded', () => {
    const requests = markProductDataSent(queueProductData(createProductDataRequests(), ['a', 'b']), ['a']);
    expect(expireProductData(requests, ['a', 'b']).states).toEqual({ a: 'loaded', b: 'queued' });
  });

  it('re-queues every product when the user account id changes (spec §4)', () => {
    let requests = queueProductData(createProductDataRequests(), ['a', 'b']);
    requests = receiveProductData(markProductDataSent(requests, ['a', 'b']), 'a').requests;
    const same = changeProductDataUser(requests, null);
    expect(same.changed).toBe(false);
    expect(same.requests).toBe(requests);
    const changed = changeProductDataUser(requests, 'user-1');
    expect(changed.changed).toBe(true);
    expect(changed.requests).toEqual({ userAccountId: 'user-1', states: { a: 'queued', b: 'queued' } });
    expect(changeProductDataUser(changed.requests, null).changed).toBe(true);
  });
});
