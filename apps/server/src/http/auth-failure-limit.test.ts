import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStore, signInStaff } from '../test-support/studio-staff.ts';
import { openTestApp, TEST_ADMIN_KEY } from '../test-support/test-app.ts';
import { AUTH_FAILURE_LIMITS, STUDIO_WRITE_LIMIT } from './auth-failure-limit.ts';

/**
 * Rate limits on guessing (issue 33 §6): wrong admin keys and one-time tokens per client
 * address and per key prefix, and studio writes per staff member. Each test performs the attack.
 */
type TestApp = Awaited<ReturnType<typeof openTestApp>>;
let app: TestApp;
let store: string;

beforeAll(async () => {
  app = await openTestApp({ env: { VITRINE_ABUSE_LIMITS: 'on' } });
  store = await createTestStore(app);
});
afterAll(async () => {
  await app?.close();
});

const wrongKey = (i: number) => `guess-${String(i).padStart(6, '0')}-${'x'.repeat(16)}`;

describe('admin key guesses', () => {
  it('300 wrong admin keys from one address: refused after the limit with 429 and Retry-After, the right key too', async () => {
    const attacker = '203.0.113.10';
    const statuses: number[] = [];
    let refusal: { headers: Record<string, unknown>; body: string } | null = null;
    for (let i = 0; i < 300; i++) {
      // Alternating between an admin route and a studio route: both count.
      const answer = await app.server.inject({
        method: 'GET',
        url: i % 2 === 0 ? '/admin/status' : `/staff/stores/${store}/members`,
        remoteAddress: attacker,
        headers: { authorization: `Bearer ${wrongKey(i)}` },
      });
      statuses.push(answer.statusCode);
      if (answer.statusCode === 429 && !refusal) refusal = { headers: answer.headers, body: answer.body };
    }
    const allowed = AUTH_FAILURE_LIMITS.perAddress.max;
    expect(statuses.slice(0, allowed).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(allowed).every((status) => status === 429)).toBe(true);
    expect(Number(refusal?.headers['retry-after'])).toBeGreaterThan(0);
    expect(JSON.parse(refusal?.body ?? '{}')).toMatchObject({
      error: 'rate_limited',
      message: expect.stringContaining('Too many failed sign-in attempts'),
    });

    // The right key from the refused address waits too, so a lucky guess cannot be checked.
    const right = await app.server.inject({
      method: 'GET',
      url: `/staff/stores/${store}/members`,
      remoteAddress: attacker,
      headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` },
    });
    expect(right.statusCode).toBe(429);
    // Everyone else is not affected.
    const automation = await app.server.inject({
      method: 'GET',
      url: `/staff/stores/${store}/members`,
      remoteAddress: '198.51.100.20',
      headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` },
    });
    expect(automation.statusCode).toBe(200);

    const ready = await app.server.inject({ method: 'GET', url: '/readyz' });
    expect(ready.json().authRefusals.adminKey).toBeGreaterThanOrEqual(300 - allowed);
    // The counters keep a keyed hash of the address, never the address (the tracking rule).
    const keys = await app.db.query<{ key: string }>('SELECT key FROM rate_limits');
    expect(keys.some((row) => row.key.startsWith('authFailure:address:'))).toBe(true);
    expect(keys.some((row) => row.key.includes(attacker))).toBe(false);
  });

  it('counts guesses of one key prefix spread over many addresses; the right key still works', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < AUTH_FAILURE_LIMITS.perKeyPrefix.max + 5; i++) {
      const answer = await app.server.inject({
        method: 'GET',
        url: '/admin/status',
        remoteAddress: `10.9.${Math.floor(i / 200)}.${i % 200}`,
        headers: { authorization: `Bearer ${TEST_ADMIN_KEY.slice(0, 6)}${wrongKey(i)}` },
      });
      statuses.push(answer.statusCode);
    }
    expect(statuses.slice(0, AUTH_FAILURE_LIMITS.perKeyPrefix.max).every((status) => status === 401)).toBe(
      true,
    );
    expect(statuses.slice(AUTH_FAILURE_LIMITS.perKeyPrefix.max).every((status) => status === 429)).toBe(true);
    const automation = await app.server.inject({
      method: 'GET',
      url: `/staff/stores/${store}/members`,
      remoteAddress: '10.9.99.1',
      headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` },
    });
    expect(automation.statusCode).toBe(200);
  });
});

describe('one-time token guesses', () => {
  it('refuses an address that keeps trying invitation and studio link tokens', async () => {
    const guesser = '203.0.113.30';
    const statuses: number[] = [];
    for (let i = 0; i < AUTH_FAILURE_LIMITS.perAddress.max + 10; i++) {
      const answer = await app.server.inject({
        method: 'POST',
        url: i % 2 === 0 ? '/staff/invitations/lookup' : '/staff/links/redeem',
        remoteAddress: guesser,
        payload: { token: `${'t'.repeat(30)}${i}` },
      });
      statuses.push(answer.statusCode);
    }
    expect(new Set(statuses.slice(0, AUTH_FAILURE_LIMITS.perAddress.max))).toEqual(new Set([401, 404]));
    expect(statuses.slice(AUTH_FAILURE_LIMITS.perAddress.max).every((status) => status === 429)).toBe(true);

    // A real invitation opened from another address works.
    const { token } = await app.services.staff.invite(store, {
      email: 'real@shop.example',
      role: 'host',
      invitedBy: null,
    });
    const real = await app.server.inject({
      method: 'POST',
      url: '/staff/invitations/lookup',
      remoteAddress: '198.51.100.30',
      payload: { token },
    });
    expect(real.statusCode).toBe(200);
  });
});

describe('studio writes', () => {
  it('refuses a staff member past the write limit, not their reads nor other members', async () => {
    const runaway = await signInStaff(app, store, 'owner');
    const statuses: number[] = [];
    for (let i = 0; i < STUDIO_WRITE_LIMIT.max + 3; i++) {
      const answer = await app.server.inject({
        method: 'DELETE',
        url: `/staff/stores/${store}/invitations/no-such-invitation-${i}`,
        headers: runaway.headers,
      });
      statuses.push(answer.statusCode);
    }
    expect(statuses.slice(0, STUDIO_WRITE_LIMIT.max).every((status) => status === 404)).toBe(true);
    expect(statuses.slice(STUDIO_WRITE_LIMIT.max).every((status) => status === 429)).toBe(true);
    const read = await app.server.inject({
      method: 'GET',
      url: `/staff/stores/${store}/members`,
      headers: runaway.headers,
    });
    expect(read.statusCode).toBe(200);
    const colleague = await signInStaff(app, store, 'owner');
    const write = await app.server.inject({
      method: 'DELETE',
      url: `/staff/stores/${store}/invitations/no-such-invitation`,
      headers: colleague.headers,
    });
    expect(write.statusCode).toBe(404);
  });
});
