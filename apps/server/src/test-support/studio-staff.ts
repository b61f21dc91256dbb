import type { StaffRole } from '@vitrine/protocol';
import type { App } from '../app.ts';
import type { Database } from '../db/database.ts';

/** A signed-in staff member of a store, as the studio would be: bearer headers for app.server.inject. */
export interface StudioStaff {
  userUid: string;
  headers: { authorization: string };
}

/**
 * Makes an account, adds it to the store's staff with `role`, and signs it in the way the studio
 * does (a one-time studio link redeemed for an id token).
 */
export async function signInStaff(
  app: App & { db: Database },
  pageUid: string,
  role: StaffRole,
  name = `${role} of ${pageUid}`,
): Promise<StudioStaff> {
  const { users, staff } = app.services;
  const email = `${role}.${Math.random().toString(36).slice(2)}@staff.example`;
  const userUid = await users.createAccount(app.db, { name, email });
  await staff.addMember(pageUid, userUid, role);
  const token = await staff.createStudioLink(userUid);
  const redeemed = await app.server.inject({
    method: 'POST',
    url: '/staff/links/redeem',
    payload: { token },
  });
  if (redeemed.statusCode !== 200) throw new Error(`redeeming a studio link: ${redeemed.body}`);
  return { userUid, headers: { authorization: `Bearer ${redeemed.json().idToken}` } };
}
