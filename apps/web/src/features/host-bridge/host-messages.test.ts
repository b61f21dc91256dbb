import { HOST_MESSAGE_MAX_BYTES, HOST_PROTOCOL_VERSION } from '@vitrine/protocol/vocabulary';
import { describe, expect, it } from 'vitest';
import { isOriginAllowed, normalizeOrigin, readEmbedParams } from './embed-params.ts';
import { acceptHostMessage, boundedJsonSize, encodePlayerMessage, type HostPeer } from './host-messages.ts';

const parent = { name: 'the parent window' };
const PEER: HostPeer = { hostOrigin: 'https://shop.example', parent, playerId: 'player-1' };

const envelope = (type: string, payload: unknown, playerId = 'player-1') => ({
  vitrine: HOST_PROTOCOL_VERSION,
  playerId,
  type,
  payload,
});
const fromHost = (data: unknown, overrides: Partial<{ origin: string; source: unknown }> = {}) => ({
  origin: 'https://shop.example',
  source: parent,
  data,
  ...overrides,
});
const CART = { lines: [{ product_id: 'p1', variant_id: null, quantity: 2 }], itemCount: 2 };

describe('readEmbedParams', () => {
  const query = '?embed=1&playerId=player-1&hostOrigin=https%3A%2F%2Fshop.example&context=on_site&mode=modal';

  it('reads the SDK’s query when framed', () => {
    expect(readEmbedParams(query, true)).toEqual({
      playerId: 'player-1',
      hostOrigin: 'https://shop.example',
      context: 'on_site',
      mode: 'modal',
      resume: null,
    });
  });

  it('reads where a player brought back on another page goes on from', () => {
    expect(readEmbedParams(`${query}&resumeEvent=ev-1&resumeAt=42.5&autoplay=1`, true)?.resume).toEqual({
      eventUid: 'ev-1',
      time: 42.5,
      autoplay: true,
    });
    expect(readEmbedParams(`${query}&resumeEvent=ev-1&resumeAt=0`, true)?.resume).toEqual({
      eventUid: 'ev-1',
      time: 0,
      autoplay: false,
    });
    for (const bad of [
      'resumeEvent=ev-1',
      'resumeEvent=ev-1&resumeAt=-3',
      'resumeEvent=&resumeAt=4',
      'resumeEvent=e&resumeAt=x',
    ]) {
      expect(readEmbedParams(`${query}&${bad}`, true)?.resume).toBeNull();
    }
  });

  it('is null when not framed, not embed=1, or without player id or usable host origin', () => {
    expect(readEmbedParams(query, false)).toBeNull();
    expect(readEmbedParams(query.replace('embed=1', 'embed=0'), true)).toBeNull();
    expect(readEmbedParams(query.replace('playerId=player-1', 'playerId='), true)).toBeNull();
    expect(
      readEmbedParams(query.replace('https%3A%2F%2Fshop.example', 'javascript%3Aalert(1)'), true),
    ).toBeNull();
    expect(
      readEmbedParams(query.replace('hostOrigin=https%3A%2F%2Fshop.example', 'hostOrigin=*'), true),
    ).toBeNull();
    expect(readEmbedParams(`${query.replace('player-1', 'x'.repeat(201))}`, true)).toBeNull();
  });

  it('normalises the host origin and ignores unknown context and mode values', () => {
    const params = readEmbedParams(
      '?embed=1&playerId=p&hostOrigin=HTTPS://Shop.Example:443/path&context=web&mode=huge',
      true,
    );
    expect(params).toEqual({
      playerId: 'p',
      hostOrigin: 'https://shop.example',
      context: null,
      mode: null,
      resume: null,
    });
  });
});

describe('origins', () => {
  it('normalises http(s) origins only', () => {
    expect(normalizeOrigin('https://shop.example/')).toBe('https://shop.example');
    expect(normalizeOrigin('http://localhost:8080/x?y')).toBe('http://localhost:8080');
    expect(normalizeOrigin('file:///etc/passwd')).toBeNull();
    expect(normalizeOrigin('not a url')).toBeNull();
  });

  it('allows a host origin only when the page lists it', () => {
    expect(isOriginAllowed('https://shop.example', ['https://shop.example/'])).toBe(true);
    expect(isOriginAllowed('https://shop.example', ['https://other.example', 'https://shop.example'])).toBe(
      true,
    );
    expect(isOriginAllowed('https://shop.example', ['http://shop.example'])).toBe(false);
    expect(isOriginAllowed('https://shop.example', ['https://shop.example:8443'])).toBe(false);
    expect(isOriginAllowed('https://shop.example', [])).toBe(false);
  });
});

describe('boundedJsonSize', () => {
  it('matches JSON.stringify’s byte length for plain data', () => {
    const value = { a: [1, 'two', null, true, { ä: 'ö€😀' }], b: -3.5, c: '' };
    expect(boundedJsonSize(value, 10_000)).toBe(Buffer.byteLength(JSON.stringify(value)));
  });

  it('gives up past the cap without walking the rest', () => {
    const big = { items: Array.from({ length: 100_000 }, (_, i) => `item-${i}`) };
    expect(boundedJsonSize(big, 1000)).toBe(1001);
  });

  it('counts values JSON cannot hold as too big', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(boundedJsonSize(cyclic, 1000)).toBe(1001);
    expect(boundedJsonSize({ when: new Date() }, 1000)).toBe(1001);
    expect(boundedJsonSize({ f: () => 1 }, 1000)).toBe(1001);
    expect(boundedJsonSize(new Map(), 1000)).toBe(1001);
  });
});

describe('acceptHostMessage', () => {
  it('takes a well-formed message from the parent window at the host origin', () => {
    const verdict = acceptHostMessage(fromHost(envelope('host_cart_state_changed', CART)), PEER);
    expect(verdict).toEqual({ ok: true, message: envelope('host_cart_state_changed', CART) });
  });

  it('checks the origin first: nothing else is looked at from another origin', () => {
    const data = {
      get vitrine() {
        throw new Error('the data must not be read');
      },
    };
    expect(acceptHostMessage(fromHost(data, { origin: 'https://evil.example' }), PEER)).toEqual({
      ok: false,
      reason: 'origin',
    });
    expect(acceptHostMessage(fromHost(envelope('close', {}), { origin: 'null' }), PEER).ok).toBe(false);
  });

  it('takes messages only from the parent window', () => {
    expect(acceptHostMessage(fromHost(envelope('close', {}), { source: { other: true } }), PEER)).toEqual({
      ok: false,
      reason: 'source',
    });
    expect(acceptHostMessage(fromHost(envelope('close', {}), { source: null }), PEER).ok).toBe(false);
  });

  it(`drops messages over HOST_MESSAGE_MAX_BYTES (${HOST_MESSAGE_MAX_BYTES}) unread`, () => {
    const big = envelope('user_account_data', {
      userAccountId: 'u',
      name: 'x'.repeat(HOST_MESSAGE_MAX_BYTES),
    });
    expect(acceptHostMessage(fromHost(big), PEER)).toEqual({ ok: false, reason: 'size' });
    expect(acceptHostMessage(fromHost(JSON.stringify(big)), PEER)).toEqual({ ok: false, reason: 'size' });
  });

  it('takes JSON text as well as objects, and drops text that is not JSON', () => {
    const text = JSON.stringify(envelope('share', {}));
    expect(acceptHostMessage(fromHost(text), PEER)).toEqual({ ok: true, message: envelope('share', {}) });
    expect(acceptHostMessage(fromHost('{not json'), PEER)).toEqual({ ok: false, reason: 'json' });
  });

  it('drops anything that fails the schema: unknown types, bad payloads, other versions', () => {
    const cases = [
      envelope('delete_everything', {}),
      envelope('host_cart_state_changed', { lines: 'many', itemCount: 1 }),
      envelope('capabilities', {
        usableActions: ['LAUNCH_ROCKETS'],
        emittableEvents: [],
        supportedFeatures: {},
      }),
      envelope('capabilities', {
        usableActions: [],
        emittableEvents: [],
        supportedFeatures: { FORCE_BASKET_MODE: 'FREE_STUFF' },
      }),
      { ...envelope('close', {}), vitrine: 2 },
      envelope('close', { extra: true }),
      null,
      42,
    ];
    for (const data of cases)
      expect(acceptHostMessage(fromHost(data), PEER)).toEqual({ ok: false, reason: 'schema' });
  });

  it('drops messages for another player on the same page', () => {
    expect(acceptHostMessage(fromHost(envelope('close', {}, 'player-2')), PEER)).toEqual({
      ok: false,
      reason: 'playerId',
    });
  });
});

describe('encodePlayerMessage', () => {
  it('wraps a payload in the envelope', () => {
    expect(encodePlayerMessage('player-1', 'host_cart_state_changed', CART.lines[0]!)).toEqual(
      envelope('host_cart_state_changed', CART.lines[0]),
    );
    expect(encodePlayerMessage('player-1', 'close', {})).toEqual(envelope('close', {}));
  });

  it('refuses messages the host’s parser would drop', () => {
    expect(encodePlayerMessage('player-1', 'go_to_url', { url: 'x'.repeat(3000), newTab: true })).toBeNull();
    expect(
      encodePlayerMessage('player-1', 'track_event', {
        trackingEvent: 'player.play',
        trackingInfo: { blob: 'x'.repeat(HOST_MESSAGE_MAX_BYTES) },
      }),
    ).toBeNull();
  });
});
