import { StudioSession } from '@vitrine/protocol';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../../test-support/commerce-fixture.ts';
import { createTestStore, signInStaff } from '../../test-support/studio-staff.ts';
import { adminHeaders, openTestApp } from '../../test-support/test-app.ts';

type TestApp = Awaited<ReturnType<typeof openTestApp>>;
let app: TestApp;
let storeA: string;
let storeB: string;

beforeAll(async () => {
  app = await openTestApp();
  storeA = await createTestStore(app, 'staff-store-a');
  storeB = await createTestStore(app, 'staff-store-b');
});

afterAll(async () => {
  await app?.close();
});

const inject = (options: InjectOptions) => app.server.inject(options);
type Headers = Record<string, string>;
const bearer = (idToken: string): Headers => ({ authorization: `Bearer ${idToken}` });
const redeemLink = (token: unknown) =>
  inject({ method: 'POST', url: '/staff/links/redeem', payload: { token } });
const setPassword = (headers: Headers, payload: { currentPassword?: string; newPassword: string }) =>
  inject({ method: 'POST', url: '/staff/me/password', headers, payload });
const invite = (store: string, headers: Headers, email: string, role: string) =>
  inject({ method: 'POST', url: `/staff/stores/${store}/invitations`, headers, payload: { email, role } });
const lookUpInvitation = (token: string) =>
  inject({ method: 'POST', url: '/staff/invitations/lookup', payload: { token } });
const acceptInvitation = (headers: Headers, token: string) =>
  inject({ method: 'POST', url: '/staff/invitations/accept', headers, payload: { token } });
const listMembers = (store: string, headers: Headers) =>
  inject({ method: 'GET', url: `/staff/stores/${store}/members`, headers });

/** The headers of an anonymous viewer, who has no account yet. */
async function anonymousHeaders(): Promise<Headers> {
  return bearer((await signIn(app)).token);
}

/** An anonymous viewer signing up with `email`: the answer of the sign-up call. */
async function signUp(email: string) {
  return inject({
    method: 'POST',
    url: '/functions/auth/signUp',
    headers: await anonymousHeaders(),
    payload: { email, password: 'a long enough password 42' },
  });
}

describe('one-time studio links', () => {
  it('sign the member in once; a second use, an unknown or an expired link is refused', async () => {
    const userUid = await app.services.users.createAccount(app.db, {
      name: 'Owner',
      email: 'link-owner@shop.example',
    });
    await app.services.staff.addMember(storeA, userUid, 'owner');
    const token = await app.services.staff.createStudioLink(userUid);

    const first = await redeemLink(token);
    expect(first.statusCode).toBe(200);
    const me = await inject({
      method: 'GET',
      url: '/staff/me',
      headers: bearer(first.json().idToken),
    });
    expect(StudioSession.parse(me.json()).stores).toEqual([
      { pageUid: storeA, name: 'Store staff-store-a', logo: null, role: 'owner' },
    ]);

    const replay = await redeemLink(token);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().message).toMatch(/already used or has expired/);

    const unknown = await redeemLink('x'.repeat(43));
    expect(unknown.statusCode).toBe(401);

    const expired = await app.services.staff.createStudioLink(userUid, -1);
    const late = await redeemLink(expired);
    expect(late.statusCode).toBe(401);

    const malformed = await redeemLink(42);
    expect(malformed.statusCode).toBe(400);
  });

  it('two redemptions of one link at once: exactly one signs in', async () => {
    const userUid = await app.services.users.createAccount(app.db, {
      name: 'Racer',
      email: 'racer@shop.example',
    });
    const token = await app.services.staff.createStudioLink(userUid);
    const answers = await Promise.all([1, 2, 3].map(() => redeemLink(token)));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 401, 401]);
  });
});

describe('staff and invitations', () => {
  it('an owner invites by e-mail; the account of that address accepts and becomes staff in the invited role', async () => {
    const owner = await signInStaff(app, storeA, 'owner');
    const invited = await invite(storeA, owner.headers, 'new-host@shop.example', 'host');
    expect(invited.statusCode).toBe(201);
    const { acceptUrl } = invited.json();
    const token = new URL(acceptUrl).hash.slice(1);

    const info = await lookUpInvitation(token);
    expect(info.json()).toEqual({
      storeName: 'Store staff-store-a',
      role: 'host',
      emailHint: 'n•••@s•••.example',
      expiresAt: expect.any(Number),
    });
    // The page of the link does not give the invited address away to whoever holds the link.
    expect(info.body).not.toContain('new-host');

    const newcomer = await signInStaff(app, storeA, null, 'New-Host@shop.example');
    const accepted = await acceptInvitation(newcomer.headers, token);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({ pageUid: storeA, role: 'host' });

    const again = await acceptInvitation(newcomer.headers, token);
    expect(again.statusCode).toBe(404);

    const list = await listMembers(storeA, owner.headers);
    expect(list.json().members).toContainEqual(
      expect.objectContaining({ userUid: newcomer.userUid, role: 'host' }),
    );
  });

  it('an owner invitation accepted by an unrelated signed-in account is refused (takeover)', async () => {
    const store = await createTestStore(app);
    const owner = await signInStaff(app, store, 'owner');
    const invited = await invite(store, owner.headers, 'co-owner@shop.example', 'owner');
    const token = new URL(invited.json().acceptUrl).hash.slice(1);

    // The link leaked (a forwarded mail, a shared screen): its holder signs in with their own account.
    const stranger = await signInStaff(app, store, null, 'mallory@elsewhere.example');
    const takeover = await acceptInvitation(stranger.headers, token);
    expect(takeover.statusCode).toBe(403);
    expect(takeover.json()).toMatchObject({ error: 'not_invited_address' });
    expect(takeover.json().message).toContain('c•••@s•••.example');
    expect(await app.services.staff.roleOf(store, stranger.userUid)).toBeNull();

    // A new account made with another address through the link is refused too.
    const signedUp = await signUp('mallory2@elsewhere.example');
    expect(signedUp.statusCode).toBe(200);
    const second = await acceptInvitation(bearer(signedUp.json().idToken), token);
    expect(second.statusCode).toBe(403);

    // The invitation is still open for the invited address: an account made with it accepts.
    const invitee = await signUp('co-owner@shop.example');
    const accepted = await acceptInvitation(bearer(invitee.json().idToken), token);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({ pageUid: store, role: 'owner' });
  });

  it('resending an invitation replaces its link and keeps it on the list', async () => {
    const store = await createTestStore(app);
    const owner = await signInStaff(app, store, 'owner');
    const first = await invite(store, owner.headers, 'first@shop.example', 'host');
    await invite(store, owner.headers, 'second@shop.example', 'moderator');
    const { invitation, acceptUrl } = first.json();
    const resent = await inject({
      method: 'POST',
      url: `/staff/stores/${store}/invitations/${invitation.uid}/resend`,
      headers: owner.headers,
    });
    expect(resent.statusCode).toBe(200);
    expect(resent.json().acceptUrl).not.toBe(acceptUrl);
    const oldToken = new URL(acceptUrl).hash.slice(1);
    const newToken = new URL(resent.json().acceptUrl).hash.slice(1);
    const old = await lookUpInvitation(oldToken);
    expect(old.statusCode).toBe(404);
    const fresh = await lookUpInvitation(newToken);
    expect(fresh.statusCode).toBe(200);

    const list = await listMembers(store, owner.headers);
    expect(
      list
        .json()
        .invitations.map((open: { email: string }) => open.email)
        .sort(),
    ).toEqual(['first@shop.example', 'second@shop.example']);

    const host = await signInStaff(app, store, 'host');
    const refused = await inject({
      method: 'POST',
      url: `/staff/stores/${store}/invitations/${invitation.uid}/resend`,
      headers: host.headers,
    });
    expect(refused.statusCode).toBe(403);
  });

  it('an anonymous user cannot accept an invitation', async () => {
    const invitation = await app.services.staff.invite(storeA, {
      email: 'anon@shop.example',
      role: 'moderator',
      invitedBy: null,
    });
    const answer = await acceptInvitation(await anonymousHeaders(), invitation.token);
    expect(answer.statusCode).toBe(403);
  });

  it('a revoked invitation no longer works', async () => {
    const owner = await signInStaff(app, storeA, 'owner');
    const { invitation, token } = await app.services.staff.invite(storeA, {
      email: 'revoked@shop.example',
      role: 'host',
      invitedBy: owner.userUid,
    });
    const revoked = await inject({
      method: 'DELETE',
      url: `/staff/stores/${storeA}/invitations/${invitation.uid}`,
      headers: owner.headers,
    });
    expect(revoked.statusCode).toBe(204);
    const info = await lookUpInvitation(token);
    expect(info.statusCode).toBe(404);
  });

  it('the last owner can be neither removed nor demoted; with a second owner they can', async () => {
    const store = await createTestStore(app);
    const owner = await signInStaff(app, store, 'owner');
    const demote = await inject({
      method: 'PATCH',
      url: `/staff/stores/${store}/members/${owner.userUid}`,
      headers: owner.headers,
      payload: { role: 'host' },
    });
    expect(demote.statusCode).toBe(409);
    const remove = await inject({
      method: 'DELETE',
      url: `/staff/stores/${store}/members/${owner.userUid}`,
      headers: owner.headers,
    });
    expect(remove.statusCode).toBe(409);

    const second = await signInStaff(app, store, 'owner');
    const removed = await inject({
      method: 'DELETE',
      url: `/staff/stores/${store}/members/${owner.userUid}`,
      headers: second.headers,
    });
    expect(removed.statusCode).toBe(204);
    // The removed owner's next studio call is refused at once: roles are read per call.
    const after = await listMembers(store, owner.headers);
    expect(after.statusCode).toBe(403);
  });

  it("an owner of store A cannot touch store B's staff through A's path", async () => {
    const ownerA = await signInStaff(app, storeA, 'owner');
    const memberB = await signInStaff(app, storeB, 'host');
    const change = await inject({
      method: 'PATCH',
      url: `/staff/stores/${storeA}/members/${memberB.userUid}`,
      headers: ownerA.headers,
      payload: { role: 'owner' },
    });
    expect(change.statusCode).toBe(404);
    expect(await app.services.staff.roleOf(storeB, memberB.userUid)).toBe('host');
  });
});

describe('the audit log', () => {
  it('keeps who changed what through studio calls, secrets left out, newest first, for owners', async () => {
    const store = await createTestStore(app);
    const owner = await signInStaff(app, store, 'owner');
    await invite(store, owner.headers, 'audited@shop.example', 'moderator');
    await invite(store, adminHeaders, 'by-key@shop.example', 'host');
    // Reads are not changes.
    await listMembers(store, owner.headers);

    const log = await inject({
      method: 'GET',
      url: `/staff/stores/${store}/audit?limit=1`,
      headers: owner.headers,
    });
    expect(log.statusCode).toBe(200);
    const first = log.json();
    expect(first.entries).toEqual([
      expect.objectContaining({
        actor: 'Admin key',
        actorUid: null,
        action: 'inviteStaff',
        details: { email: 'by-key@shop.example', role: 'host' },
      }),
    ]);
    const next = await inject({
      method: 'GET',
      url: `/staff/stores/${store}/audit?limit=5&before=${first.nextBefore}`,
      headers: owner.headers,
    });
    expect(next.json().entries).toEqual([
      expect.objectContaining({ actorUid: owner.userUid, action: 'inviteStaff', target: {} }),
    ]);
    expect(next.json().nextBefore).toBeNull();

    const host = await signInStaff(app, store, 'host');
    const refused = await inject({
      method: 'GET',
      url: `/staff/stores/${store}/audit`,
      headers: host.headers,
    });
    expect(refused.statusCode).toBe(403);
  });

  it('never keeps passwords or tokens sent in a body', async () => {
    const { auditDetails } = await import('../../http/register-call.ts');
    expect(auditDetails({ name: 'x', password: 'hunter2', nested: { refreshToken: 'abc' } })).toEqual({
      name: 'x',
      password: '[redacted]',
      nested: { refreshToken: '[redacted]' },
    });
    expect(auditDetails(Buffer.alloc(2048))).toEqual({ bytes: 2048 });
    expect(auditDetails({ csv: 'x'.repeat(10_000) })).toEqual({ fields: ['csv'], truncated: true });
  });
});

describe('a studio password', () => {
  it('is set freely by an owner a link signed in, then replaced only with the current one', async () => {
    const owner = await signInStaff(app, storeA, 'owner');
    const set = await setPassword(owner.headers, { newPassword: 'linen-and-oak-2026' });
    expect(set.statusCode).toBe(204);
    const passwordSignIn = await inject({
      method: 'POST',
      url: '/functions/auth/signInWithPassword',
      payload: { email: owner.email, password: 'linen-and-oak-2026' },
    });
    expect(passwordSignIn.statusCode).toBe(200);

    const withoutCurrent = await setPassword(owner.headers, { newPassword: 'stoneware-and-wool-2026' });
    expect(withoutCurrent.statusCode).toBe(403);
    const wrongCurrent = await setPassword(owner.headers, {
      currentPassword: 'guess',
      newPassword: 'stoneware-and-wool-2026',
    });
    expect(wrongCurrent.statusCode).toBe(403);
    const replaced = await setPassword(owner.headers, {
      currentPassword: 'linen-and-oak-2026',
      newPassword: 'stoneware-and-wool-2026',
    });
    expect(replaced.statusCode).toBe(204);
  });

  it('is refused to an anonymous viewer, and a too short one gets a 400 naming the field', async () => {
    const refused = await setPassword(await anonymousHeaders(), { newPassword: 'linen-and-oak-2026' });
    expect(refused.statusCode).toBe(403);
    const owner = await signInStaff(app, storeA, 'owner');
    const short = await setPassword(owner.headers, { newPassword: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toMatch(/^newPassword: /);
  });
});
