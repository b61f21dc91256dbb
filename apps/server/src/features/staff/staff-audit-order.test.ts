import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStore, signInStaff } from '../../test-support/studio-staff.ts';
import { openTestApp } from '../../test-support/test-app.ts';

type TestApp = Awaited<ReturnType<typeof openTestApp>>;
let app: TestApp;

beforeAll(async () => {
  app = await openTestApp();
});

afterAll(async () => {
  await app?.close();
});

describe('invitations by e-mail', () => {
  it('keeps the invitation e-mail with its link in the outbox when no SMTP server is set', async () => {
    const store = await createTestStore(app, 'mail-store');
    const owner = await signInStaff(app, store, 'owner');
    const invite = await app.server.inject({
      method: 'POST',
      url: `/staff/stores/${store}/invitations`,
      headers: owner.headers,
      payload: { email: 'helper@shop.example', role: 'host' },
    });
    expect(invite.statusCode, invite.body).toBe(201);
    const { mails } = await app.services.mail.outbox(store, { limit: 5 });
    expect(mails[0]).toMatchObject({ template: 'staffInvitation', to: 'helper@shop.example' });
    expect(mails[0]?.text).toContain(invite.json().acceptUrl);
  });
});

describe('the audit log order', () => {
  it('stays newest first past nine entries, across pages (ids compare as numbers, not text)', async () => {
    const store = await createTestStore(app, 'audit-order-store');
    const owner = await signInStaff(app, store, 'owner');
    for (let index = 0; index < 12; index++) {
      const response = await app.server.inject({
        method: 'PUT',
        url: `/staff/stores/${store}/settings/terms`,
        headers: owner.headers,
        payload: { terms: `Terms ${index}` },
      });
      expect(response.statusCode).toBe(200);
    }
    const read = async (query: string) =>
      (
        await app.server.inject({
          method: 'GET',
          url: `/staff/stores/${store}/audit?${query}`,
          headers: owner.headers,
        })
      ).json() as { entries: { id: string; details: { terms: string } }[]; nextBefore: string | null };
    const first = await read('limit=5');
    expect(first.entries.map((entry) => entry.details.terms)).toEqual([
      'Terms 11',
      'Terms 10',
      'Terms 9',
      'Terms 8',
      'Terms 7',
    ]);
    const second = await read(`limit=50&before=${first.nextBefore}`);
    expect(second.entries.map((entry) => entry.details.terms)).toEqual(
      [6, 5, 4, 3, 2, 1, 0].map((index) => `Terms ${index}`),
    );
    expect(second.nextBefore).toBeNull();
  });
});
