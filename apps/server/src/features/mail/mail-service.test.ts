import { PageInput } from '@vitrine/protocol';
import { LOCALES } from '@vitrine/protocol/vocabulary';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpTestServer } from '../../test-support/smtp-test-server.ts';
import { openTestDatabase, withTestOutbox } from '../../test-support/test-app.ts';
import { createStoreService } from '../stores/store-service.ts';
import { createMailService, MAIL_RETRY_DELAYS_MS } from './mail-service.ts';
import { type OrderMailData, renderMail } from './mail-templates.ts';

const silent = { error: () => {}, warn: () => {} };

const ORDER: OrderMailData = {
  storeName: 'Kaffe & <Kop>',
  orderNumber: 100123,
  customerName: 'Åse <script>alert(1)</script>',
  customerEmail: 'ase@example.com',
  currency: 'DKK',
  lines: [
    { name: 'Mug', variant: null, qty: 2, total: 35_800 },
    { name: 'Shirt', variant: 'M', qty: 1, total: 54_900 },
  ],
  subtotal: 90_700,
  freight: 4_900,
  total: 95_600,
  delivery: { kind: 'address', lines: ['Åse <script>', 'Havnegade 4', '8000 Aarhus C'] },
};

let db: Awaited<ReturnType<typeof openTestDatabase>>;
let smtp: Awaited<ReturnType<typeof startSmtpTestServer>>;
let clock = 1_800_000_000_000;
const now = () => clock;

beforeAll(async () => {
  db = await openTestDatabase();
  smtp = await startSmtpTestServer();
  await createStoreService(withTestOutbox(db)).upsertPage(
    'mail-shop',
    PageInput.parse({ name: 'Mail shop', language: 'da', currency: 'DKK' }),
  );
});
afterAll(async () => {
  await smtp?.close();
  await db?.dispose();
});

const statusOf = async (uid: string) =>
  (
    await db.query<{ status: string; attempts: number; error: string | null }>(
      'SELECT status, attempts, error FROM mail_outbox WHERE uid = $1',
      [uid],
    )
  )[0];

describe('mail over SMTP', () => {
  it('sends the order confirmation in the shopper’s language, text and HTML, names escaped in HTML', async () => {
    const mail = createMailService({
      db,
      now,
      log: silent,
      smtpUrl: smtp.url,
      from: 'Shop <shop@example.com>',
    });
    const before = smtp.received.length;
    const sent = await mail.sendMail({
      pageUid: null,
      to: 'ase@example.com',
      locale: 'da',
      template: 'orderConfirmation',
      data: ORDER,
    });
    expect(sent.status).toBe('sent');
    const [arrived] = (await smtp.waitFor(before + 1)).slice(before);
    expect(arrived?.to).toEqual(['ase@example.com']);
    expect(arrived?.from).toBe('shop@example.com');
    expect(arrived?.subject).toBe('Din ordre 100123 fra Kaffe & <Kop>');
    expect(arrived?.headers['content-language']).toBe('da');
    expect(arrived?.text).toContain('Hej Åse <script>alert(1)</script>');
    expect(arrived?.text).toContain('Tak for din ordre');
    expect(arrived?.text).toMatch(/I alt: 956,00\s?kr\./);
    expect(arrived?.html).toContain('Hej Åse &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(arrived?.html).not.toContain('<script>');
    expect(arrived?.html).toContain('Kaffe &amp; &lt;Kop&gt;');
    expect(await statusOf(sent.uid)).toMatchObject({ status: 'sent', attempts: 1, error: null });
    mail.close();
  });

  it('keeps a mail the server refused and sends it again after the backoff', async () => {
    const mail = createMailService({ db, now, log: silent, smtpUrl: smtp.url, from: 'shop@example.com' });
    const before = smtp.received.length;
    smtp.rejectNext(1);
    const queued = await mail.sendMail({
      pageUid: null,
      to: 'owner@example.com',
      locale: 'fr',
      template: 'newOrderNotice',
      data: ORDER,
    });
    expect(queued.status).toBe('queued');
    expect(await statusOf(queued.uid)).toMatchObject({ status: 'queued', attempts: 1 });
    expect(await mail.retryDue()).toBe(0);
    clock += MAIL_RETRY_DELAYS_MS[0];
    expect(await mail.retryDue()).toBe(1);
    const [arrived] = (await smtp.waitFor(before + 1)).slice(before);
    expect(arrived?.subject).toBe('Nouvelle commande payée 100123');
    expect(await statusOf(queued.uid)).toMatchObject({ status: 'sent', attempts: 2, error: null });
    mail.close();
  });

  it('gives a mail up as failed after its retries, keeping it and the error', async () => {
    const mail = createMailService({ db, now, log: silent, smtpUrl: smtp.url, from: 'shop@example.com' });
    smtp.rejectNext(MAIL_RETRY_DELAYS_MS.length + 1);
    const queued = await mail.sendMail({
      pageUid: null,
      to: 'x@example.com',
      locale: 'en',
      template: 'staffInvitation',
      data: {
        storeName: 'Shop',
        role: 'host',
        url: 'https://shop.example/studio/invitation#t',
        expiresAt: clock,
      },
    });
    for (const delay of MAIL_RETRY_DELAYS_MS) {
      clock += delay;
      await mail.retryDue();
    }
    const row = await statusOf(queued.uid);
    expect(row).toMatchObject({ status: 'failed', attempts: MAIL_RETRY_DELAYS_MS.length + 1 });
    expect(row?.error).toMatch(/Try again later/);
    mail.close();
  });

  it('sends a paid order’s mails once however often the payment is reported', async () => {
    const mail = createMailService({ db, now, log: silent, smtpUrl: smtp.url, from: 'shop@example.com' });
    const before = smtp.received.length;
    const paid = {
      ...ORDER,
      pageUid: 'mail-shop',
      checkoutUid: 'checkout-once',
      shopperEmail: 'ase@example.com',
      shopperLocale: 'ko' as const,
      storeEmail: 'orders@shop.example',
      storeLocale: 'da' as const,
    };
    await mail.orderPaid(paid);
    await mail.orderPaid(paid);
    const arrived = (await smtp.waitFor(before + 2)).slice(before);
    expect(arrived).toHaveLength(2);
    expect(arrived.map((m) => m.subject).sort()).toEqual([
      'Kaffe & <Kop> 주문 100123',
      'Ny betalt ordre 100123',
    ]);
    const { mails } = await mail.outbox('mail-shop', { limit: 10 });
    expect(mails.map((m) => [m.template, m.locale, m.status])).toEqual(
      expect.arrayContaining([
        ['orderConfirmation', 'ko', 'sent'],
        ['newOrderNotice', 'da', 'sent'],
      ]),
    );
    expect(mails).toHaveLength(2);
    mail.close();
  });
});

describe('mail without SMTP', () => {
  it('keeps the mail in the outbox', async () => {
    const mail = createMailService({ db, now, log: silent, smtpUrl: null, from: 'shop@example.com' });
    const kept = await mail.sendMail({
      pageUid: null,
      to: 'ase@example.com',
      locale: 'sv',
      template: 'orderConfirmation',
      data: ORDER,
    });
    expect(kept.status).toBe('kept');
    expect(await mail.retryDue()).toBe(0);
  });
});

describe('mail templates', () => {
  it('has every mail in all 11 languages, each its own words', () => {
    for (const template of ['orderConfirmation', 'newOrderNotice', 'staffInvitation'] as const) {
      const subjects = new Set<string>();
      for (const locale of LOCALES) {
        const data =
          template === 'staffInvitation'
            ? { storeName: 'S', role: 'owner' as const, url: 'https://x.example/?a=1&b=2', expiresAt: 0 }
            : ORDER;
        const mail = renderMail(template, locale, data);
        expect(mail.text.length).toBeGreaterThan(20);
        expect(mail.html).toContain('<!doctype html>');
        subjects.add(mail.subject);
      }
      // Norwegian and Danish share some words; all others differ.
      expect(subjects.size).toBeGreaterThanOrEqual(9);
    }
  });

  it('escapes a link’s ampersands in HTML and keeps subjects on one line', () => {
    const mail = renderMail('staffInvitation', 'en', {
      storeName: 'Evil\r\nBcc: victim@example.com',
      role: 'host',
      url: 'https://x.example/?a=1&b="2"',
      expiresAt: 0,
    });
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.html).toContain('href="https://x.example/?a=1&amp;b=&quot;2&quot;"');
  });
});
