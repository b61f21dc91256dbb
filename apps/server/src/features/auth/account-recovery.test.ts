import { ACCOUNT_RECOVERY_PER_ADDRESS, ACCOUNT_RECOVERY_PER_EMAIL } from '@vitrine/domain';
import type { AuthSession } from '@vitrine/protocol';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSmtpTestServer } from '../../test-support/smtp-test-server.ts';
import { openTestApp } from '../../test-support/test-app.ts';

type TestApp = Awaited<ReturnType<typeof openTestApp>>;
let app: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpTestServer>>;
let clock = 1_900_000_000_000;
const PASSWORD = 'first-password-of-the-owner';
let accounts = 0;

beforeAll(async () => {
  smtp = await startSmtpTestServer();
  app = await openTestApp({ now: () => clock, env: { SMTP_URL: smtp.url, PORT: '4100' } });
});
afterAll(async () => {
  await app?.close();
  await smtp?.close();
});
// Each test starts in a new hour: the per-address limit counts every request of this file.
beforeEach(() => {
  clock += 2 * 60 * 60_000;
});

async function post(url: string, payload: unknown, headers: Record<string, string> = {}) {
  return app.server.inject({ method: 'POST', url, payload: payload as object, headers });
}

/** A password account; answers its e-mail and session. */
async function account(): Promise<{ email: string; session: AuthSession }> {
  const email = `owner-${++accounts}@shop.example`;
  const response = await post('/functions/auth/signUp', { email, password: PASSWORD, name: 'Owner' });
  expect(response.statusCode).toBe(200);
  return { email, session: response.json() as AuthSession };
}

/** The link in the mail that arrives next at the SMTP server, and the mail. */
async function nextMail(): Promise<{ url: URL; subject: string; text: string }> {
  const count = smtp.received.length + 1;
  await app.services.recovery.settled();
  const mail = (await smtp.waitFor(count))[count - 1];
  if (!mail) throw new Error('no mail');
  const link = /(http\S+)/.exec(mail.text)?.[1];
  if (!link) throw new Error(`no link in ${mail.text}`);
  return { url: new URL(link), subject: mail.subject, text: mail.text };
}

describe('e-mailed sign-in links', () => {
  it('mails a link to this server that signs in once', async () => {
    const { email } = await account();
    expect((await post('/functions/auth/requestSignInLink', { email })).statusCode).toBe(204);
    const { url, subject } = await nextMail();
    expect(subject).toBe('Your sign-in link');
    // The server's own address, not the request's Host (which the asker could set).
    expect(url.origin).toBe('http://127.0.0.1:4100');
    expect(url.pathname).toBe('/studio/link');
    const token = url.hash.slice(1);
    const first = await post('/staff/links/redeem', { token });
    expect(first.statusCode).toBe(200);
    const again = await post('/staff/links/redeem', { token });
    expect(again.statusCode).toBe(401);
    expect(again.json()).toMatchObject({ error: 'link_not_valid' });
  });

  it('expires after 30 minutes', async () => {
    const { email } = await account();
    await post('/functions/auth/requestSignInLink', { email });
    const { url } = await nextMail();
    clock += 30 * 60_000 + 1;
    expect((await post('/staff/links/redeem', { token: url.hash.slice(1) })).statusCode).toBe(401);
  });

  it('writes the mail in the language asked for when the account has none saved', async () => {
    const { email } = await account();
    await post('/functions/auth/requestSignInLink', { email, language: 'da' });
    const { subject, text } = await nextMail();
    expect(subject).toBe('Dit login-link');
    expect(text).toContain('Log ind: http://127.0.0.1:4100/studio/link#');
  });
});

describe('not telling who has an account', () => {
  it('answers an unknown address as a known one, and mails nothing', async () => {
    const { email } = await account();
    const before = smtp.received.length;
    const known = await post('/functions/auth/requestPasswordReset', { email });
    const unknown = await post('/functions/auth/requestPasswordReset', { email: 'nobody@shop.example' });
    await app.services.recovery.settled();
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.body).toBe(known.body);
    expect(unknown.body).toBe('');
    await smtp.waitFor(before + 1);
    expect(smtp.received.slice(before).map((mail) => mail.to)).toEqual([[email]]);
  });

  it('limits an unknown address exactly as a known one', async () => {
    const { email } = await account();
    for (const address of [email, 'nobody-else@shop.example']) {
      for (let sent = 0; sent < ACCOUNT_RECOVERY_PER_EMAIL.max; sent++)
        expect((await post('/functions/auth/requestSignInLink', { email: address })).statusCode).toBe(204);
      const refused = await post('/functions/auth/requestSignInLink', { email: address });
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ error: 'rate_limited' });
    }
    await app.services.recovery.settled();
  });

  it('limits one client address over many e-mail addresses', async () => {
    for (let sent = 0; sent < ACCOUNT_RECOVERY_PER_ADDRESS.max; sent++) {
      const response = await post('/functions/auth/requestPasswordReset', {
        email: `probe-${sent}@x.example`,
      });
      expect(response.statusCode).toBe(204);
    }
    const refused = await post('/functions/auth/requestPasswordReset', { email: 'probe-last@x.example' });
    expect(refused.statusCode).toBe(429);
    await app.services.recovery.settled();
  });
});

describe('password reset', () => {
  it('sets a new password once, ends the other sign-ins, and signs in', async () => {
    const { email, session: old } = await account();
    await post('/functions/auth/requestPasswordReset', { email });
    const { url, subject } = await nextMail();
    expect(subject).toBe('Reset your password');
    expect(url.pathname).toBe('/studio/reset-password');
    const token = url.hash.slice(1);

    // A common password is refused without spending the link.
    const common = await post('/functions/auth/resetPassword', { token, newPassword: 'password123' });
    expect(common.statusCode).toBe(400);

    const reset = await post('/functions/auth/resetPassword', {
      token,
      newPassword: 'a new long passphrase',
    });
    expect(reset.statusCode).toBe(200);
    const fresh = reset.json() as AuthSession;
    expect(
      (
        await app.server.inject({
          method: 'GET',
          url: '/staff/me',
          headers: { authorization: `Bearer ${fresh.idToken}` },
        })
      ).statusCode,
    ).toBe(200);
    // Whoever held the old sign-in is out.
    const refreshed = await post('/functions/auth/refreshIdToken', { refreshToken: old.refreshToken });
    expect(refreshed.statusCode).toBe(401);

    const oldPassword = await post('/functions/auth/signInWithPassword', { email, password: PASSWORD });
    expect(oldPassword.statusCode).toBe(401);
    const newPassword = await post('/functions/auth/signInWithPassword', {
      email,
      password: 'a new long passphrase',
    });
    expect(newPassword.statusCode).toBe(200);

    const reused = await post('/functions/auth/resetPassword', {
      token,
      newPassword: 'yet another passphrase',
    });
    expect(reused.statusCode).toBe(401);
    expect(reused.json()).toMatchObject({ error: 'link_not_valid' });
  });

  it('refuses an expired or made-up link', async () => {
    const { email } = await account();
    await post('/functions/auth/requestPasswordReset', { email });
    const { url } = await nextMail();
    clock += 31 * 60_000;
    const expired = await post('/functions/auth/resetPassword', {
      token: url.hash.slice(1),
      newPassword: 'a new long passphrase',
    });
    expect(expired.statusCode).toBe(401);
    const madeUp = await post('/functions/auth/resetPassword', {
      token: 'x'.repeat(43),
      newPassword: 'a new long passphrase',
    });
    expect(madeUp.statusCode).toBe(401);
  });
});
