import type { UpdateUserRequest, UserDoc } from '@vitrine/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Queryable } from '../../db/database.ts';
import { HttpError } from '../../http/errors.ts';
import type { OutboxDatabase, Transaction } from '../../realtime/outbox.ts';
import { createUserDirectory } from './user-directory.ts';
import { toUserDoc, USER_DOC_COLUMNS, type UserRow, userTopic } from './user-records.ts';

export const NO_PERMISSIONS_MESSAGE = 'No permissions to access this user record.';

/**
 * The user record (spec §3). Spec §6: database access errors on it are only logged, as "no
 * permissions" — the caller gets a 403 without the database's details.
 */
export function createUserService(db: OutboxDatabase, log: Pick<FastifyBaseLogger, 'warn'>) {
  async function guarded<T>(userUid: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof HttpError) throw error;
      log.warn({ err: error, userUid }, 'no permissions: user record access failed');
      throw new HttpError(403, 'no_permissions', NO_PERMISSIONS_MESSAGE);
    }
  }

  async function userDoc(userUid: string, tx: Queryable = db): Promise<UserDoc | null> {
    const [row] = await tx.query<UserRow>(`SELECT ${USER_DOC_COLUMNS} FROM users WHERE uid = $1`, [userUid]);
    return row ? toUserDoc(row) : null;
  }

  function publishUser(tx: Transaction, doc: UserDoc) {
    tx.publish(userTopic(doc.uid), [{ type: 'modified', docId: doc.uid, doc }]);
  }

  return {
    /** What other features read and write of users (they never query the table themselves). */
    ...createUserDirectory(db),

    userDoc: (userUid: string) => guarded(userUid, () => userDoc(userUid)),

    /** Reads the user in the caller's transaction (which changed it) and tells the `user` live query. */
    async publishUser(tx: Transaction, userUid: string): Promise<void> {
      const doc = await userDoc(userUid, tx);
      if (doc) publishUser(tx, doc);
    },

    /** `updateUser` (spec §7): only the caller's own record; rename, anonymous name, locale, currency. */
    async updateUser(callerUid: string, input: UpdateUserRequest): Promise<UserDoc> {
      if (input.customerUid !== callerUid) {
        throw new HttpError(403, 'forbidden', 'You can only update your own user.');
      }
      return guarded(callerUid, () =>
        db.transaction(async (tx) => {
          const { name, avatar, localeCode, currencyCode } = input.updates;
          const [row] = await tx.query<UserRow>(
            `UPDATE users SET
             name = CASE WHEN $2 THEN $3 ELSE name END,
             avatar = CASE WHEN $4 THEN $5 ELSE avatar END,
             locale_code = CASE WHEN $6 THEN $7 ELSE locale_code END,
             currency_code = CASE WHEN $8 THEN $9 ELSE currency_code END,
             updated_at = now()
           WHERE uid = $1 RETURNING ${USER_DOC_COLUMNS}`,
            [
              callerUid,
              name !== undefined,
              name ?? null,
              avatar !== undefined,
              avatar ?? null,
              localeCode !== undefined,
              localeCode ?? null,
              currencyCode !== undefined,
              currencyCode ?? null,
            ],
          );
          if (!row) throw new HttpError(404, 'not_found', 'Your account no longer exists; sign in again.');
          const doc = toUserDoc(row);
          publishUser(tx, doc);
          return doc;
        }),
      );
    },

    /** Adds a competition to the user's participated or dismissed list (once). */
    async recordCompetition(
      userUid: string,
      list: 'competitions_participated' | 'competitions_dismissed',
      competitionUid: string,
    ): Promise<UserDoc> {
      return guarded(userUid, () =>
        db.transaction(async (tx) => {
          const [row] = await tx.query<UserRow>(
            `UPDATE users SET ${list} = CASE WHEN ${list} ? $2 THEN ${list} ELSE ${list} || to_jsonb($2::text) END
           WHERE uid = $1 RETURNING ${USER_DOC_COLUMNS}`,
            [userUid, competitionUid],
          );
          if (!row) throw new HttpError(404, 'not_found', 'Your account no longer exists; sign in again.');
          const doc = toUserDoc(row);
          publishUser(tx, doc);
          return doc;
        }),
      );
    },
  };
}

export type UserService = ReturnType<typeof createUserService>;
