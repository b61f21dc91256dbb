import { randomBytes } from 'node:crypto';
import { AuthSession } from '@vitrine/protocol';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerErrorHandling } from '../../http/errors.ts';
import { expectInvalidRequest, expectUnauthenticated } from '../../test-support/refusal-answers.ts';
import { openTestDatabase, withTestOutbox } from '../../test-support/test-app.ts';
import { createUserDirectory } from '../users/user-directory.ts';
import { type AuthService, createAuthService, REFRESH_GRACE_MS, SIGNING_KEY_SECRET } from './auth-service.ts';
import { ID_TOKEN_TTL_MS, signIdToken } from './id-token.ts';
import { registerAuthRoutes } from './routes.ts';

type TestDatabase = Awaited<ReturnType<typeof openTestDatabase>>;

const START = Date.UTC(2025, 0, 15, 12, 0, 0);

let db: TestDatabase;
let clock = START;
let auth: AuthService;
let server: FastifyInstance;

beforeAll(async () => {
  db = await openTestDatabase();
  auth = createAuthService(withTestOutbox(db), { users: createUserDirectory(db), now: () => clock });
  server = Fastify({ logger: false });
  registerErrorHandling(server);
  registerAuthRoutes(server, auth);
  // A stand-in for the routes that will call authenticateRequest.
  server.get('/whoami', async (request) => ({ user: await auth.authenticateRequest(request) }));
  await server.ready();
});

afterAll(async () => {
  await server?.close();
  await db?.dispose();
});

function signIn(payload?: unknown, headers: Record<string, string> = {}) {
  return server.inject({
    method: 'POST',
    url: '/functions/auth/signInAnonymously',
    headers,
    ...(payload === undefined ? {} : { payload: payload as string }),
  });
}

function refresh(payload: unknown) {
  return server.inject({ method: 'POST', url: '/functions/auth/refreshIdToken', payload: payload as object });
}

async function newSession(): Promise<AuthSession> {
  const response = await signIn({});
  expect(response.statusCode).toBe(200);
  return AuthSession.parse(response.json());
}

function whoami(authorization?: string) {
  return server.inject({
    method: 'GET',
    url: '/whoami',
    ...(authorization === undefined ? {} : { headers: { authorization } }),
  });
}

describe('POST /functions/auth/signInAnonymously', () => {
  it('creates an anonymous user and answers an AuthSession', async () => {
    clock = START;
    const response = await signIn({});
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = response.json();
    expect(AuthSession.parse(body)).toEqual(body);
    expect(body.expiresAt).toBe(START + ID_TOKEN_TTL_MS);
    expect(body.user).toEqual({ uid: expect.any(String), name: '', isAnonymous: true });
    expect(body.user.uid).toMatch(/^[A-Za-z0-9_-]{20,}$/);

    const rows = await db.query('SELECT uid, name, is_anonymous FROM users WHERE uid = $1', [body.user.uid]);
    expect(rows).toEqual([{ uid: body.user.uid, name: '', is_anonymous: true }]);

    expect(await auth.verifyIdToken(body.idToken)).toEqual({ userUid: body.user.uid, isAnonymous: true });
  });

  it('accepts an absent body and gives every sign-in its own user', async () => {
    const bare = await signIn();
    expect(bare.statusCode).toBe(200);
    const other = await newSession();
    expect(other.user.uid).not.toBe(bare.json().user.uid);
    expect(other.idToken).not.toBe(bare.json().idToken);
  });

  it('rejects a body with fields', async () => {
    const response = await signIn({ uid: 'chosen-by-client' });
    expectInvalidRequest(response, 'Unrecognized key: "uid"');
  });
});

/**
 * An anonymous client's id token from before refresh-token families (no `fam` claim): the only
 * kind the id-token refresh still exchanges (issue 12 item 4; see REFRESH_GRACE_MS).
 */
async function tokenFromBeforeFamilies(session: AuthSession): Promise<string> {
  return signIdToken(await auth.signingKey(), { sub: session.user.uid, anon: true }, clock).token;
}

describe('POST /functions/auth/refreshIdToken', () => {
  it('answers a new session for the same user with a later expiry (anonymous token from before families)', async () => {
    clock = START;
    const first = await newSession();
    const legacyToken = await tokenFromBeforeFamilies(first);
    clock = START + 30 * 60_000;
    const response = await refresh({ idToken: legacyToken });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const second = AuthSession.parse(response.json());
    expect(second.user).toEqual(first.user);
    expect(second.expiresAt).toBe(clock + ID_TOKEN_TTL_MS);
    expect(second.expiresAt).toBeGreaterThan(first.expiresAt);
    expect(second.idToken).not.toBe(legacyToken);
    expect(await auth.verifyIdToken(second.idToken)).toEqual({ userUid: first.user.uid, isAnonymous: true });
  });

  it('refreshes a token that expired within the grace period, not one expired longer', async () => {
    clock = START;
    const session = await newSession();
    const legacyToken = await tokenFromBeforeFamilies(session);

    clock = session.expiresAt + 60_000;
    await expect(auth.verifyIdToken(legacyToken)).rejects.toMatchObject({ reason: 'expired' });
    const late = await refresh({ idToken: legacyToken });
    expect(late.statusCode).toBe(200);
    expect(late.json().expiresAt).toBe(clock + ID_TOKEN_TTL_MS);

    clock = session.expiresAt + REFRESH_GRACE_MS;
    const tooLate = await refresh({ idToken: legacyToken });
    expectUnauthenticated(tooLate, 'The id token has expired; refresh it or sign in again.');
  });

  it('follows the user row: refused once the user is gone', async () => {
    clock = START;
    const session = await newSession();
    const legacyToken = await tokenFromBeforeFamilies(session);
    await db.query('DELETE FROM users WHERE uid = $1', [session.user.uid]);
    const response = await refresh({ idToken: legacyToken });
    expectUnauthenticated(response, 'The user of the id token no longer exists; sign in again.');
  });

  it('rejects a token signed with another key', async () => {
    clock = START;
    const session = await newSession();
    const { token } = signIdToken(randomBytes(32), { sub: session.user.uid, anon: false }, clock);
    await expect(auth.verifyIdToken(token)).rejects.toMatchObject({ reason: 'bad_signature' });
    const response = await refresh({ idToken: token });
    expectUnauthenticated(response, 'The id token signature is not valid.');
  });

  it('answers 401 to a malformed token and 400 to a malformed request', async () => {
    const garbage = await refresh({ idToken: 'not-a-token' });
    expectUnauthenticated(garbage, 'The id token is malformed.');

    const empty = await refresh({ idToken: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toBe('invalid_request');
    const long = await refresh({ idToken: 'a'.repeat(4097) });
    expect(long.statusCode).toBe(400);
    const missing = await refresh({});
    expectInvalidRequest(missing, 'send either refreshToken or idToken');
  });
});

describe('authenticateRequest', () => {
  it('is null without an Authorization header', async () => {
    expect((await whoami()).json()).toEqual({ user: null });
    expect((await whoami('')).json()).toEqual({ user: null });
  });

  it('names the user of a valid bearer id token', async () => {
    clock = START;
    const session = await newSession();
    for (const authorization of [`Bearer ${session.idToken}`, `bearer ${session.idToken}`]) {
      const response = await whoami(authorization);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ user: { userUid: session.user.uid, isAnonymous: true } });
    }
  });

  it('answers 401 with a clear message to a header that is there but not valid', async () => {
    clock = START;
    const session = await newSession();
    const cases: Array<[string, string]> = [
      [session.idToken, 'The Authorization header must be "Bearer <id token>".'],
      [`Basic ${session.idToken}`, 'The Authorization header must be "Bearer <id token>".'],
      ['Bearer', 'The Authorization header must be "Bearer <id token>".'],
      [`Bearer ${session.idToken} extra`, 'The Authorization header must be "Bearer <id token>".'],
      ['Bearer nonsense', 'The id token is malformed.'],
      [`Bearer ${session.idToken.slice(0, -2)}xx`, 'The id token signature is not valid.'],
    ];
    for (const [authorization, message] of cases) {
      const response = await whoami(authorization);
      expectUnauthenticated(response, message, authorization);
    }
    clock = session.expiresAt;
    const expired = await whoami(`Bearer ${session.idToken}`);
    expect(expired.statusCode).toBe(401);
    expect(expired.json().message).toBe('The id token has expired; refresh it or sign in again.');
  });
});

describe('signing key', () => {
  it('is 32 bytes stored once in server_secrets and cached', async () => {
    const key = await auth.signingKey();
    expect(key).toHaveLength(32);
    const rows = await db.query<{ value: string }>('SELECT value FROM server_secrets WHERE name = $1', [
      SIGNING_KEY_SECRET,
    ]);
    expect(rows).toHaveLength(1);
    expect(Buffer.from(rows[0]!.value, 'base64url')).toEqual(key);
    expect(await auth.signingKey()).toBe(key);
  });

  it('is shared by every auth service on the database', async () => {
    const other = createAuthService(withTestOutbox(db), { users: createUserDirectory(db), now: () => clock });
    expect(await other.signingKey()).toEqual(await auth.signingKey());

    clock = START;
    const session = AuthSession.parse((await signIn({})).json());
    expect(await other.verifyIdToken(session.idToken)).toEqual({
      userUid: session.user.uid,
      isAnonymous: true,
    });
    const fromOther = await other.signInAnonymously();
    expect(await auth.verifyIdToken(fromOther.idToken)).toEqual({
      userUid: fromOther.user.uid,
      isAnonymous: true,
    });
  });

  it('is agreed on by services that load it at the same time on a fresh database, and is its own', async () => {
    const fresh = await openTestDatabase();
    try {
      const services = Array.from({ length: 4 }, () =>
        createAuthService(withTestOutbox(fresh), { users: createUserDirectory(fresh), now: () => clock }),
      );
      const keys = await Promise.all(services.map((service) => service.signingKey()));
      for (const key of keys) expect(key).toEqual(keys[0]);
      expect(await fresh.query('SELECT name FROM server_secrets')).toEqual([{ name: SIGNING_KEY_SECRET }]);
      const session = await services[0]!.signInAnonymously();
      await expect(services[3]!.verifyIdToken(session.idToken)).resolves.toMatchObject({
        userUid: session.user.uid,
      });
      // Another database, another key: its tokens mean nothing here.
      expect(keys[0]).not.toEqual(await auth.signingKey());
      await expect(auth.verifyIdToken(session.idToken)).rejects.toMatchObject({ reason: 'bad_signature' });
    } finally {
      await fresh.dispose();
    }
  });
});
