import { AuthSession, CredentialInUseError, OidcStartResponse } from '@vitrine/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { interactionFixture } from '../../test-support/interaction-fixture.ts';
import { openTestApp } from '../../test-support/test-app.ts';
import { startTestOidcProvider, type TestOidcProvider } from '../../test-support/test-oidc-provider.ts';

/**
 * Social sign-in end to end against a real OpenID Connect provider (the `oidc-provider`
 * package, started here on a loopback port): authorization code + PKCE, state and nonce.
 * The browser part (login and consent forms, redirects) is driven with fetch and a cookie jar.
 */

type TestApp = Awaited<ReturnType<typeof openTestApp>>;

const REDIRECT_URI = 'http://localhost:5173/auth/callback';
const SAME_ORIGIN_REDIRECT_URI = 'http://localhost/auth/callback';
let provider: TestOidcProvider;
let issuer: string;
let app: TestApp;
const { post, signIn } = interactionFixture(() => app);

beforeAll(async () => {
  // The second URI is the default for a provider configured without one: the web app's
  // /auth/callback on the origin the sign-in starts from (inject's Host is localhost:80).
  provider = await startTestOidcProvider({ redirectUris: [REDIRECT_URI, SAME_ORIGIN_REDIRECT_URI] });
  issuer = provider.issuer;
  app = await openTestApp({
    env: {
      VITRINE_OIDC_PROVIDERS: JSON.stringify([
        provider.providerConfig(REDIRECT_URI),
        { ...provider.providerConfig(), id: 'same-origin', name: 'Same origin' },
      ]),
    },
  });
});

afterAll(async () => {
  await app?.close();
  await provider?.close();
});

/**
 * A browser that signs in at the provider as `login`: follows redirects, fills the login form
 * and confirms the consent form, and stops at the redirect URI, whose full URL it returns.
 */
async function signInAtProvider(
  authorizationUrl: string,
  login: string,
  redirectUri = REDIRECT_URI,
): Promise<string> {
  const cookies = new Map<string, string>();
  let url = authorizationUrl;
  let method = 'GET';
  let body: string | undefined;
  for (let step = 0; step < 20; step++) {
    const response = await fetch(url, {
      method,
      redirect: 'manual',
      headers: {
        cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(body ? { body } : {}),
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const [name, value] = (pair as string).split('=') as [string, string];
      cookies.set(name, value);
    }
    const location = response.headers.get('location');
    if (location) {
      url = new URL(location, url).href;
      if (url.startsWith(redirectUri)) return url;
      method = 'GET';
      body = undefined;
      continue;
    }
    const html = await response.text();
    const form = /<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/i.exec(html);
    if (!form) throw new Error(`no form at ${url} (${response.status}): ${html.slice(0, 500)}`);
    const fields = new URLSearchParams();
    for (const input of (form[2] as string).matchAll(/<input[^>]*>/gi)) {
      const name = /name="([^"]+)"/.exec(input[0])?.[1];
      if (!name) continue;
      const value = /value="([^"]*)"/.exec(input[0])?.[1] ?? '';
      fields.set(name, name === 'login' ? login : name === 'password' ? 'any password' : value);
    }
    url = new URL(form[1] as string, url).href;
    method = 'POST';
    body = fields.toString();
  }
  throw new Error('the provider did not come back to the redirect URI');
}

/** Starts a flow as the caller of `idToken` (none: without one); the answer's flowSecret is the browser's. */
async function startFlow(idToken?: string, providerId = 'testid') {
  const response = await post('/functions/auth/oidc/start', { providerId }, idToken);
  expect(response.statusCode, response.body).toBe(200);
  return OidcStartResponse.parse(response.json());
}

/** The browser's part of finishing a flow: the callback URL with the flow secret it kept. */
const complete = (callbackUrl: string, flowSecret: string, idToken?: string) =>
  post('/functions/auth/oidc/complete', { callbackUrl, flowSecret }, idToken);

describe('social sign-in through OpenID Connect', () => {
  it('lists the configured providers', async () => {
    const response = await post('/functions/auth/oidc/providers', {});
    expect(response.json()).toEqual({
      providers: [
        { id: 'testid', name: 'Test ID' },
        { id: 'same-origin', name: 'Same origin' },
      ],
    });
  });

  it('starts an authorization-code flow with PKCE (S256), state and nonce', async () => {
    const { authorizationUrl, state } = await startFlow();
    const url = new URL(authorizationUrl);
    expect(url.origin).toBe(issuer);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: 'vitrine-test',
      response_type: 'code',
      redirect_uri: REDIRECT_URI,
      code_challenge_method: 'S256',
      state,
      scope: 'openid email profile',
    });
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get('nonce')).toMatch(/^[\w-]{20,}$/);
    // The verifier never leaves the server.
    const [flow] = await app.db.query<{ code_verifier: string }>(
      'SELECT code_verifier FROM oidc_flows WHERE state = $1',
      [state],
    );
    expect(authorizationUrl).not.toContain(flow?.code_verifier);
  });

  it('upgrades the anonymous caller, then answers credential_in_use to another anonymous user, who retries with the credential', async () => {
    const first = await signIn();
    const { authorizationUrl, flowSecret } = await startFlow(first.idToken);
    const callbackUrl = await signInAtProvider(authorizationUrl, 'alice');
    const completed = await complete(callbackUrl, flowSecret, first.idToken);
    expect(completed.statusCode, completed.body).toBe(200);
    const linked = AuthSession.parse(completed.json());
    expect(linked.user).toEqual({ uid: first.user.uid, name: 'Social alice', isAnonymous: false });
    const [user] = await app.db.query('SELECT email, is_anonymous FROM users WHERE uid = $1', [
      first.user.uid,
    ]);
    expect(user).toEqual({ email: 'alice@social.example', is_anonymous: false });

    // The same callback cannot be completed twice.
    const replay = await complete(callbackUrl, flowSecret, first.idToken);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().message).toBe('This sign-in has expired or was already completed; start again.');

    // On another device, anonymous, the same person signs in with the same identity.
    const second = await signIn();
    const again = await startFlow(second.idToken);
    const conflict = await complete(
      await signInAtProvider(again.authorizationUrl, 'alice'),
      again.flowSecret,
      second.idToken,
    );
    expect(conflict.statusCode).toBe(409);
    const error = CredentialInUseError.parse(conflict.json());
    expect(error.message).toBe(
      'This sign-in is already linked to another account; signing in to that account instead.',
    );
    const retried = AuthSession.parse(
      (await post('/functions/auth/signInWithCredential', { credential: error.credential })).json(),
    );
    expect(retried.user.uid).toBe(first.user.uid);
    const reused = await post('/functions/auth/signInWithCredential', { credential: error.credential });
    expect(reused.statusCode).toBe(401);
  });

  it('signs in to the linked user without a caller, and creates a new one for a new identity', async () => {
    const flow = await startFlow();
    const known = AuthSession.parse(
      (await complete(await signInAtProvider(flow.authorizationUrl, 'alice'), flow.flowSecret)).json(),
    );
    expect(known.user.name).toBe('Social alice');
    const newFlow = await startFlow();
    const created = await complete(
      await signInAtProvider(newFlow.authorizationUrl, 'bob'),
      newFlow.flowSecret,
    );
    expect(created.statusCode, created.body).toBe(200);
    expect(AuthSession.parse(created.json()).user).toMatchObject({ name: 'Social bob', isAnonymous: false });
    expect(AuthSession.parse(created.json()).user.uid).not.toBe(known.user.uid);
  });

  it("returns to this server's /auth/callback when no redirect URI is configured, whatever the caller's Origin", async () => {
    const { authorizationUrl, flowSecret } = await startFlow(undefined, 'same-origin');
    expect(new URL(authorizationUrl).searchParams.get('redirect_uri')).toBe(SAME_ORIGIN_REDIRECT_URI);
    const callbackUrl = await signInAtProvider(authorizationUrl, 'dana', SAME_ORIGIN_REDIRECT_URI);
    const completed = await complete(callbackUrl, flowSecret);
    expect(completed.statusCode, completed.body).toBe(200);
    expect(AuthSession.parse(completed.json()).user.name).toBe('Social dana');
    // The caller's Origin header is not configuration: a page on another origin (which could be
    // the attacker's) does not choose where the provider sends the code.
    for (const origin of ['https://evil.example:8443', 'null']) {
      const started = await app.server.inject({
        method: 'POST',
        url: '/functions/auth/oidc/start',
        headers: { origin },
        payload: { providerId: 'same-origin' },
      });
      const url = new URL(OidcStartResponse.parse(started.json()).authorizationUrl);
      expect(url.searchParams.get('redirect_uri'), origin).toBe(SAME_ORIGIN_REDIRECT_URI);
    }
  });

  it('refuses a forged state, a code for another flow, and malformed requests', async () => {
    const flow = await startFlow();
    const callbackUrl = await signInAtProvider(flow.authorizationUrl, 'carol');
    const forged = new URL(callbackUrl);
    forged.searchParams.set('state', 'forged-state');
    const response = await complete(forged.href, flow.flowSecret);
    expect(response.statusCode).toBe(400);

    // The code of one flow presented with the state of another: PKCE and the code binding fail.
    const other = await startFlow();
    const swapped = new URL(callbackUrl);
    swapped.searchParams.set('state', other.state);
    const mixed = await complete(swapped.href, other.flowSecret);
    expect(mixed.statusCode).toBe(401);
    // The library's reason stays in the server log; the body says only what the viewer can use.
    expect(mixed.json()).toEqual({
      error: 'unauthenticated',
      message: 'The sign-in with Test ID could not be completed.',
    });

    const wrongPlace = await startFlow();
    const elsewhere = `https://evil.example/auth/callback?code=x&state=${wrongPlace.state}`;
    // A provider's error is named by its code only; made-up text in the link is not echoed.
    const refusedFlow = await startFlow();
    const refusedAt = `${REDIRECT_URI}?error=access_denied%20Call%20%2B1-555&state=${refusedFlow.state}`;
    expect((await complete(refusedAt, refusedFlow.flowSecret)).json()).toEqual({
      error: 'unauthenticated',
      message: 'The sign-in provider refused: error.',
    });
    expect((await complete(elsewhere, wrongPlace.flowSecret)).json().message).toBe(
      "callbackUrl: is not this provider's redirect URI",
    );

    expect((await post('/functions/auth/oidc/start', { providerId: 'nope' })).statusCode).toBe(404);
    expect((await post('/functions/auth/oidc/start', {})).statusCode).toBe(400);
    expect((await complete('not a url', 'secret')).json()).toEqual({
      error: 'invalid_request',
      message: 'callbackUrl: must be a URL',
    });
    expect((await post('/functions/auth/oidc/providers', { x: 1 })).statusCode).toBe(400);
    expect((await post('/functions/auth/oidc/complete', { callbackUrl: elsewhere })).statusCode).toBe(400);
  });

  it("refuses an attacker's half-finished callback opened by a victim, and links nothing to her account", async () => {
    // The attacker starts a flow and signs in at the provider as himself, but stops at the
    // callback and sends the link to the victim.
    const attacker = await signIn();
    const flow = await startFlow(attacker.idToken);
    const link = await signInAtProvider(flow.authorizationUrl, 'mallory');
    const victim = await signIn();
    // Her browser never saw the flow secret; even given it, her session did not start the flow.
    for (const secret of ['a-secret-her-browser-made-up', flow.flowSecret]) {
      const response = await complete(link, secret, victim.idToken);
      expect(response.statusCode, response.body).toBe(403);
      expect(response.json()).toEqual({
        error: 'forbidden',
        message: 'This sign-in was started in another browser or session; start again.',
      });
    }
    const withoutSession = await complete(link, flow.flowSecret);
    expect(withoutSession.statusCode).toBe(403);
    const [victimUser] = await app.db.query('SELECT is_anonymous, email FROM users WHERE uid = $1', [
      victim.user.uid,
    ]);
    expect(victimUser).toEqual({ is_anonymous: true, email: null });
    expect(
      await app.db.query('SELECT 1 FROM user_identities WHERE user_uid = $1', [victim.user.uid]),
    ).toEqual([]);
    // The failed attempts did not use the flow up: the browser that started it still finishes it.
    const own = await complete(link, flow.flowSecret, attacker.idToken);
    expect(own.statusCode, own.body).toBe(200);
    expect(AuthSession.parse(own.json()).user.uid).toBe(attacker.user.uid);
  });

  it('does not attach an e-mail the provider does not say it verified', async () => {
    const flow = await startFlow();
    const completed = await complete(
      await signInAtProvider(flow.authorizationUrl, 'unverified-erin'),
      flow.flowSecret,
    );
    expect(completed.statusCode, completed.body).toBe(200);
    const { uid } = AuthSession.parse(completed.json()).user;
    const [user] = await app.db.query('SELECT email FROM users WHERE uid = $1', [uid]);
    expect(user).toEqual({ email: null });
  });
});
