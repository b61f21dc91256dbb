import { randomBytes } from 'node:crypto';
import type { StaffRole } from '@vitrine/protocol';
import type { App } from '../app.ts';
import type { Database } from '../db/database.ts';
import { adminHeaders } from './test-app.ts';

type StudioTestApp = App & { db: Database };

/** A signed-in staff member: their account and the headers of their studio calls. */
export interface TestStaff {
  userUid: string;
  email: string;
  headers: { authorization: string };
}

/** Makes a store through the admin key (a minimal page) unless it exists. */
export async function ensureTestStore(app: StudioTestApp, pageUid: string, name = pageUid): Promise<void> {
  if (await app.services.stores.pageExists(pageUid)) return;
  const response = await app.server.inject({
    method: 'PUT',
    url: `/admin/pages/${pageUid}`,
    headers: adminHeaders,
    payload: { name },
  });
  if (response.statusCode !== 200) throw new Error(`creating store ${pageUid}: ${response.body}`);
}

/** Signs in with a one-time studio link, as the studio does, and answers the bearer headers. */
export async function signInWithStudioLink(
  app: StudioTestApp,
  userUid: string,
): Promise<{ authorization: string }> {
  const token = await app.services.staff.createStudioLink(userUid);
  const response = await app.server.inject({
    method: 'POST',
    url: '/staff/links/redeem',
    payload: { token },
  });
  if (response.statusCode !== 200) throw new Error(`redeeming a studio link: ${response.body}`);
  return { authorization: `Bearer ${response.json<{ idToken: string }>().idToken}` };
}

/** A new account (not staff anywhere), signed in. */
export async function newSignedInAccount(app: StudioTestApp, name = 'Someone'): Promise<TestStaff> {
  const email = `${name.toLowerCase().replace(/[^a-z]+/g, '-')}-${randomBytes(4).toString('hex')}@example.com`;
  const userUid = await app.services.users.createAccount(app.db, { name, email });
  return { userUid, email, headers: await signInWithStudioLink(app, userUid) };
}

/** A new account made staff of a store (created when missing) with a role, signed in. */
export async function signInStaff(
  app: StudioTestApp,
  pageUid: string,
  role: StaffRole,
  name = `${role} of ${pageUid}`,
): Promise<TestStaff> {
  await ensureTestStore(app, pageUid);
  const email = `${role}-${randomBytes(4).toString('hex')}@example.com`;
  const userUid = await app.services.users.createAccount(app.db, { name, email });
  await app.services.staff.addMember(pageUid, userUid, role);
  return { userUid, email, headers: await signInWithStudioLink(app, userUid) };
}
