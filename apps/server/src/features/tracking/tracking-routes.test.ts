import { TRACKING_EVENT_NAMES, type TrackingEventInput } from '@vitrine/protocol';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.ts';
import { registerErrorHandling } from '../../http/errors.ts';
import { expectInvalidRequest } from '../../test-support/refusal-answers.ts';
import { openTestDatabase, withTestOutbox } from '../../test-support/test-app.ts';
import { type AuthService, createAuthService } from '../auth/auth-service.ts';
import { createUserDirectory } from '../users/user-directory.ts';
import { createRateLimiter, rateLimitKey, registerTrackingRoutes } from './routes.ts';
import { createTrackingService } from './tracking-service.ts';

const URL = '/shopapiv2/tracking';
const BODY_LIMIT = 256 * 1024;

let db: Database & { dispose(): Promise<void> };
let auth: AuthService;
let server: FastifyInstance;
let clock = 1_750_000_000_000;

beforeAll(async () => {
  db = await openTestDatabase();
  auth = createAuthService(withTestOutbox(db), { users: createUserDirectory(db) });
  // What app.ts builds, reduced to the tracking routes (same body limit and error handling).
  server = Fastify({ bodyLimit: BODY_LIMIT });
  registerErrorHandling(server);
  registerTrackingRoutes(server, createTrackingService(db), auth, { now: () => clock });
  // Outside the tracking plugin, text/plain must stay plain text.
  server.post('/echo', async (request) => ({ body: request.body }));
  await server.ready();
});

afterAll(async () => {
  await server?.close();
  await db?.dispose();
});

/** A fresh client address per test, so the rate limit of one test never touches another. */
let addressCounter = 0;
const nextAddress = () => `198.51.100.${++addressCounter}`;

function event(pageUid: string, overrides: Partial<TrackingEventInput> = {}): TrackingEventInput {
  return { trackingEvent: 'player.play', timestamp: 1_750_000_000_123, pageUid, ...overrides };
}

function post(
  body: unknown,
  options: { address?: string; headers?: Record<string, string>; raw?: string } = {},
) {
  return server.inject({
    method: 'POST',
    url: URL,
    remoteAddress: options.address ?? nextAddress(),
    headers: { 'content-type': 'application/json', ...options.headers },
    payload: options.raw ?? JSON.stringify(body),
  });
}

interface Row {
  tracking_event: string;
  page_uid: string;
  user_uid: string | null;
  campaign_uid: string | null;
  event_uid: string | null;
  payload: Record<string, unknown>;
}

function rows(pageUid: string): Promise<Row[]> {
  return db.query<Row>(
    `SELECT tracking_event, page_uid, user_uid, campaign_uid, event_uid, payload
     FROM tracking_events WHERE page_uid = $1 ORDER BY id`,
    [pageUid],
  );
}

async function count(pageUid: string): Promise<number> {
  const [row] = await db.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM tracking_events WHERE page_uid = $1',
    [pageUid],
  );
  return row?.count ?? 0;
}

describe('POST /shopapiv2/tracking', () => {
  it('accepts and stores each of the 22 tracking event names of spec §7', async () => {
    expect(TRACKING_EVENT_NAMES).toHaveLength(22);
    expect(new Set(TRACKING_EVENT_NAMES).size).toBe(22);
    const address = nextAddress();
    for (const name of TRACKING_EVENT_NAMES) {
      const response = await post(event('names-page', { trackingEvent: name }), { address });
      expect(response.statusCode, name).toBe(204);
      expect(response.body).toBe('');
    }
    expect(await count('names-page')).toBe(22);
    expect((await rows('names-page')).map((row) => row.tracking_event)).toEqual([...TRACKING_EVENT_NAMES]);
  });

  it('stores events for page uids no store has (tracking never depends on the page)', async () => {
    const response = await post(event('no-such-store', { campaignUid: 'no-such-campaign' }));
    expect(response.statusCode).toBe(204);
    expect(await rows('no-such-store')).toMatchObject([
      { page_uid: 'no-such-store', campaign_uid: 'no-such-campaign', event_uid: null },
    ]);
  });

  it('refuses an unknown event name with a 400 naming the field', async () => {
    const response = await post(event('unknown-name-page', { trackingEvent: 'player.exploded' as never }));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'invalid_request' });
    expect(response.json().message).toMatch(/^trackingEvent: /);
    expect(await count('unknown-name-page')).toBe(0);
  });

  it('refuses an event without pageUid, timestamp or with an unknown field', async () => {
    const { pageUid: _omitted, ...withoutPage } = event('ignored');
    const missingPage = await post(withoutPage);
    expect(missingPage.statusCode).toBe(400);
    expect(missingPage.json().message).toMatch(/^pageUid: /);

    const { timestamp: _none, ...withoutTimestamp } = event('no-timestamp-page');
    const missingTimestamp = await post(withoutTimestamp);
    expect(missingTimestamp.statusCode).toBe(400);
    expect(missingTimestamp.json().message).toMatch(/^timestamp: /);

    const extra = await post({ ...event('extra-field-page'), sessionId: 'x' });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().message).toContain('sessionId');

    const badPage = await post(event('not a uid!'));
    expect(badPage.statusCode).toBe(400);
    expect(badPage.json().message).toMatch(/^pageUid: /);

    expect(await count('no-timestamp-page')).toBe(0);
    expect(await count('extra-field-page')).toBe(0);
  });

  it('limits trackingInfo to 50 flat keys with short scalar values', async () => {
    const info = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`key${i}`, i]));
    const tooMany = await post(event('info-page', { trackingInfo: info }));
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().message).toMatch(/^trackingInfo: .*at most 50 keys/);

    const nested = await post(event('info-page', { trackingInfo: { product: { uid: 'x' } } as never }));
    expect(nested.statusCode).toBe(400);
    expect(nested.json().message).toMatch(/^trackingInfo\.product: /);

    const long = await post(event('info-page', { trackingInfo: { text: 'x'.repeat(2001) } }));
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toMatch(/^trackingInfo\.text: /);

    const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`key${i}`, i]));
    expect((await post(event('info-page', { trackingInfo: fifty }))).statusCode).toBe(204);
    expect(await count('info-page')).toBe(1);
  });

  it('turns text the database cannot store (NUL) into a 400, not a 500', async () => {
    const response = await post(event('nul-page', { trackingInfo: { name: 'a\u0000b' } }));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'invalid_request' });
    expect(await count('nul-page')).toBe(0);
  });

  it('refuses an empty or unparsable body', async () => {
    expect((await post(undefined, { raw: '' })).statusCode).toBe(400);
    expect((await post(undefined, { raw: '{"trackingEvent":' })).statusCode).toBe(400);
    expect((await post([event('array-page')])).statusCode).toBe(400);
    expect(await count('array-page')).toBe(0);
  });

  it('accepts a text/plain body, as navigator.sendBeacon sends a string', async () => {
    const response = await post(undefined, {
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
      raw: JSON.stringify(event('beacon-page', { trackingEvent: 'player.closed' })),
    });
    expect(response.statusCode).toBe(204);
    expect(await rows('beacon-page')).toMatchObject([{ tracking_event: 'player.closed' }]);

    const batch = await post(undefined, {
      headers: { 'content-type': 'text/plain' },
      raw: JSON.stringify({ events: [event('beacon-page'), event('beacon-page')] }),
    });
    expect(batch.statusCode).toBe(204);
    expect(await count('beacon-page')).toBe(3);
  });

  it('treats a text/plain body like JSON: malformed → 400, over the body limit → 413, no __proto__', async () => {
    const plain = { 'content-type': 'text/plain' };
    const malformed = await post(undefined, { headers: plain, raw: 'player.play' });
    expectInvalidRequest(malformed, 'A text/plain tracking body must be JSON; it is not valid JSON.');
    const empty = await post(undefined, { headers: plain, raw: '' });
    expect(empty.json().message).toBe('A text/plain tracking body must be JSON; it is empty.');

    const huge = JSON.stringify(event('huge-page', { viewerUrl: 'x'.repeat(BODY_LIMIT) }));
    expect((await post(undefined, { headers: plain, raw: huge })).statusCode).toBe(413);

    const poisoned = `{"__proto__":{"admin":true},${JSON.stringify(event('proto-page')).slice(1)}`;
    const proto = await post(undefined, { headers: plain, raw: poisoned });
    expect(proto.statusCode).toBe(400);
    expect(proto.json().message).toBe('A text/plain tracking body must be JSON; it is not valid JSON.');
    expect(await count('huge-page')).toBe(0);
    expect(await count('proto-page')).toBe(0);
  });

  it('keeps Fastify’s plain-text parser for routes outside the tracking plugin', async () => {
    const response = await server.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'text/plain' },
      payload: 'not json',
    });
    expect(response.json()).toEqual({ body: 'not json' });
  });

  it('stores a batch of events in one request', async () => {
    const response = await post({
      events: [
        event('batch-page', { trackingEvent: 'cart.opened-cart' }),
        event('batch-page', { trackingEvent: 'cart.added-to-cart', trackingInfo: { productUid: 'p1' } }),
        event('batch-page', { trackingEvent: 'checkout.began-checkout', checkoutUid: 'c1' }),
      ],
    });
    expect(response.statusCode).toBe(204);
    expect((await rows('batch-page')).map((row) => row.tracking_event)).toEqual([
      'cart.opened-cart',
      'cart.added-to-cart',
      'checkout.began-checkout',
    ]);
  });

  it('refuses a batch of more than 50 events, an empty one, and stores none of a bad one', async () => {
    const tooMany = await post({ events: Array.from({ length: 51 }, () => event('big-batch-page')) });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().message).toMatch(/^events: .*at most 50/);

    const empty = await post({ events: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toMatch(/^events: /);

    const oneBad = await post({
      events: [event('big-batch-page'), event('big-batch-page', { trackingEvent: 'nope' as never })],
    });
    expect(oneBad.statusCode).toBe(400);
    expect(oneBad.json().message).toMatch(/^events\.1\.trackingEvent: /);

    expect(
      (await post({ events: Array.from({ length: 50 }, () => event('big-batch-page')) })).statusCode,
    ).toBe(204);
    expect(await count('big-batch-page')).toBe(50);
  });

  it('rate limits each address to 120 events a minute with a 429, counting batched events', async () => {
    clock += 60_000; // a fresh window
    const address = nextAddress();
    const batch = (size: number) => ({ events: Array.from({ length: size }, () => event('limited-page')) });

    expect((await post(batch(50), { address })).statusCode).toBe(204);
    expect((await post(batch(50), { address })).statusCode).toBe(204);
    // 100 used: 21 more would pass the limit, so the batch is refused whole…
    const over = await post(batch(21), { address });
    expect(over.statusCode).toBe(429);
    // …and costs nothing: the remaining 20 still go through.
    for (let i = 0; i < 20; i++)
      expect((await post(event('limited-page'), { address })).statusCode).toBe(204);

    clock += 15_000;
    const limited = await post(event('limited-page'), { address });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      error: 'rate_limited',
      message: 'Too many tracking events from this address: at most 120 per minute. Try again in 45 s.',
    });
    expect(limited.headers['retry-after']).toBe('45');
    expect(await count('limited-page')).toBe(120);

    // Other addresses are unaffected, and the address gets a new allowance next minute.
    expect((await post(event('limited-page'))).statusCode).toBe(204);
    clock += 45_000;
    expect((await post(event('limited-page'), { address })).statusCode).toBe(204);
    expect(await count('limited-page')).toBe(122);
  });

  it('stores the authenticated caller as the user, and the body’s userUid only as a claim', async () => {
    const session = await auth.signInAnonymously();
    const uid = session.user.uid;
    const bearer = { authorization: `Bearer ${session.idToken}` };

    expect(
      (await post(event('auth-page', { userUid: 'somebody-else' }), { headers: bearer })).statusCode,
    ).toBe(204);
    expect((await post(event('auth-page', { userUid: uid }), { headers: bearer })).statusCode).toBe(204);
    expect((await post(event('auth-page'), { headers: bearer })).statusCode).toBe(204);
    // Anonymous (every sendBeacon): the claimed user is kept, but not as the row's user.
    expect((await post(event('auth-page', { userUid: uid }))).statusCode).toBe(204);

    const stored = await rows('auth-page');
    expect(stored.map((row) => row.user_uid)).toEqual([uid, uid, uid, null]);
    expect(stored.map((row) => row.payload.userUid)).toEqual([uid, uid, uid, null]);
    expect(stored.map((row) => row.payload.claimedUserUid)).toEqual([
      'somebody-else',
      undefined,
      undefined,
      uid,
    ]);
  });

  it('refuses an invalid bearer token with a 401 and stores nothing', async () => {
    const bad = await post(event('bad-token-page'), { headers: { authorization: 'Bearer not-a-token' } });
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toMatchObject({ error: 'unauthenticated' });
    const malformed = await post(event('bad-token-page'), { headers: { authorization: 'Basic abc' } });
    expect(malformed.statusCode).toBe(401);
    expect(await count('bad-token-page')).toBe(0);
  });

  it('round-trips the whole event through the payload column, defaults filled in', async () => {
    const full = {
      trackingEvent: 'catalog.viewed-product-details',
      trackingInfo: { productUid: 'p-1', price: 199.5, inStock: true, variant: null, note: 'blå "æøå" 🎉' },
      timestamp: 1_750_000_000_999,
      pageUid: 'roundtrip-page',
      userUid: null,
      currency: 'DKK',
      viewerUrl: 'https://shop.example/live?show=1#x',
      checkoutUid: 'checkout-9',
      campaignUid: 'campaign-1',
      eventUid: 'event-1',
      eventStatus: 'live',
      videoAbsoluteTime: 123.456,
      playingProducts: ['p-1', 'p-2'],
      viewerUid: 'viewer-1234',
      playback: 'live',
      watchedSeconds: 12.5,
      delayMs: 4200,
    } as const;
    expect((await post(full)).statusCode).toBe(204);
    expect((await post(event('roundtrip-page'))).statusCode).toBe(204);

    const [stored, minimal] = await rows('roundtrip-page');
    expect(stored).toEqual({
      tracking_event: 'catalog.viewed-product-details',
      page_uid: 'roundtrip-page',
      user_uid: null,
      campaign_uid: 'campaign-1',
      event_uid: 'event-1',
      payload: full,
    });
    expect(minimal?.payload).toEqual({
      trackingEvent: 'player.play',
      trackingInfo: {},
      timestamp: 1_750_000_000_123,
      pageUid: 'roundtrip-page',
      userUid: null,
      currency: null,
      viewerUrl: null,
      checkoutUid: null,
      campaignUid: null,
      eventUid: null,
      eventStatus: null,
      videoAbsoluteTime: null,
      playingProducts: [],
      viewerUid: null,
      playback: null,
      watchedSeconds: null,
      delayMs: null,
    });
  });

  it('accepts the watch heartbeat beside the 22 names, with the analytics fields as columns', async () => {
    const response = await post(
      event('heartbeat-page', {
        trackingEvent: 'player.heartbeat',
        viewerUid: 'viewer-5678',
        playback: 'replay',
        watchedSeconds: 30,
        delayMs: 2500,
        playingProducts: ['p-1'],
      }),
    );
    expect(response.statusCode).toBe(204);
    const [row] = await db.query<{
      viewer_uid: string;
      replay: boolean;
      watched_seconds: number;
      product_shown: boolean;
    }>(
      "SELECT viewer_uid, replay, watched_seconds, product_shown FROM tracking_events WHERE page_uid = 'heartbeat-page'",
    );
    expect(row).toEqual({
      viewer_uid: 'viewer-5678',
      replay: true,
      watched_seconds: 30,
      product_shown: true,
    });
  });
});

describe('tracking rate limiter', () => {
  it('stays bounded: forgets the oldest address when full, and everything when the window ends', () => {
    let now = 0;
    const limiter = createRateLimiter({ limit: 2, windowMs: 1000, maxKeys: 3, now: () => now });
    expect(limiter.take('a', 2)).toEqual({ allowed: true });
    expect(limiter.take('a', 1)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    limiter.take('b', 1);
    limiter.take('c', 1);
    expect(limiter.size).toBe(3);
    limiter.take('d', 1); // evicts 'a', the first seen
    expect(limiter.size).toBe(3);
    expect(limiter.take('a', 2)).toEqual({ allowed: true });
    expect(limiter.size).toBe(3);
    now = 1000;
    expect(limiter.take('e', 1)).toEqual({ allowed: true });
    expect(limiter.size).toBe(1);
  });

  it('keys IPv4 by address and IPv6 by its /64', () => {
    expect(rateLimitKey('203.0.113.7')).toBe('203.0.113.7');
    expect(rateLimitKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(rateLimitKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(rateLimitKey('2001:0db8:0001:0002::9')).toBe('2001:db8:1:2::/64');
    expect(rateLimitKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(rateLimitKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(rateLimitKey('1::2:3:4:5:192.0.2.1')).toBe('1:0:2:3::/64');
    expect(rateLimitKey('::1')).toBe('0:0:0:0::/64');
  });
});
