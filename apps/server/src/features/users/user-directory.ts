import { randomBytes } from 'node:crypto';
import type { UserDoc } from '@vitrine/protocol';
import type { Queryable } from '../../db/database.ts';
import { toUserDoc, USER_DOC_COLUMNS, type UserRow } from './user-records.ts';

/**
 * The reads and writes of the `users` table that other features need (auth creates and upgrades
 * users, checkout and comments show names, contacts read the account e-mail). Each takes the
 * caller's transaction when it runs inside one; database errors reach the caller as they are.
 */
export function createUserDirectory(db: Queryable) {
  return {
    /** The user's record, or null when there is no such user. */
    async findUser(userUid: string, q: Queryable = db): Promise<UserDoc | null> {
      const [row] = await q.query<UserRow>(`SELECT ${USER_DOC_COLUMNS} FROM users WHERE uid = $1`, [userUid]);
      return row ? toUserDoc(row) : null;
    },

    /** The name a user is shown by, or null when there is no such user. */
    async displayName(userUid: string, q: Queryable = db): Promise<string | null> {
      const [row] = await q.query<{ name: string }>('SELECT name FROM users WHERE uid = $1', [userUid]);
      return row?.name ?? null;
    },

    /** Display names of users, by uid, in one query; unknown users are left out. */
    async displayNames(userUids: readonly string[], q: Queryable = db): Promise<Map<string, string>> {
      if (userUids.length === 0) return new Map();
      const rows = await q.query<{ uid: string; name: string }>(
        'SELECT uid, name FROM users WHERE uid = ANY($1)',
        [[...new Set(userUids)]],
      );
      return new Map(rows.map((row) => [row.uid, row.name]));
    },

    /** The uid of the account with this e-mail address, or null. */
    async uidByEmail(email: string, q: Queryable = db): Promise<string | null> {
      const [row] = await q.query<{ uid: string }>('SELECT uid FROM users WHERE email = $1', [email]);
      return row?.uid ?? null;
    },

    /** A new anonymous user (spec §4: made when a client has none). */
    async createAnonymousUser(q: Queryable = db): Promise<UserDoc> {
      const [row] = await q.query<UserRow>(
        `INSERT INTO users (uid, name, is_anonymous) VALUES ($1, '', true) RETURNING ${USER_DOC_COLUMNS}`,
        [randomBytes(18).toString('base64url')],
      );
      if (!row) throw new Error('inserting an anonymous user returned no row');
      return toUserDoc(row);
    },

    /** A new (non-anonymous) account; returns its uid. A taken e-mail fails on the unique index. */
    async createAccount(
      q: Queryable,
      account: { name: string; email: string | null; avatar?: string | null },
    ): Promise<string> {
      const uid = randomBytes(18).toString('base64url');
      await q.query(
        'INSERT INTO users (uid, name, is_anonymous, email, avatar) VALUES ($1, $2, false, $3, $4)',
        [uid, account.name, account.email, account.avatar ?? null],
      );
      return uid;
    },

    /**
     * Makes an anonymous user an account signed up with e-mail and password (the e-mail replaced,
     * the name kept unless one is given). False when the user is gone or no longer anonymous.
     */
    async upgradeToPasswordAccount(
      q: Queryable,
      userUid: string,
      account: { email: string | null; name: string | null },
    ): Promise<boolean> {
      const rows = await q.query(
        `UPDATE users SET email = $2, is_anonymous = false, name = COALESCE($3, name), updated_at = now()
         WHERE uid = $1 AND is_anonymous RETURNING uid`,
        [userUid, account.email, account.name],
      );
      return rows.length > 0;
    },

    /**
     * Makes an anonymous user an account of a social identity: the e-mail, name and avatar the
     * provider vouched for fill in what the user lacks. False when the user is gone or no longer
     * anonymous.
     */
    async upgradeToIdentityAccount(
      q: Queryable,
      userUid: string,
      identity: { email: string | null; name: string | null; avatar: string | null },
    ): Promise<boolean> {
      const rows = await q.query(
        `UPDATE users SET is_anonymous = false, email = COALESCE($2, email),
           name = CASE WHEN name = '' THEN COALESCE($3, '') ELSE name END,
           avatar = COALESCE($4, avatar), updated_at = now()
         WHERE uid = $1 AND is_anonymous RETURNING uid`,
        [userUid, identity.email, identity.name, identity.avatar],
      );
      return rows.length > 0;
    },

    /** Creates or renames the user a store's host replies are posted as. */
    async saveHostUser(userUid: string, name: string, q: Queryable = db): Promise<void> {
      await q.query(
        `INSERT INTO users (uid, name, is_anonymous) VALUES ($1, $2, false)
         ON CONFLICT (uid) DO UPDATE SET name = EXCLUDED.name`,
        [userUid, name],
      );
    },
  };
}

export type UserDirectory = ReturnType<typeof createUserDirectory>;
