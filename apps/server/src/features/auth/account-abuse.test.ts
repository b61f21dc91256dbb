import { AuthSession } from '@vitrine/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp } from '../../test-support/test-app.ts';
import { ANONYMOUS_USERS_PER_ADDRESS } from './auth-service.ts';

/**
 * Identity abuse limits (issue 12 item 5), with config.abuseLimits on as in production: weak
 * passwords, sign-up enumeration, lock-out by a stranger's guesses, anonymous-user floods.
 */

type TestApp = Awaited<ReturnType<typeof openTestApp>>;
const START = Date.UTC(2026, 10, 1, 10, 0, 0);
let clock = START;
let app: TestApp;
const OWNER_ADDRESS = '198.51.100.20';
const ATTACKER_ADDRESS = '203.0.113.99';

beforeAll(async () => {
  app = await openTestApp({ now: () => clock, env: { VITRINE_ABUSE_LIMITS: 'on' } });
});
afterAll(async () => {
  await app?.close();
});

function post(url: string, payload: object, remoteAddress: string, idToken?: string) {
  return app.server.inject({
    method: 'POST',
    url,
    payload,
    remoteAddress,
    ...(idToken ? { headers: { authorization: `Bearer ${idToken}` } } : {}),
  });
}

/** A sign-up with a password, from `remoteAddress`. */
const signUp = (email: string, password: string, remoteAddress: string) =>
  post('/functions/auth/signUp', { email, password }, remoteAddress);

/** A sign-in with a password, from `remoteAddress`. */
const signInWithPassword = (email: string, password: string, remoteAddress: string) =>
  post('/functions/auth/signInWithPassword', { email, password }, remoteAddress);

const session = (response: { statusCode: number; body: string; json(): unknown }) => {
  expect(response.statusCode, response.body).toBe(200);
  return AuthSession.parse(response.json());
};

describe('password policy', () => {
  it('refuses the most common passwords and too-short ones, with a message saying why', async () => {
    for (const password of ['password123', 'Qwertyuiop', 'iloveyou1']) {
      const response = await signUp('weak@example.com', password, '192.0.2.1');
      expect(response.statusCode, password).toBe(400);
      expect(response.json()).toEqual({
        error: 'weak_password',
        message: 'This password is one of the most commonly used ones and easy to guess; choose another.',
      });
    }
    const short = await signUp('weak@example.com', 'k7#q', '192.0.2.1');
    expect(short.json()).toEqual({
      error: 'invalid_request',
      message: 'password: must be at least 8 characters',
    });
    const [row] = await app.db.query('SELECT count(*)::int AS n FROM users WHERE email = $1', [
      'weak@example.com',
    ]);
    expect(row).toEqual({ n: 0 });
  });
});

describe('sign-up with a taken e-mail', () => {
  it('answers like a free e-mail, leaves the account alone, and signs its holder in with her own password', async () => {
    const owner = session(await signUp('holder@example.com', 'holder secret words', OWNER_ADDRESS));
    // An enumerating stranger: the answer to a taken e-mail has the shape of a fresh sign-up's.
    const probeTaken = await signUp('holder@example.com', 'probe password 1', ATTACKER_ADDRESS);
    const probeFree = await signUp('free-address@example.com', 'probe password 1', ATTACKER_ADDRESS);
    expect(probeTaken.statusCode).toBe(probeFree.statusCode);
    const shape = (response: typeof probeTaken) => {
      const parsed = session(response);
      return { keys: Object.keys(parsed).sort(), user: { ...parsed.user, uid: typeof parsed.user.uid } };
    };
    expect(shape(probeTaken)).toEqual(shape(probeFree));
    expect(session(probeTaken).user.uid).not.toBe(owner.user.uid);

    // The account is untouched: the stranger's password does not open it, the holder's does.
    const withProbe = await signInWithPassword('holder@example.com', 'probe password 1', ATTACKER_ADDRESS);
    expect(withProbe.statusCode).toBe(401);
    const [stored] = await app.db.query('SELECT email FROM users WHERE uid = $1', [owner.user.uid]);
    expect(stored).toEqual({ email: 'holder@example.com' });
    // The holder who forgot she had an account and "signs up" again is simply signed in.
    const again = session(await signUp('holder@example.com', 'holder secret words', OWNER_ADDRESS));
    expect(again.user.uid).toBe(owner.user.uid);
  });
});

describe('password guessing', () => {
  it("does not let a stranger's wrong guesses lock the owner out", async () => {
    clock = START;
    session(await signUp('target@example.com', 'target own phrase', OWNER_ADDRESS));
    for (let guess = 0; guess < 10; guess++) {
      const response = await signInWithPassword('target@example.com', `guess ${guess}`, ATTACKER_ADDRESS);
      expect(response.statusCode).toBe(401);
    }
    const eleventh = await signInWithPassword('target@example.com', 'guess 10', ATTACKER_ADDRESS);
    expect(eleventh.statusCode).toBe(429);
    expect(eleventh.json().message).toBe('Too many sign-in attempts. Try again in 900 seconds.');
    // Nor can he go on guessing through sign-up, which checks a taken e-mail's password.
    const viaSignUp = await signUp('target@example.com', 'target own phrase', ATTACKER_ADDRESS);
    expect(viaSignUp.statusCode).toBe(429);
    // The owner, from her own address, signs in as usual.
    const owner = await signInWithPassword('target@example.com', 'target own phrase', OWNER_ADDRESS);
    expect(owner.statusCode, owner.body).toBe(200);
  });

  it('caps attempts on one e-mail from all addresses, and attempts from one address over all e-mails', async () => {
    clock = START;
    // As if ten addresses had each used up their own allowance for this e-mail.
    await app.db.query('INSERT INTO rate_limits (key, window_start, count) VALUES ($1, $2, 100)', [
      'password:spread@example.com',
      clock,
    ]);
    const spread = await signInWithPassword('spread@example.com', 'whatever it is', '192.0.2.77');
    expect(spread.statusCode).toBe(429);
    // One address trying a password on 100 accounts in ten minutes: the 101st is refused.
    const stuffer = '192.0.2.200';
    for (let account = 0; account < 100; account++) {
      await app.db.query('INSERT INTO rate_limits (key, window_start, count) VALUES ($1, $2, 1)', [
        `password:user${account}@example.com:${stuffer}`,
        clock,
      ]);
    }
    await app.db.query('INSERT INTO rate_limits (key, window_start, count) VALUES ($1, $2, 100)', [
      `password-address:${stuffer}`,
      clock,
    ]);
    const stuffed = await signInWithPassword('user100@example.com', 'Summer2024!', stuffer);
    expect(stuffed.statusCode).toBe(429);
    expect(stuffed.json().message).toBe(
      'Too many sign-in attempts from your network. Try again in 600 seconds.',
    );
  });
});

describe('anonymous users', () => {
  it(`are created at most ${ANONYMOUS_USERS_PER_ADDRESS.max} a minute per address, logouts included`, async () => {
    clock = START + 60 * 60_000;
    const flooder = '203.0.113.150';
    const made: AuthSession[] = [];
    for (let index = 0; index < ANONYMOUS_USERS_PER_ADDRESS.max; index++) {
      made.push(session(await post('/functions/auth/signInAnonymously', {}, flooder)));
    }
    const refused = await post('/functions/auth/signInAnonymously', {}, flooder);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      error: 'rate_limited',
      message: 'Too many new visitors from this address. Try again in 60 seconds.',
      retryAfterMs: 60_000,
    });
    // Logging out makes a new anonymous user too: no way around the limit through logout.
    const viaLogout = await post('/functions/auth/logout', { refreshToken: made[0]?.refreshToken }, flooder);
    expect(viaLogout.statusCode).toBe(429);
    // Another address (another household) is not affected; a minute later this one may go on.
    session(await post('/functions/auth/signInAnonymously', {}, '198.51.100.151'));
    clock += ANONYMOUS_USERS_PER_ADDRESS.windowMs;
    session(await post('/functions/auth/signInAnonymously', {}, flooder));
  });
});
