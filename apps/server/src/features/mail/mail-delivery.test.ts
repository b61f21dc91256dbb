import type { MailDelivery, MailDeliveryProblem, TestMailResult } from '@vitrine/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpTestServer } from '../../test-support/smtp-test-server.ts';
import { createTestStore, signInStaff, type TestStaffMember } from '../../test-support/studio-staff.ts';
import { openTestApp, openTestDatabase } from '../../test-support/test-app.ts';
import { smtpServerOf } from './mail-delivery.ts';

type TestApp = Awaited<ReturnType<typeof openTestApp>>;
let db: Awaited<ReturnType<typeof openTestDatabase>>;
let smtp: Awaited<ReturnType<typeof startSmtpTestServer>>;
/** The server before its operator set SMTP_URL (mails kept), and after (mails sent). */
let outboxOnly: TestApp;
let withSmtp: TestApp;
let pageUid: string;
let owner: TestStaffMember;

const base = () => `/staff/stores/${pageUid}`;

async function call(
  target: TestApp,
  who: TestStaffMember,
  method: 'GET' | 'POST',
  url: string,
  payload?: object,
) {
  const response = await target.server.inject({
    method,
    url,
    headers: who.headers,
    ...(payload ? { payload } : {}),
  });
  return { status: response.statusCode, body: response.json() };
}

/** A mail of the store, as an order would send it. */
const storeMail = (target: TestApp, to: string) =>
  target.services.mail.sendMail({
    pageUid,
    to,
    locale: 'en',
    template: 'staffInvitation',
    data: {
      storeName: 'Delivery shop',
      role: 'host',
      url: 'https://shop.example/invite',
      expiresAt: Date.now() + 86_400_000,
    },
  });

beforeAll(async () => {
  db = await openTestDatabase();
  smtp = await startSmtpTestServer();
  outboxOnly = await openTestApp({ db });
  pageUid = await createTestStore(outboxOnly, 'delivery-shop');
  owner = await signInStaff(outboxOnly, pageUid, 'owner', 'owner@delivery.example');
  withSmtp = await openTestApp({
    db,
    env: { SMTP_URL: smtp.url, MAIL_FROM: 'Delivery shop <shop@delivery.example>' },
  });
});
afterAll(async () => {
  await outboxOnly?.close();
  await withSmtp?.close();
  await smtp?.close();
  await db?.dispose();
});

describe('mail delivery in the studio', () => {
  let keptUid: string;

  it('without SMTP_URL says mails are kept, names the settings, and lists the kept mails', async () => {
    keptUid = (await storeMail(outboxOnly, 'kept@shopper.example')).uid;
    const { status, body } = await call(outboxOnly, owner, 'GET', `${base()}/mail-delivery`);
    expect(status).toBe(200);
    const delivery = body as MailDelivery;
    expect(delivery).toMatchObject({
      transport: 'outbox',
      smtpServer: null,
      settings: { smtpUrl: 'SMTP_URL', from: 'MAIL_FROM' },
    });
    expect(delivery.problems).toEqual([
      expect.objectContaining({
        uid: keptUid,
        to: 'kept@shopper.example',
        status: 'kept',
        attempts: 0,
        error: null,
      }),
    ]);
    // Nothing to send through: both say which setting is missing.
    const test = await call(outboxOnly, owner, 'POST', `${base()}/mail-delivery/test`, {});
    expect(test.status).toBe(409);
    expect(test.body.message).toMatch(/SMTP_URL/);
    expect((await call(outboxOnly, owner, 'POST', `${base()}/mail/${keptUid}/resend`, {})).status).toBe(409);
  });

  it('with SMTP_URL sends a test mail to the owner, and a kept mail once sent again', async () => {
    const delivery = (await call(withSmtp, owner, 'GET', `${base()}/mail-delivery`)).body as MailDelivery;
    expect(delivery).toMatchObject({
      transport: 'smtp',
      smtpServer: smtp.url,
      from: 'Delivery shop <shop@delivery.example>',
    });
    const test = await call(withSmtp, owner, 'POST', `${base()}/mail-delivery/test`, {});
    expect(test.status).toBe(200);
    expect(test.body as TestMailResult).toEqual({ ok: true, to: 'owner@delivery.example' });
    const [received] = await smtp.waitFor(1);
    expect(received?.to).toEqual(['owner@delivery.example']);
    expect(received?.subject).toBe('Test mail from Store delivery-shop');
    expect(received?.headers['content-language']).toBe('en');

    const resent = await call(withSmtp, owner, 'POST', `${base()}/mail/${keptUid}/resend`, {});
    expect(resent.status).toBe(200);
    expect(resent.body as MailDeliveryProblem).toMatchObject({ uid: keptUid, status: 'sent', error: null });
    const mails = await smtp.waitFor(2);
    expect(mails[1]?.to).toEqual(['kept@shopper.example']);
    const after = (await call(withSmtp, owner, 'GET', `${base()}/mail-delivery`)).body as MailDelivery;
    expect(after.problems.map((problem) => problem.uid)).not.toContain(keptUid);
    // Sent is sent: never twice.
    expect((await call(withSmtp, owner, 'POST', `${base()}/mail/${keptUid}/resend`, {})).status).toBe(409);
  });

  it('lists a mail the SMTP server refused with its error, and delivers it when sent again', async () => {
    smtp.rejectNext(1);
    const { uid, status } = await storeMail(withSmtp, 'refused@shopper.example');
    expect(status).toBe('queued');
    const delivery = (await call(withSmtp, owner, 'GET', `${base()}/mail-delivery`)).body as MailDelivery;
    const problem = delivery.problems.find((candidate) => candidate.uid === uid);
    expect(problem).toMatchObject({ to: 'refused@shopper.example', status: 'queued', attempts: 1 });
    expect(problem?.error).toMatch(/451.*Try again later/);
    expect(problem?.subject).toBeTruthy();

    const resent = await call(withSmtp, owner, 'POST', `${base()}/mail/${uid}/resend`, {});
    expect(resent.body as MailDeliveryProblem).toMatchObject({
      uid,
      status: 'sent',
      error: null,
      attempts: 1,
    });
    expect((await smtp.waitFor(3))[2]?.to).toEqual(['refused@shopper.example']);
  });

  it('answers a test mail the server refuses with the server’s error', async () => {
    smtp.rejectNext(1);
    const test = await call(withSmtp, owner, 'POST', `${base()}/mail-delivery/test`, {});
    expect(test.status).toBe(200);
    expect(test.body).toMatchObject({ ok: false, to: 'owner@delivery.example' });
    expect((test.body as { error: string }).error).toMatch(/451/);
  });

  it('is the owner’s: hosts, moderators and other stores’ owners get 403; another store’s mail is 404', async () => {
    const host = await signInStaff(withSmtp, pageUid, 'host');
    const moderator = await signInStaff(withSmtp, pageUid, 'moderator');
    const { uid } = await storeMail(outboxOnly, 'private@shopper.example');
    const otherStore = await createTestStore(withSmtp, 'other-delivery-shop');
    const otherOwner = await signInStaff(withSmtp, otherStore, 'owner');
    for (const who of [host, moderator, otherOwner]) {
      expect((await call(withSmtp, who, 'GET', `${base()}/mail-delivery`)).status).toBe(403);
      expect((await call(withSmtp, who, 'POST', `${base()}/mail-delivery/test`, {})).status).toBe(403);
      expect((await call(withSmtp, who, 'POST', `${base()}/mail/${uid}/resend`, {})).status).toBe(403);
    }
    // Through the other store's own path: not its mail.
    const sideways = await call(
      withSmtp,
      otherOwner,
      'POST',
      `/staff/stores/${otherStore}/mail/${uid}/resend`,
      {},
    );
    expect(sideways.status).toBe(404);
    const received = smtp.received.length;
    expect(smtp.received.slice(0, received).some((mail) => mail.to.includes('private@shopper.example'))).toBe(
      false,
    );
    // Schema-checked: no body fields the call does not take.
    const extra = await call(withSmtp, owner, 'POST', `${base()}/mail-delivery/test`, {
      to: 'attacker@evil.example',
    });
    expect(extra.status).toBe(400);
  });
});

describe('smtpServerOf', () => {
  it('keeps host and port, never the user name or password', () => {
    expect(smtpServerOf('smtp://user:s3cret@mail.example.com:2525')).toBe('smtp://mail.example.com:2525');
    expect(smtpServerOf('smtps://user:s3cret@mail.example.com')).toBe('smtps://mail.example.com:465');
    expect(smtpServerOf(null)).toBeNull();
  });
});
