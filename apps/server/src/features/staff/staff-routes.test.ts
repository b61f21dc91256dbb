import { StaffInvitation, type StaffMember } from '@vitrine/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSignedInAccount, signInStaff, type TestStaff } from '../../test-support/studio-staff.ts';
import { openTestApp } from '../../test-support/test-app.ts';

type TestApp = Awaited<ReturnType<typeof openTestApp>>;

const STORE = 'staff-store';
const OTHER_STORE = 'staff-other-store';

let app: TestApp;
let owner: TestStaff;
let otherOwner: TestStaff;

beforeAll(async () => {
  app = await openTestApp();
  owner = await signInStaff(app, STORE, 'owner', 'Olivia Owner');
  otherOwner = await signInStaff(app, OTHER_STORE, 'owner');
});

afterAll(async () => {
  await app?.close();
});

function call(
  staff: { headers: Record<string, string> } | null,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
) {
  return app.server.inject({
    method,
    url,
    headers: staff?.headers ?? {},
    ...(payload ? { payload } : {}),
  });
}

const tokenOf = (acceptUrl: string) => acceptUrl.slice(acceptUrl.indexOf('#') + 1);

describe('staff flows', () => {
  it('invites by e-mail; another account accepts and becomes a member with the role', async () => {
    const invite = await call(owner, 'POST', `/staff/stores/${STORE}/invitations`, {
      email: 'Helper@Example.com',
      role: 'host',
    });
    expect(invite.statusCode, invite.body).toBe(201);
    const { invitation, acceptUrl } = invite.json();
    expect(StaffInvitation.parse(invitation)).toMatchObject({ email: 'helper@example.com', role: 'host' });
    expect(acceptUrl).toMatch(/\/studio\/invitation#/);
    // Without SMTP the invitation e-mail is kept in the store's outbox, link included.
    const { mails } = await app.services.mail.outbox(STORE, { limit: 5 });
    expect(mails[0]).toMatchObject({ template: 'staffInvitation', to: 'helper@example.com' });
    expect(mails[0]?.text).toContain(acceptUrl);

    const info = await call(null, 'POST', '/staff/invitations/lookup', { token: tokenOf(acceptUrl) });
    expect(info.json()).toMatchObject({ storeName: STORE, role: 'host', email: 'helper@example.com' });

    const listed = await call(owner, 'GET', `/staff/stores/${STORE}/members`);
    expect(listed.json().invitations.map((open: StaffInvitation) => open.uid)).toContain(invitation.uid);

    const helper = await newSignedInAccount(app, 'Hanna Helper');
    const accepted = await call(helper, 'POST', '/staff/invitations/accept', { token: tokenOf(acceptUrl) });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ pageUid: STORE, role: 'host' });

    const after = (await call(owner, 'GET', `/staff/stores/${STORE}/members`)).json();
    expect(after.members.find((member: StaffMember) => member.userUid === helper.userUid)).toMatchObject({
      name: 'Hanna Helper',
      role: 'host',
    });
    expect(after.invitations.map((open: StaffInvitation) => open.uid)).not.toContain(invitation.uid);
    // The link is spent.
    const again = await call(helper, 'POST', '/staff/invitations/accept', { token: tokenOf(acceptUrl) });
    expect(again.statusCode).toBeGreaterThanOrEqual(400);
    expect(again.statusCode).toBeLessThan(500);
  });

  it('stops a revoked invitation from working', async () => {
    const invite = await call(owner, 'POST', `/staff/stores/${STORE}/invitations`, {
      email: 'late@example.com',
      role: 'moderator',
    });
    const { invitation, acceptUrl } = invite.json();
    const revoked = await call(owner, 'DELETE', `/staff/stores/${STORE}/invitations/${invitation.uid}`);
    expect(revoked.statusCode).toBe(204);
    const late = await newSignedInAccount(app, 'Late');
    const accepted = await call(late, 'POST', '/staff/invitations/accept', { token: tokenOf(acceptUrl) });
    expect(accepted.statusCode).toBeGreaterThanOrEqual(400);
    expect(accepted.statusCode).toBeLessThan(500);
  });

  it('keeps the last owner: neither removed nor demoted', async () => {
    const demote = await call(owner, 'PATCH', `/staff/stores/${STORE}/members/${owner.userUid}`, {
      role: 'host',
    });
    expect(demote.statusCode).toBe(409);
    const remove = await call(owner, 'DELETE', `/staff/stores/${STORE}/members/${owner.userUid}`);
    expect(remove.statusCode).toBe(409);

    const second = await signInStaff(app, STORE, 'host', 'Second');
    const promote = await call(owner, 'PATCH', `/staff/stores/${STORE}/members/${second.userUid}`, {
      role: 'owner',
    });
    expect(promote.statusCode, promote.body).toBe(200);
    expect(promote.json().role).toBe('owner');
    const demoteNow = await call(second, 'PATCH', `/staff/stores/${STORE}/members/${second.userUid}`, {
      role: 'moderator',
    });
    expect(demoteNow.statusCode).toBe(200);
  });

  it('refuses hosts and moderators every staff call', async () => {
    const host = await signInStaff(app, STORE, 'host');
    const moderator = await signInStaff(app, STORE, 'moderator');
    for (const staff of [host, moderator]) {
      expect((await call(staff, 'GET', `/staff/stores/${STORE}/members`)).statusCode).toBe(403);
      expect(
        (
          await call(staff, 'POST', `/staff/stores/${STORE}/invitations`, {
            email: 'x@example.com',
            role: 'owner',
          })
        ).statusCode,
      ).toBe(403);
      expect(
        (await call(staff, 'PATCH', `/staff/stores/${STORE}/members/${staff.userUid}`, { role: 'owner' }))
          .statusCode,
      ).toBe(403);
      expect(
        (await call(staff, 'DELETE', `/staff/stores/${STORE}/members/${owner.userUid}`)).statusCode,
      ).toBe(403);
      expect((await call(staff, 'GET', `/staff/stores/${STORE}/audit`)).statusCode).toBe(403);
    }
  });

  it("refuses another store's owner, and finds no member of another store through one's own", async () => {
    expect((await call(otherOwner, 'GET', `/staff/stores/${STORE}/members`)).statusCode).toBe(403);
    expect(
      (await call(otherOwner, 'DELETE', `/staff/stores/${STORE}/members/${owner.userUid}`)).statusCode,
    ).toBe(403);
    // Store A's member addressed through store B's path: not found there.
    expect(
      (await call(otherOwner, 'DELETE', `/staff/stores/${OTHER_STORE}/members/${owner.userUid}`)).statusCode,
    ).toBe(404);
    expect(
      (
        await call(otherOwner, 'PATCH', `/staff/stores/${OTHER_STORE}/members/${owner.userUid}`, {
          role: 'host',
        })
      ).statusCode,
    ).toBe(404);
    const invite = await call(owner, 'POST', `/staff/stores/${STORE}/invitations`, {
      email: 'cross@example.com',
      role: 'host',
    });
    const { invitation } = invite.json();
    expect(
      (await call(otherOwner, 'DELETE', `/staff/stores/${OTHER_STORE}/invitations/${invitation.uid}`))
        .statusCode,
    ).toBe(404);
  });

  it('lists the changes in the audit log, newest first, paged', async () => {
    const first = await call(owner, 'GET', `/staff/stores/${STORE}/audit?limit=2`);
    expect(first.statusCode, first.body).toBe(200);
    const page = first.json();
    expect(page.entries).toHaveLength(2);
    expect(page.entries[0].action).toBe('inviteStaff');
    expect(page.entries[0].actor).toBe('Olivia Owner');
    expect(page.nextBefore).not.toBeNull();
    const next = (
      await call(owner, 'GET', `/staff/stores/${STORE}/audit?limit=50&before=${page.nextBefore}`)
    ).json();
    const actions = next.entries.map((entry: { action: string }) => entry.action);
    expect(actions).toContain('changeStaffRole');
    expect(actions).toContain('revokeInvitation');
    const ids = [...page.entries, ...next.entries].map((entry: { id: string }) => Number(entry.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    // No entry of the other store.
    const other = (await call(otherOwner, 'GET', `/staff/stores/${OTHER_STORE}/audit`)).json();
    expect(other.entries).toEqual([]);
  });
});
