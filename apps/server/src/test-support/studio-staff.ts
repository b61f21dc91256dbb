import type { StaffRole } from '@vitrine/protocol';
import type { App } from '../app.ts';
import type { Queryable } from '../db/database.ts';

/** A signed-in staff member: their user and the headers their studio calls carry. */
export interface StaffMemberSession {
  uid: string;
  headers: { authorization: string };
}

let accounts = 0;

/**
 * A new account made staff of `pageUid` with `role`, signed in the way the studio does: a
 * one-time studio link redeemed at POST /staff/links/redeem for a session.
 */
export async function signInStaff(
  app: Pick<App, 'server' | 'services'> & { db: Queryable },
  pageUid: string,
  role: StaffRole,
): Promise<StaffMemberSession> {
  accounts++;
  // The first sign-in of a fresh server loads the token signing key; redeeming a studio link does
  // that inside its transaction, which on PGlite's one connection would wait for itself.
  await app.server.inject({ method: 'POST', url: '/functions/auth/signInAnonymously', payload: {} });
  const email = `staff-${accounts}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const uid = await app.services.users.createAccount(app.db, { name: `${role} ${accounts}`, email });
  await app.services.staff.addMember(pageUid, uid, role);
  const token = await app.services.staff.createStudioLink(uid);
  const response = await app.server.inject({
    method: 'POST',
    url: '/staff/links/redeem',
    payload: { token },
  });
  if (response.statusCode !== 200) throw new Error(`redeeming a studio link answered ${response.body}`);
  const { idToken } = response.json() as { idToken: string };
  return { uid, headers: { authorization: `Bearer ${idToken}` } };
}
