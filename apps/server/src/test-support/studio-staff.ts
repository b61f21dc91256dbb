import type { StaffRole } from '@vitrine/protocol';
import type { App } from '../app.ts';
import type { Database } from '../db/database.ts';

/**
 * A new account made staff of `pageUid` with `role`, signed in through a one-time studio link as
 * the studio does: answers the `authorization` header its calls carry.
 */
export async function signInStaff(
  app: App & { db: Database },
  pageUid: string,
  role: StaffRole,
  name = `${role} of ${pageUid}`,
): Promise<{ userUid: string; headers: { authorization: string } }> {
  const { services, server, db } = app;
  const userUid = await db.transaction((tx) => services.users.createAccount(tx, { name, email: null }));
  await services.staff.addMember(pageUid, userUid, role);
  const token = await services.staff.createStudioLink(userUid);
  // Loads the signing key outside the redeem's transaction: on PGlite (one connection) a first
  // redeem that loads it inside would wait on itself (reported to the lead; remove once fixed).
  await services.auth.sessionForUser(userUid);
  const response = await server.inject({ method: 'POST', url: '/staff/links/redeem', payload: { token } });
  if (response.statusCode !== 200) throw new Error(`redeeming a studio link: ${response.body}`);
  const { idToken } = response.json() as { idToken: string };
  return { userUid, headers: { authorization: `Bearer ${idToken}` } };
}
