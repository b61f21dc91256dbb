import type { AuthSession, Show, ShowVisibility, StaffRole } from '@vitrine/protocol';
import type { App } from '../app.ts';
import type { Database } from '../db/database.ts';
import { adminHeaders } from './test-app.ts';

type StudioTestApp = App & { db: Database };

let storeCounter = 0;

/** A store made with the admin key (name and defaults only); answers its uid. */
export async function createTestStore(
  app: StudioTestApp,
  pageUid = `store-${++storeCounter}`,
): Promise<string> {
  const response = await app.server.inject({
    method: 'PUT',
    url: `/admin/pages/${pageUid}`,
    headers: adminHeaders,
    payload: { name: `Store ${pageUid}`, currency: 'DKK', language: 'en' },
  });
  if (response.statusCode !== 200) throw new Error(`creating store ${pageUid}: ${response.body}`);
  return pageUid;
}

export interface TestStaffMember {
  userUid: string;
  email: string;
  session: AuthSession;
  /** `Authorization: Bearer <id token>` of the member. */
  headers: { authorization: string };
}

let memberCounter = 0;

/**
 * A signed-in staff member of `pageUid` in `role` (an account, a membership, and a session from a
 * one-time studio link, as the studio signs in). `role: null` makes a signed-in account that is
 * staff of no store.
 */
export async function signInStaff(
  app: StudioTestApp,
  pageUid: string,
  role: StaffRole | null,
  email = `staff-${++memberCounter}-${Date.now()}@shop.example`,
): Promise<TestStaffMember> {
  const { users, staff } = app.services;
  const userUid = await users.createAccount(app.db, { name: `Staff ${memberCounter}`, email });
  if (role) await staff.addMember(pageUid, userUid, role);
  const token = await staff.createStudioLink(userUid);
  const response = await app.server.inject({
    method: 'POST',
    url: '/staff/links/redeem',
    payload: { token },
  });
  if (response.statusCode !== 200) throw new Error(`redeeming a studio link: ${response.body}`);
  const session = response.json() as AuthSession;
  return { userUid, email, session, headers: { authorization: `Bearer ${session.idToken}` } };
}

/** A signed-in member of `pageUid` in each role, for the tests of what each role may do. */
export async function signInStoreStaff(
  app: StudioTestApp,
  pageUid: string,
): Promise<Record<StaffRole, TestStaffMember>> {
  return {
    owner: await signInStaff(app, pageUid, 'owner'),
    host: await signInStaff(app, pageUid, 'host'),
    moderator: await signInStaff(app, pageUid, 'moderator'),
  };
}

/** When a test's show is planned, unless it says otherwise. */
const TEST_SHOW_SCHEDULE = { startsAt: '2026-10-01T19:00', timeZone: 'Europe/Copenhagen' };

/**
 * A show of `pageUid`, created by `member` through the studio's call (public unless `visibility`
 * says otherwise); answers its uid.
 */
export async function createTestShow(
  app: App,
  pageUid: string,
  member: TestStaffMember,
  name: string,
  options: { schedule?: { startsAt: string; timeZone: string }; visibility?: ShowVisibility } = {},
): Promise<string> {
  const created = await app.server.inject({
    method: 'POST',
    url: `/staff/stores/${pageUid}/shows`,
    headers: member.headers,
    payload: {
      name,
      ...(options.schedule ?? TEST_SHOW_SCHEDULE),
      visibility: options.visibility ?? 'public',
    },
  });
  if (created.statusCode !== 201) throw new Error(`creating show ${name}: ${created.body}`);
  return (created.json() as Show).uid;
}
