import { createHmac } from 'node:crypto';
import { AuthSession, UserDoc } from '@vitrine/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { interactionFixture } from '../../test-support/interaction-fixture.ts';
import { expectUnauthenticated } from '../../test-support/refusal-answers.ts';
import { openTestApp } from '../../test-support/test-app.ts';
import { ID_TOKEN_TTL_MS, signIdToken } from './id-token.ts';
import { hashPassword, verifyPassword } from './passwords.ts';

type TestApp = Awaited<ReturnType<typeof openTestApp>>;

const START = Date.UTC(2025, 3, 1, 10, 0, 0);
let clock = START;
let app: TestApp;
const { post, signIn, record } = interactionFixture(() => app);

beforeAll(async () => {
  app = await openTestApp({ now: () => clock });
});
afterAll(async () => {
  await app?.close();
});

const session = (response: { statusCode: number; body: string; json(): unknown }) => {
  expect(response.statusCode, response.body).toBe(200);
  return AuthSession.parse(response.json());
};

describe('passwords', () => {
  it('are scrypt hashes at N=2^17, r=8, p=1 with a random salt, and verify only the right password', async () => {
    const first = await hashPassword('correct horse');
    const second = await hashPassword('correct horse');
    expect(first).toMatch(/^scrypt\$131072\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(first).not.toBe(second);
    expect(await verifyPassword('correct horse', first)).toBe(true);
    expect(await verifyPassword('correct horsf', first)).toBe(false);
    expect(await verifyPassword('correct horse', 'md5$whatever')).toBe(false);
  });
});

describe('sign-up, sign-in, refresh and logout', () => {
  it('upgrades the anonymous caller in place, then signs in with the password', async () => {
    clock = START;
    const anonymous = await signIn();
    const userTopic = await record(`user:${anonymous.user.uid}`);
    const signedUp = session(
      await post(
        '/functions/auth/signUp',
        { email: ' Ada@Example.com ', password: 'correct horse battery', name: 'Ada' },
        anonymous.idToken,
      ),
    );
    expect(signedUp.user).toEqual({ uid: anonymous.user.uid, name: 'Ada', isAnonymous: false });
    expect(await app.services.auth.verifyIdToken(signedUp.idToken)).toEqual({
      userUid: anonymous.user.uid,
      isAnonymous: false,
    });
    // The user live query hears of the upgrade; the document never carries the password.
    const doc = UserDoc.parse(userTopic.changes.at(-1)?.doc);
    expect(doc).toMatchObject({ uid: anonymous.user.uid, email: 'ada@example.com', isAnonymous: false });
    await userTopic.stop();
    const [stored] = await app.db.query<{ password_hash: string }>(
      'SELECT password_hash FROM user_passwords WHERE user_uid = $1',
      [anonymous.user.uid],
    );
    expect(stored?.password_hash).toMatch(/^scrypt\$/);
    expect(stored?.password_hash).not.toContain('correct horse');

    const again = session(
      await post('/functions/auth/signInWithPassword', {
        email: 'ADA@example.com',
        password: 'correct horse battery',
      }),
    );
    expect(again.user.uid).toBe(anonymous.user.uid);

    const wrong = await post('/functions/auth/signInWithPassword', {
      email: 'ada@example.com',
      password: 'nope',
    });
    expectUnauthenticated(wrong, 'Wrong e-mail address or password.');
    const unknown = await post('/functions/auth/signInWithPassword', {
      email: 'who@example.com',
      password: 'nope',
    });
    expect(unknown.json()).toEqual(wrong.json());
  });

  it('answers a taken e-mail like a free one without touching its account, and already_signed_in for a signed-in caller', async () => {
    // Issue 12 item 5: this used to answer 409 email_in_use, which told anyone who has an account.
    const taken = session(
      await post('/functions/auth/signUp', { email: 'ada@example.com', password: 'another password' }),
    );
    expect(taken.user).toMatchObject({ name: '', isAnonymous: false });
    const [stranger] = await app.db.query('SELECT email FROM users WHERE uid = $1', [taken.user.uid]);
    expect(stranger).toEqual({ email: null });
    const ada = session(
      await post('/functions/auth/signInWithPassword', {
        email: 'ada@example.com',
        password: 'correct horse battery',
      }),
    );
    const twice = await post(
      '/functions/auth/signUp',
      { email: 'new@example.com', password: 'new password 123' },
      ada.idToken,
    );
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error).toBe('already_signed_in');
  });

  it('creates a new account without a caller', async () => {
    const fresh = session(
      await post('/functions/auth/signUp', { email: 'grace@example.com', password: 'hopper1906' }),
    );
    expect(fresh.user).toMatchObject({ name: '', isAnonymous: false });
  });

  it('rejects malformed input with 400 naming the field', async () => {
    const cases: Array<[string, unknown, string]> = [
      [
        '/functions/auth/signUp',
        { email: 'not-an-address', password: 'longenough' },
        'email: must be an e-mail address',
      ],
      [
        '/functions/auth/signUp',
        { email: 'a@b.co', password: 'short' },
        'password: must be at least 8 characters',
      ],
      [
        '/functions/auth/signUp',
        { email: 'a@b.co', password: 'longenough', name: '<b>\u0000</b>' },
        'name: must not contain control characters',
      ],
      [
        '/functions/auth/signUp',
        { email: 'a@b.co', password: 'longenough', admin: true },
        'Unrecognized key: "admin"',
      ],
      [
        '/functions/auth/signInWithPassword',
        { email: 'a@b.co' },
        'password: Invalid input: expected string, received undefined',
      ],
      [
        '/functions/auth/logout',
        { refreshToken: 'short' },
        'refreshToken: Too small: expected string to have >=20 characters',
      ],
      [
        '/functions/auth/refreshIdToken',
        { refreshToken: 'x'.repeat(40), idToken: 'y' },
        'send either refreshToken or idToken',
      ],
      [
        '/functions/auth/signInWithCredential',
        {},
        'credential: Invalid input: expected string, received undefined',
      ],
    ];
    for (const [url, payload, message] of cases) {
      const response = await post(url, payload);
      expect(response.statusCode, `${url} ${JSON.stringify(payload)}`).toBe(400);
      expect(response.json(), url).toEqual({ error: 'invalid_request', message });
    }
    const notJson = await app.server.inject({
      method: 'POST',
      url: '/functions/auth/signUp',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(notJson.statusCode).toBe(400);
  });

  it('rotates refresh tokens; replaying a spent one revokes the whole family', async () => {
    clock = START;
    const first = await signIn();
    clock += 30 * 60_000;
    const second = session(
      await post('/functions/auth/refreshIdToken', { refreshToken: first.refreshToken }),
    );
    expect(second.user.uid).toBe(first.user.uid);
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(second.expiresAt).toBe(clock + ID_TOKEN_TTL_MS);

    const replay = await post('/functions/auth/refreshIdToken', { refreshToken: first.refreshToken });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().message).toBe(
      'The refresh token was already used, so this sign-in was ended for safety; sign in again.',
    );
    // The legitimate newer token is now refused too: the family is revoked.
    const afterRevocation = await post('/functions/auth/refreshIdToken', {
      refreshToken: second.refreshToken,
    });
    expect(afterRevocation.statusCode).toBe(401);
    expect(afterRevocation.json().message).toBe('This sign-in has ended; sign in again.');

    const unknown = await post('/functions/auth/refreshIdToken', { refreshToken: 'z'.repeat(43) });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().message).toBe('The refresh token is not valid; sign in again.');
    // Tokens are stored hashed only.
    const rows = await app.db.query('SELECT 1 FROM refresh_tokens WHERE token_hash = $1', [
      second.refreshToken,
    ]);
    expect(rows).toEqual([]);
  });

  it('refuses an expired refresh token', async () => {
    clock = START;
    const old = await signIn();
    clock = START + 31 * 24 * 60 * 60_000;
    const response = await post('/functions/auth/refreshIdToken', { refreshToken: old.refreshToken });
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toBe('The refresh token has expired; sign in again.');
    clock = START;
  });

  it('logout ends the sign-in and answers a new anonymous session', async () => {
    clock = START;
    const grace = session(
      await post('/functions/auth/signInWithPassword', {
        email: 'grace@example.com',
        password: 'hopper1906',
      }),
    );
    const out = session(await post('/functions/auth/logout', { refreshToken: grace.refreshToken }));
    expect(out.user.isAnonymous).toBe(true);
    expect(out.user.uid).not.toBe(grace.user.uid);
    const refused = await post('/functions/auth/refreshIdToken', { refreshToken: grace.refreshToken });
    expect(refused.statusCode).toBe(401);
  });

  it('refreshes by id token only for anonymous tokens from before refresh-token families', async () => {
    clock = START;
    const anonymous = await signIn();
    const account = session(
      await post('/functions/auth/signInWithPassword', {
        email: 'grace@example.com',
        password: 'hopper1906',
      }),
    );
    const key = await app.services.auth.signingKey();
    const legacyAnonymous = signIdToken(key, { sub: anonymous.user.uid, anon: true }, clock).token;
    const legacyAccount = signIdToken(key, { sub: account.user.uid, anon: false }, clock).token;
    clock = START + ID_TOKEN_TTL_MS + 60_000;
    expect((await post('/functions/auth/refreshIdToken', { idToken: legacyAnonymous })).statusCode).toBe(200);
    // Issue 12 item 4: tokens of a family, and signed-in users', refresh with the refresh token only.
    for (const idToken of [anonymous.idToken, account.idToken, legacyAccount]) {
      const refused = await post('/functions/auth/refreshIdToken', { idToken });
      expect(refused.statusCode).toBe(401);
    }
    clock = START;
  });

  it('refuses id tokens with alg none, another issuer or expired', async () => {
    clock = START;
    const viewer = await signIn();
    const [header, payload] = viewer.idToken.split('.') as [string, string];
    const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const key = await app.services.auth.signingKey();
    const signed = (h: string, p: string) =>
      `${h}.${p}.${createHmac('sha256', key).update(`${h}.${p}`).digest('base64url')}`;
    const cases: Array<[string, string]> = [
      [`${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`, 'The id token is malformed.'],
      [
        `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.x`,
        'The id token is not signed with a supported algorithm.',
      ],
      [
        signed(header, b64({ ...claims, iss: 'someone-else' })),
        'The id token was not issued by this server.',
      ],
      [signed(header, b64({ ...claims, aud: 'vitrine-admin' })), 'The id token is not meant for this API.'],
    ];
    for (const [token, message] of cases) {
      const response = await post(
        '/functions/customerpage/updateUser',
        { customerUid: viewer.user.uid, updates: { name: 'X' } },
        token,
      );
      expect(response.statusCode, token).toBe(401);
      expect(response.json().message).toBe(message);
    }
    clock = START + ID_TOKEN_TTL_MS;
    const expired = await post(
      '/functions/customerpage/updateUser',
      { customerUid: viewer.user.uid, updates: { name: 'X' } },
      viewer.idToken,
    );
    expect(expired.statusCode).toBe(401);
    clock = START;
  });
});

describe('POST /functions/customerpage/updateUser', () => {
  it('renames the caller (anonymous entry with just a name) and publishes the user document', async () => {
    const viewer = await signIn();
    const topic = await record(`user:${viewer.user.uid}`);
    const response = await post(
      '/functions/customerpage/updateUser',
      {
        pageUid: 'p',
        campaignUid: 'c',
        customerUid: viewer.user.uid,
        updates: { name: '  <img src=x onerror=alert(1)>  ', localeCode: 'da' },
      },
      viewer.idToken,
    );
    expect(response.statusCode, response.body).toBe(200);
    const doc = UserDoc.parse(response.json());
    // Stored as the text it is (trimmed), never interpreted.
    expect(doc).toMatchObject({
      uid: viewer.user.uid,
      name: '<img src=x onerror=alert(1)>',
      localeCode: 'da',
      isAnonymous: true,
    });
    expect(topic.changes).toEqual([{ type: 'modified', docId: viewer.user.uid, doc }]);
    await topic.stop();
    // The next session carries the name.
    const refreshed = session(
      await post('/functions/auth/refreshIdToken', { refreshToken: viewer.refreshToken }),
    );
    expect(refreshed.user.name).toBe('<img src=x onerror=alert(1)>');
  });

  it('answers 401 without a token, 403 for another user, 400 for bad updates', async () => {
    const viewer = await signIn();
    const other = await signIn();
    expect(
      (
        await post('/functions/customerpage/updateUser', {
          customerUid: viewer.user.uid,
          updates: { name: 'A' },
        })
      ).statusCode,
    ).toBe(401);
    const foreign = await post(
      '/functions/customerpage/updateUser',
      { customerUid: other.user.uid, updates: { name: 'Hijack' } },
      viewer.idToken,
    );
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toEqual({ error: 'forbidden', message: 'You can only update your own user.' });
    const [otherRow] = await app.db.query<{ name: string }>('SELECT name FROM users WHERE uid = $1', [
      other.user.uid,
    ]);
    expect(otherRow?.name).toBe('');
    const cases: Array<[object, string]> = [
      [{ customerUid: viewer.user.uid, updates: {} }, 'updates: must change at least one field'],
      [{ customerUid: viewer.user.uid, updates: { name: '' } }, 'updates.name: must not be empty'],
      [
        { customerUid: viewer.user.uid, updates: { name: 'x'.repeat(61) } },
        'updates.name: must be at most 60 characters',
      ],
      [
        { customerUid: viewer.user.uid, updates: { isAnonymous: false } },
        'updates: Unrecognized key: "isAnonymous"; updates: must change at least one field',
      ],
      [
        { customerUid: viewer.user.uid, updates: { currencyCode: 'XXX' } },
        'updates.currencyCode: Invalid option: expected one of "DKK"|"SEK"|"NOK"|"PLN"|"EUR"|"GBP"',
      ],
    ];
    for (const [payload, message] of cases) {
      const response = await post('/functions/customerpage/updateUser', payload, viewer.idToken);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().message).toBe(message);
    }
  });
});

describe('sign-up flood protection', () => {
  it('allows 20 sign-ups per client address per 10 minutes, then answers 429', async () => {
    clock = START;
    // As if this address had just made 20 accounts (each costs a real scrypt hash to make).
    await app.db.query(
      `INSERT INTO rate_limits (key, window_start, count) VALUES ($1, $2, 20)
       ON CONFLICT (key) DO UPDATE SET window_start = $2, count = 20`,
      ['signup:127.0.0.1', clock - 60_000],
    );
    const refused = await post('/functions/auth/signUp', {
      email: 'flood@example.com',
      password: 'password123',
    });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      error: 'rate_limited',
      message: 'Too many new accounts from this address. Try again in 540 seconds.',
      retryAfterMs: 540_000,
    });
    clock = START + 9 * 60_000;
    expect(
      (await post('/functions/auth/signUp', { email: 'flood@example.com', password: 'flood password 123' }))
        .statusCode,
    ).toBe(200);
    clock = START;
  });
});

describe('user record access errors', () => {
  it('are logged as no permissions and answered 403 without database details', async () => {
    const { createUserService } = await import('../users/user-service.ts');
    const { openTestDatabase, withTestOutbox } = await import('../../test-support/test-app.ts');
    const db = await openTestDatabase();
    try {
      const warnings: Array<{ message: string; userUid: unknown }> = [];
      const log = {
        warn: (fields: { userUid: unknown }, message: string) =>
          warnings.push({ message, userUid: fields.userUid }),
      } as unknown as Parameters<typeof createUserService>[1];
      const users = createUserService(withTestOutbox(db), log);
      await db.query(`INSERT INTO users (uid, name) VALUES ('u1', 'Ada')`);
      // A real access failure: the column the update writes is gone.
      await db.query('ALTER TABLE users DROP COLUMN locale_code');
      await expect(
        users.updateUser('u1', { customerUid: 'u1', updates: { localeCode: 'da' } }),
      ).rejects.toMatchObject({
        statusCode: 403,
        code: 'no_permissions',
        message: 'No permissions to access this user record.',
      });
      expect(warnings).toEqual([{ message: 'no permissions: user record access failed', userUid: 'u1' }]);
    } finally {
      await db.dispose();
    }
  });
});
