import * as protocol from '@vitrine/protocol';
import { HOST_MESSAGE_MAX_BYTES } from '@vitrine/protocol/vocabulary';
import { describe, expect, it } from 'vitest';
import { PLAYER_TO_HOST_FIELDS, type PlayerToHostPayloads } from './protocol.ts';
import {
  cleanFeatures,
  hostMessage,
  jsonBytes,
  navigationUrl,
  parsePlayerMessage,
  playbackPosition,
  playerConfig,
  resumeTime,
  widgetUrl,
} from './validate.ts';

const ID = 'vp-1';
const envelope = (type: string, payload?: unknown, extra: object = {}) => ({
  vitrine: 1,
  playerId: ID,
  type,
  payload,
  ...extra,
});
const lookup = { product_id: 'nordlys-linen-shirt', sku: 'NL-LS', url: null };

/** A valid payload of every message from the player, as the protocol defines them. */
const SAMPLES: PlayerToHostPayloads = {
  close: {},
  maximize: {},
  minimize: {},
  go_to_url: { url: 'https://nordlys.example/products/linen-shirt', newTab: true },
  get_user_account_data: {},
  get_user_product_data: lookup,
  get_user_product_data_list: { products: [lookup] },
  host_open_cart: {},
  host_request_cart_state: {},
  host_cart_state_changed: { product_id: 'nordlys-linen-shirt', variant_id: null, quantity: 2 },
  player_ready: { pageUid: 'demo-store', campaignUid: 'autumn', eventUid: null },
  content_loaded: { eventUid: 'e1' },
  track_event: { trackingEvent: 'cart.added-to-cart', trackingInfo: { productUid: 'p' } },
  video_ready: { eventUid: 'e1' },
  can_share: {},
  toggle_is_favorite: { product: lookup, isFavorite: true, eventUid: 'e1' },
  view_resized: { width: 320, height: 568 },
  show_favorites: { eventUid: 'e1' },
  gallery_show_updated: { eventUid: 'e1' },
  playback_position: { campaignUid: 'c1', eventUid: 'e1', time: 12.5, playing: true },
};

describe('the SDK contract matches packages/protocol', () => {
  it.each(Object.entries(SAMPLES))('accepts every %s the protocol accepts', (type, payload) => {
    const message = envelope(type, payload);
    expect(protocol.PlayerToHostMessage.safeParse(message).success).toBe(true);
    expect(parsePlayerMessage(message, ID)).toEqual({ type, payload });
  });

  it.each(
    Object.entries(PLAYER_TO_HOST_FIELDS).flatMap(([type, fields]) =>
      Object.keys(fields).map((field) => [type, field] as const),
    ),
  )('rejects a %s without or with a wrong %s, as the protocol does', (type, field) => {
    const payload = { ...(SAMPLES[type as keyof PlayerToHostPayloads] as Record<string, unknown>) };
    const wrong = { ...payload, [field]: typeof payload[field] === 'boolean' ? 'yes' : true };
    delete payload[field];
    for (const bad of [payload, wrong]) {
      expect(protocol.PlayerToHostMessage.safeParse(envelope(type, bad)).success).toBe(false);
      expect(parsePlayerMessage(envelope(type, bad), ID)).toBeNull();
    }
  });

  it('accepts every message to the player the protocol accepts', () => {
    const message = hostMessage(ID, 'user_product_data', { product_id: 'p', price: 549, isFavorite: false });
    expect(protocol.HostToPlayerMessage.safeParse(message).success).toBe(true);
    const capabilities = hostMessage(ID, 'capabilities', {
      usableActions: ['OPEN_CART'],
      emittableEvents: ['host_open_cart'],
      supportedFeatures: cleanFeatures({ MINIMIZED_PLAYER: true, NAVIGATION: 'NEW_TAB', EXTRA: 1 }),
    });
    expect(protocol.HostToPlayerMessage.safeParse(capabilities).success).toBe(true);
  });
});

describe('parsePlayerMessage', () => {
  it('takes only version-1 envelopes of this player', () => {
    expect(parsePlayerMessage(envelope('close', {}), ID)).toEqual({ type: 'close', payload: {} });
    expect(parsePlayerMessage(envelope('close', {}, { vitrine: 2 }), ID)).toBeNull();
    expect(parsePlayerMessage(envelope('close', {}, { vitrine: '1' }), ID)).toBeNull();
    expect(parsePlayerMessage(envelope('close', {}), 'vp-2')).toBeNull();
    expect(parsePlayerMessage(envelope('close', {}, { playerId: undefined }), ID)).toBeNull();
  });

  it('drops anything that is not an envelope', () => {
    for (const data of [
      null,
      undefined,
      'close',
      42,
      [],
      [envelope('close')],
      JSON.stringify(envelope('close')),
    ]) {
      expect(parsePlayerMessage(data, ID)).toBeNull();
    }
  });

  it('drops unknown types, including inherited property names', () => {
    for (const type of ['capabilities', 'user_product_data', 'toString', '__proto__', 'constructor', 7]) {
      expect(parsePlayerMessage(envelope(type as string, {}), ID)).toBeNull();
    }
  });

  it('reads a missing payload as {} and drops a payload that is no object', () => {
    expect(parsePlayerMessage(envelope('host_open_cart'), ID)?.payload).toEqual({});
    for (const payload of [null, 'x', 1, [], true]) {
      expect(parsePlayerMessage(envelope('host_open_cart', payload), ID)).toBeNull();
    }
  });

  it('checks field types: finite numbers, strings or null where allowed', () => {
    const changed = (patch: object) =>
      parsePlayerMessage(
        envelope('host_cart_state_changed', { ...SAMPLES.host_cart_state_changed, ...patch }),
        ID,
      );
    expect(changed({ variant_id: 'v' })).not.toBeNull();
    expect(changed({ variant_id: 3 })).toBeNull();
    expect(changed({ quantity: Number.NaN })).toBeNull();
    expect(changed({ quantity: Number.POSITIVE_INFINITY })).toBeNull();
    expect(changed({ quantity: '2' })).toBeNull();
    expect(changed({ product_id: null })).toBeNull();
  });

  it(`drops messages over ${HOST_MESSAGE_MAX_BYTES} bytes of JSON, counting UTF-8 bytes`, () => {
    const fits = (text: string) =>
      parsePlayerMessage(envelope('track_event', { trackingEvent: 'x', trackingInfo: { text } }), ID) !==
      null;
    const overhead = jsonBytes(envelope('track_event', { trackingEvent: 'x', trackingInfo: { text: '' } }));
    expect(fits('a'.repeat(HOST_MESSAGE_MAX_BYTES - overhead))).toBe(true);
    expect(fits('a'.repeat(HOST_MESSAGE_MAX_BYTES - overhead + 1))).toBe(false);
    // 'ø' is two bytes in UTF-8.
    expect(fits('ø'.repeat((HOST_MESSAGE_MAX_BYTES - overhead) / 2))).toBe(true);
    expect(fits('ø'.repeat((HOST_MESSAGE_MAX_BYTES - overhead) / 2 + 1))).toBe(false);
  });

  it('drops values JSON cannot carry', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(
      parsePlayerMessage(envelope('track_event', { trackingEvent: 'x', trackingInfo: cyclic }), ID),
    ).toBeNull();
    expect(
      parsePlayerMessage(envelope('track_event', { trackingEvent: 'x', trackingInfo: { n: BigInt(1) } }), ID),
    ).toBeNull();
  });
});

describe('hostMessage', () => {
  it('wraps a known message in the envelope', () => {
    expect(hostMessage(ID, 'share', undefined)).toEqual(envelope('share', {}));
    expect(hostMessage(ID, 'language_change', { language: 'da' })).toEqual(
      envelope('language_change', { language: 'da' }),
    );
  });

  it('refuses unknown types, payloads that are no object and oversized messages', () => {
    expect(hostMessage(ID, 'go_to_url', {})).toBeInstanceOf(Error);
    expect(hostMessage(ID, 'share', 'now')).toBeInstanceOf(Error);
    expect(hostMessage(ID, 'share', [])).toBeInstanceOf(Error);
    expect(
      hostMessage(ID, 'user_product_data', { product_id: 'p', name: 'x'.repeat(HOST_MESSAGE_MAX_BYTES) }),
    ).toBeInstanceOf(Error);
  });
});

describe('playerConfig and widgetUrl', () => {
  it('fills defaults: modal, on_site, 16:9, the minimized box of spec §9', () => {
    expect(playerConfig({ pageUid: 'demo-store' }, 'https://live.example/')).toEqual({
      origin: 'https://live.example',
      pageUid: 'demo-store',
      campaignUid: null,
      eventUid: null,
      mode: 'modal',
      context: 'on_site',
      usableActions: [],
      supportedFeatures: {},
      aspectRatio: '16:9',
      minimized: {
        horizontal: 'right',
        vertical: 'bottom',
        horizontalMargin: 20,
        verticalMargin: 20,
        width: 180,
        height: 320,
      },
      language: null,
      search: null,
      startTime: null,
      seenLive: null,
    });
  });

  it("opens the newest clip of a retailer's product with seenLive (issue 32 item 4)", () => {
    const config = playerConfig(
      { pageUid: 'shop', mode: 'inline', seenLive: 'LAMP 1' },
      'https://live.example',
    );
    expect(widgetUrl(config, 'vp-1', 'https://shop.example')).toMatch(
      /^https:\/\/live\.example\/widget\/shop\/clips\?embed=1&.*&product=LAMP\+1$/,
    );
  });

  it('opens the store page at a search, or a recorded show at a moment (issue 32 item 5)', () => {
    const origin = 'https://live.example';
    const search = playerConfig({ pageUid: 'shop', search: 'blue mug' }, origin);
    expect(widgetUrl(search, 'vp-1', 'https://shop.example')).toMatch(
      /^https:\/\/live\.example\/widget\/shop\/\?embed=1&.*&q=blue\+mug$/,
    );
    const moment = playerConfig(
      { pageUid: 'shop', campaignUid: 'c1', eventUid: 'e1', startTime: 95 },
      origin,
    );
    expect(widgetUrl(moment, 'vp-1', 'https://shop.example')).toMatch(
      /^https:\/\/live\.example\/widget\/shop\/campaign\/c1\/event\/e1\?.*&t=95$/,
    );
    // A player brought back on the next page goes on where it was, not at the first page's moment.
    const resumed = widgetUrl(moment, 'vp-1', 'https://shop.example', true, {
      campaignUid: 'c1',
      eventUid: 'e1',
      time: 300,
      playing: false,
      at: 0,
    });
    expect(resumed).not.toMatch(/[?&]t=/);
    expect(playerConfig({ pageUid: 'shop', search: '' }, origin)).toMatchObject({
      search: null,
      startTime: null,
    });
  });

  it('prefers the origin option, and only takes http(s) origins', () => {
    expect(
      playerConfig({ pageUid: 'p', origin: 'http://127.0.0.1:3000/x' }, 'https://a.example').origin,
    ).toBe('http://127.0.0.1:3000');
    expect(() => playerConfig({ pageUid: 'p', origin: 'javascript:alert(1)' }, null)).toThrow(/origin/);
    expect(() => playerConfig({ pageUid: 'p' }, null)).toThrow(/origin/);
  });

  it('keeps only the features the player knows', () => {
    expect(
      cleanFeatures({
        MINIMIZED_PLAYER: 'yes',
        NAVIGATION: 'SAME_TAB',
        FORCE_BASKET_MODE: 'LINKS',
        OTHER: 1,
      }),
    ).toEqual({ NAVIGATION: 'SAME_TAB', FORCE_BASKET_MODE: 'LINKS' });
    expect(cleanFeatures(null)).toEqual({});
  });

  it('builds the three widget routes with the query the player reads', () => {
    const config = playerConfig(
      { pageUid: 'demo store', campaignUid: 'c/1', context: 'checkout', mode: 'inline' },
      'https://live.example',
    );
    expect(widgetUrl(config, 'vp-1', 'https://shop.example')).toBe(
      'https://live.example/widget/demo%20store/c%2F1?embed=1&playerId=vp-1&hostOrigin=https%3A%2F%2Fshop.example&context=checkout&mode=inline',
    );
    expect(widgetUrl({ ...config, eventUid: 'e1' }, 'vp-1', 'https://shop.example', true)).toMatch(
      /^https:\/\/live\.example\/widget\/demo%20store\/campaign\/c%2F1\/event\/e1\?.*&minimized=1$/,
    );
    expect(widgetUrl({ ...config, campaignUid: null }, 'vp-1', 'https://shop.example')).toMatch(
      /^https:\/\/live\.example\/widget\/demo%20store\/\?embed=1&/,
    );
  });
});

describe('playbackPosition and resumeTime', () => {
  const at = 1_000_000;
  const position = { campaignUid: 'c1', eventUid: 'e1', time: 30, playing: true, at };

  it('takes only a well-formed saved position', () => {
    expect(playbackPosition(position)).toEqual(position);
    expect(playbackPosition({ ...position, campaignUid: null })).toEqual({ ...position, campaignUid: null });
    for (const bad of [
      null,
      [],
      { ...position, eventUid: '' },
      { ...position, time: -1 },
      { ...position, at: '1' },
    ]) {
      expect(playbackPosition(bad)).toBeNull();
    }
  });

  it('adds the time a playing video went on for, up to an hour; a paused one stays', () => {
    expect(resumeTime(position, at + 12_340)).toBe(42.3);
    expect(resumeTime(position, at - 5_000)).toBe(30);
    expect(resumeTime(position, at + 10 * 3_600_000)).toBe(3_630);
    expect(resumeTime({ ...position, playing: false }, at + 12_340)).toBe(30);
  });
});

describe('navigationUrl', () => {
  it('resolves http(s) links against the page and refuses other schemes', () => {
    const base = 'https://shop.example/products/linen-shirt';
    expect(navigationUrl('/cart', base)).toBe('https://shop.example/cart');
    expect(navigationUrl('https://nordlys.example/p', base)).toBe('https://nordlys.example/p');
    for (const url of ['javascript:alert(1)', 'data:text/html,x', 'vbscript:x', 'file:///etc/passwd']) {
      expect(navigationUrl(url, base)).toBeNull();
    }
  });
});
