import type { Database } from '../../db/database.ts';
import type { UserDirectory } from '../users/user-directory.ts';
import type { StaffService } from './staff-service.ts';

/**
 * Makes the account with `email` (created when there is none, with no password: it signs in by
 * studio link until it sets one) an owner of the store, and answers a one-time studio link token
 * for it. Used for the demo store's owner at `npm start` and by `npm run studio:owner` on a fresh
 * deployment; running it again hands out a new link and changes nothing else.
 */
export async function ensureOwnerLink(
  deps: { db: Database; users: UserDirectory; staff: StaffService },
  owner: { pageUid: string; email: string; name: string },
): Promise<string> {
  const userUid = await deps.db.transaction(async (tx) => {
    const existing = await deps.users.uidByEmail(owner.email, tx);
    const uid = existing ?? (await deps.users.createAccount(tx, { name: owner.name, email: owner.email }));
    const role = await deps.staff.roleOf(owner.pageUid, uid, tx);
    if (role !== 'owner') await deps.staff.addMember(owner.pageUid, uid, 'owner', tx);
    return uid;
  });
  return deps.staff.createStudioLink(userUid);
}
