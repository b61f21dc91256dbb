import type { CompleteSetupResponse, StudioSession } from '@vitrine/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp } from '../../test-support/test-app.ts';
import { issueSetupToken, SETUP_ATTEMPTS_PER_ADDRESS } from './first-run-setup.ts';

type TestApp = Awaited<ReturnType<typeof openTestApp>>;
let app: TestApp;
const clock = 1_900_000_000_000;

beforeAll(async () => {
  app = await openTestApp({ now: () => clock });
});
afterAll(async () => {
  await app?.close();
});

const setupRequest = (token: string, overrides: Record<string, unknown> = {}) => ({
  token,
  storeName: 'Nordlys Living',
  ownerName: 'Ingrid Owner',
  email: 'ingrid@nordlys.example',
  password: 'a long first-run passphrase',
  language: 'da',
  ...overrides,
});
const complete = (payload: object, ip = '203.0.113.7') =>
  app.server.inject({ method: 'POST', url: '/staff/setup', payload, remoteAddress: ip });

describe('first run without a store', () => {
  it('asks for setup, refuses a wrong token, and makes the store and its signed-in owner with a right one', async () => {
    expect((await app.server.inject({ method: 'GET', url: '/staff/setup' })).json()).toEqual({
      needed: true,
    });
    const token = await issueSetupToken(app.db, clock);

    const wrong = await complete(setupRequest(`${token.slice(0, -2)}xx`));
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ error: 'setup_token_not_valid' });

    // A common password is refused and leaves the token working.
    const weak = await complete(setupRequest(token, { password: 'password123' }));
    expect(weak.statusCode).toBe(400);

    const done = await complete(setupRequest(token));
    expect(done.statusCode).toBe(201);
    const { pageUid, session } = done.json() as CompleteSetupResponse;
    expect(pageUid).toBe('nordlys-living');
    const studio = await app.server.inject({
      method: 'GET',
      url: '/staff/me',
      headers: { authorization: `Bearer ${session.idToken}` },
    });
    expect((studio.json() as StudioSession).stores).toEqual([
      { pageUid: 'nordlys-living', name: 'Nordlys Living', logo: null, role: 'owner' },
    ]);
    expect((await app.services.stores.pageSummary('nordlys-living')).language).toBe('da');
    // The owner signs in with the password chosen on the page.
    const signIn = await app.server.inject({
      method: 'POST',
      url: '/functions/auth/signInWithPassword',
      payload: { email: 'ingrid@nordlys.example', password: 'a long first-run passphrase' },
    });
    expect(signIn.statusCode).toBe(200);

    expect((await app.server.inject({ method: 'GET', url: '/staff/setup' })).json()).toEqual({
      needed: false,
    });
  });

  it('works once: the same token, or a fresh one, makes no second store', async () => {
    const used = await complete(
      setupRequest('y'.repeat(43), { email: 'other@x.example', storeName: 'Other' }),
    );
    expect(used.statusCode).toBe(409);
    expect(used.json()).toMatchObject({ error: 'already_set_up' });
    const fresh = await issueSetupToken(app.db, clock);
    const again = await complete(setupRequest(fresh, { email: 'other@x.example', storeName: 'Other' }));
    expect(again.statusCode).toBe(409);
    expect(await app.services.stores.pageCount()).toBe(1);
  });

  it('limits attempts per client address', async () => {
    for (let attempt = 0; attempt < SETUP_ATTEMPTS_PER_ADDRESS.max; attempt++)
      expect((await complete(setupRequest('z'.repeat(43)), '198.51.100.9')).statusCode).toBe(409);
    const refused = await complete(setupRequest('z'.repeat(43)), '198.51.100.9');
    expect(refused.statusCode).toBe(429);
  });
});

describe('setup tokens', () => {
  it('expire after a week and are kept only as hashes', async () => {
    const fresh = await openTestApp({ now: () => clock });
    try {
      const token = await issueSetupToken(fresh.db, clock - 8 * 24 * 60 * 60_000);
      const stored = await fresh.db.query<{ token_hash: string }>('SELECT token_hash FROM setup_tokens');
      expect(stored.map((row) => row.token_hash)).not.toContain(token);
      const late = await fresh.server.inject({
        method: 'POST',
        url: '/staff/setup',
        payload: setupRequest(token),
      });
      expect(late.statusCode).toBe(401);
    } finally {
      await fresh.close();
    }
  });
});
