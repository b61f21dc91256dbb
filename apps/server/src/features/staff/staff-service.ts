import { createHash, randomBytes } from 'node:crypto';
import {
  isInvitedAddress,
  keepsAnOwner,
  maskedAddress,
  roleIncludes,
  type StaffRoleName,
} from '@vitrine/domain';
import type {
  AuditEntry,
  AuthSession,
  StaffInvitation,
  StaffMember,
  StaffRole,
  StaffStore,
  StudioSession,
} from '@vitrine/protocol';
import type { Database, Queryable } from '../../db/database.ts';
import type { StaffActionRecord } from '../../http/caller.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import type { UserDirectory } from '../users/user-directory.ts';

/** How long a one-time studio link works: long enough to open it from the terminal, no longer. */
export const STUDIO_LINK_TTL_MS = 24 * 60 * 60_000;
/** How long an invitation link works. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60_000;

const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');
const newToken = () => randomBytes(32).toString('base64url');
const newUid = () => randomBytes(15).toString('base64url');

/** What the staff feature needs of the stores feature (names and logos of stores). */
export interface StoreCards {
  storeCards(pageUids: readonly string[]): Promise<Map<string, { name: string; logo: string | null }>>;
}

/** What it needs of auth: a session for a user a link or invitation vouches for. */
export interface SessionIssuer {
  sessionForUser(userUid: string, tx?: Queryable): Promise<AuthSession>;
}

interface InvitationRow {
  uid: string;
  page_uid: string;
  email: string;
  role: StaffRole;
  invited_by: string | null;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
  revoked_at: string | null;
}

/**
 * Store staff: who may work in which store's studio and as what, the one-time links that sign a
 * member in, invitations, and the audit log of what members changed. The role check of every
 * studio call goes through `roleOf` (staff-gate.ts).
 */
export function createStaffService(deps: {
  db: Database;
  users: UserDirectory;
  stores: StoreCards;
  sessions: SessionIssuer;
  now: () => number;
}) {
  const { db, users, stores, sessions, now } = deps;

  async function rolesOfStore(pageUid: string, q: Queryable = db): Promise<StaffRoleName[]> {
    const rows = await q.query<{ role: StaffRole }>('SELECT role FROM store_staff WHERE page_uid = $1', [
      pageUid,
    ]);
    return rows.map((row) => row.role);
  }

  async function member(pageUid: string, userUid: string, q: Queryable = db): Promise<StaffMember | null> {
    const [row] = await q.query<{ role: StaffRole; added_at: string }>(
      'SELECT role, added_at FROM store_staff WHERE page_uid = $1 AND user_uid = $2',
      [pageUid, userUid],
    );
    if (!row) return null;
    const user = await users.findUser(userUid, q);
    return {
      userUid,
      name: user?.name ?? '',
      email: user?.email ?? null,
      role: row.role,
      addedAt: Number(row.added_at),
    };
  }

  const toInvitation = (row: InvitationRow, inviter: string): StaffInvitation => ({
    uid: row.uid,
    email: row.email,
    role: row.role,
    invitedBy: inviter,
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
  });

  /** The open invitation a token belongs to, or a 404 that does not say which check failed. */
  async function openInvitation(token: string, q: Queryable = db, lock = false): Promise<InvitationRow> {
    const [row] = await q.query<InvitationRow>(
      `SELECT * FROM staff_invitations WHERE token_hash = $1${lock ? ' FOR UPDATE' : ''}`,
      [hashToken(token)],
    );
    if (!row || row.revoked_at !== null || row.accepted_at !== null || Number(row.expires_at) <= now())
      throw notFound(
        'This invitation is not valid: it was used, withdrawn or has expired. Ask the store for a new one.',
      );
    return row;
  }

  return {
    /** The member's role in the store, or null when they are not staff of it. */
    async roleOf(pageUid: string, userUid: string, q: Queryable = db): Promise<StaffRole | null> {
      const [row] = await q.query<{ role: StaffRole }>(
        'SELECT role FROM store_staff WHERE page_uid = $1 AND user_uid = $2',
        [pageUid, userUid],
      );
      return row?.role ?? null;
    },

    /** Makes a user staff of a store (or changes their role); used by first-run set-up and invitations. */
    async addMember(pageUid: string, userUid: string, role: StaffRole, q: Queryable = db): Promise<void> {
      await q.query(
        `INSERT INTO store_staff (page_uid, user_uid, role, added_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (page_uid, user_uid) DO UPDATE SET role = EXCLUDED.role`,
        [pageUid, userUid, role, now()],
      );
    },

    /** The stores a user is staff of, each with their role, by store name. */
    async studioSession(userUid: string): Promise<StudioSession> {
      const user = await users.findUser(userUid);
      if (!user) throw new HttpError(401, 'unauthenticated', 'The account no longer exists; sign in again.');
      const rows = await db.query<{ page_uid: string; role: StaffRole }>(
        'SELECT page_uid, role FROM store_staff WHERE user_uid = $1',
        [userUid],
      );
      const cards = await stores.storeCards(rows.map((row) => row.page_uid));
      const memberships: StaffStore[] = rows.flatMap((row) => {
        const card = cards.get(row.page_uid);
        return card ? [{ pageUid: row.page_uid, name: card.name, logo: card.logo, role: row.role }] : [];
      });
      memberships.sort((a, b) => a.name.localeCompare(b.name));
      return {
        user: { uid: user.uid, name: user.name, email: user.email, isAnonymous: user.isAnonymous },
        stores: memberships,
      };
    },

    /** A one-time link token that signs `userUid` in to the studio (printed at start, never stored in clear). */
    async createStudioLink(userUid: string, ttlMs = STUDIO_LINK_TTL_MS): Promise<string> {
      const token = newToken();
      await db.query(
        'INSERT INTO studio_links (token_hash, user_uid, created_at, expires_at) VALUES ($1, $2, $3, $4)',
        [hashToken(token), userUid, now(), now() + ttlMs],
      );
      return token;
    },

    /** Spends a studio link: a session of its user. A used, unknown or expired link is a 401. */
    async redeemStudioLink(token: string): Promise<AuthSession> {
      // One statement spends the link, so two redemptions cannot both succeed. The session is
      // issued after it, outside any transaction: issuing may read the signing key, and PGlite
      // has one connection, which an open transaction would hold.
      const [row] = await db.query<{ user_uid: string }>(
        `UPDATE studio_links SET used_at = $2
         WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING user_uid`,
        [hashToken(token), now()],
      );
      if (!row)
        throw new HttpError(
          401,
          'link_not_valid',
          'This sign-in link was already used or has expired. Sign in with your password, or ask for a new link on the sign-in page.',
        );
      return sessions.sessionForUser(row.user_uid);
    },

    async listStaff(pageUid: string): Promise<{ members: StaffMember[]; invitations: StaffInvitation[] }> {
      const rows = await db.query<{ user_uid: string; role: StaffRole; added_at: string }>(
        'SELECT user_uid, role, added_at FROM store_staff WHERE page_uid = $1 ORDER BY added_at, user_uid',
        [pageUid],
      );
      const invitationRows = await db.query<InvitationRow>(
        `SELECT * FROM staff_invitations
         WHERE page_uid = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > $2
         ORDER BY created_at DESC`,
        [pageUid, now()],
      );
      const people = new Map<string, { name: string; email: string | null }>();
      for (const uid of new Set([
        ...rows.map((row) => row.user_uid),
        ...invitationRows.flatMap((row) => (row.invited_by ? [row.invited_by] : [])),
      ])) {
        const user = await users.findUser(uid);
        if (user) people.set(uid, { name: user.name, email: user.email });
      }
      return {
        members: rows.map((row) => ({
          userUid: row.user_uid,
          name: people.get(row.user_uid)?.name ?? '',
          email: people.get(row.user_uid)?.email ?? null,
          role: row.role,
          addedAt: Number(row.added_at),
        })),
        invitations: invitationRows.map((row) =>
          toInvitation(row, row.invited_by ? (people.get(row.invited_by)?.name ?? '') : 'Admin key'),
        ),
      };
    },

    /** An invitation to a role, and the token of its link (only ever handed to the inviter and the e-mail). */
    async invite(
      pageUid: string,
      input: { email: string; role: StaffRole; invitedBy: string | null },
    ): Promise<{ invitation: StaffInvitation; token: string }> {
      const token = newToken();
      const [row] = await db.query<InvitationRow>(
        `INSERT INTO staff_invitations (uid, page_uid, email, role, token_hash, invited_by, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
        [
          newUid(),
          pageUid,
          input.email,
          input.role,
          hashToken(token),
          input.invitedBy,
          now(),
          now() + INVITATION_TTL_MS,
        ],
      );
      if (!row) throw new Error('inserting an invitation returned no row');
      const inviter = input.invitedBy ? ((await users.displayName(input.invitedBy)) ?? '') : 'Admin key';
      return { invitation: toInvitation(row, inviter), token };
    },

    /**
     * A new link for an open invitation (the old one stops working) and a new expiry, for an
     * invitee whose mail was lost or whose link ran out.
     */
    async resendInvitation(
      pageUid: string,
      invitationUid: string,
    ): Promise<{ invitation: StaffInvitation; token: string }> {
      const token = newToken();
      const [row] = await db.query<InvitationRow>(
        `UPDATE staff_invitations SET token_hash = $3, expires_at = $4
         WHERE uid = $1 AND page_uid = $2 AND accepted_at IS NULL AND revoked_at IS NULL RETURNING *`,
        [invitationUid, pageUid, hashToken(token), now() + INVITATION_TTL_MS],
      );
      if (!row) throw notFound('There is no open invitation with this id in this store.');
      const inviter = row.invited_by ? ((await users.displayName(row.invited_by)) ?? '') : 'Admin key';
      return { invitation: toInvitation(row, inviter), token };
    },

    async revokeInvitation(pageUid: string, invitationUid: string): Promise<void> {
      const rows = await db.query(
        `UPDATE staff_invitations SET revoked_at = $3
         WHERE uid = $1 AND page_uid = $2 AND accepted_at IS NULL AND revoked_at IS NULL RETURNING uid`,
        [invitationUid, pageUid, now()],
      );
      if (rows.length === 0) throw notFound('There is no open invitation with this id in this store.');
    },

    /** What an invitation is for, shown before its link is accepted; the address only masked. */
    async invitationInfo(
      token: string,
    ): Promise<{ pageUid: string; role: StaffRole; emailHint: string; expiresAt: number }> {
      const row = await openInvitation(token);
      return {
        pageUid: row.page_uid,
        role: row.role,
        emailHint: maskedAddress(row.email),
        expiresAt: Number(row.expires_at),
      };
    },

    /**
     * Makes the signed-in account staff of the invitation's store. Only an account with the
     * invited address may (issue 33 §2): the link is not a bearer token for the role, so a
     * forwarded or leaked owner link does not make its holder owner. The link went to that
     * mailbox, so an account signed in with that address, or created with it from the link,
     * has shown it. A member already in the store keeps the higher of their role and the invited one.
     */
    async acceptInvitation(token: string, userUid: string): Promise<{ pageUid: string; role: StaffRole }> {
      return db.transaction(async (tx) => {
        const invitation = await openInvitation(token, tx, true);
        const user = await users.findUser(userUid, tx);
        if (!user || user.isAnonymous)
          throw new HttpError(
            403,
            'sign_in_required',
            'Sign in or create an account to accept the invitation.',
          );
        if (!isInvitedAddress(invitation.email, user.email))
          throw new HttpError(
            403,
            'not_invited_address',
            `This invitation was sent to ${maskedAddress(invitation.email)}: sign in with that address, or create an account with it, to accept it.`,
          );
        const current = await member(invitation.page_uid, userUid, tx);
        const role = current && roleIncludes(current.role, invitation.role) ? current.role : invitation.role;
        await tx.query(
          `INSERT INTO store_staff (page_uid, user_uid, role, added_at) VALUES ($1, $2, $3, $4)
           ON CONFLICT (page_uid, user_uid) DO UPDATE SET role = EXCLUDED.role`,
          [invitation.page_uid, userUid, role, now()],
        );
        await tx.query('UPDATE staff_invitations SET accepted_at = $2, accepted_by = $3 WHERE uid = $1', [
          invitation.uid,
          now(),
          userUid,
        ]);
        return { pageUid: invitation.page_uid, role };
      });
    },

    async changeRole(pageUid: string, userUid: string, role: StaffRole): Promise<StaffMember> {
      return db.transaction(async (tx) => {
        await tx.query('SELECT 1 FROM store_staff WHERE page_uid = $1 FOR UPDATE', [pageUid]);
        const current = await member(pageUid, userUid, tx);
        if (!current) throw notFound('This person is not staff of this store.');
        if (!keepsAnOwner(await rolesOfStore(pageUid, tx), { from: current.role, to: role }))
          throw new HttpError(409, 'last_owner', 'The store needs an owner: make someone else owner first.');
        await tx.query('UPDATE store_staff SET role = $3 WHERE page_uid = $1 AND user_uid = $2', [
          pageUid,
          userUid,
          role,
        ]);
        return { ...current, role };
      });
    },

    async removeMember(pageUid: string, userUid: string): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.query('SELECT 1 FROM store_staff WHERE page_uid = $1 FOR UPDATE', [pageUid]);
        const current = await member(pageUid, userUid, tx);
        if (!current) throw notFound('This person is not staff of this store.');
        if (!keepsAnOwner(await rolesOfStore(pageUid, tx), { from: current.role, to: null }))
          throw new HttpError(409, 'last_owner', 'The store needs an owner: make someone else owner first.');
        await tx.query('DELETE FROM store_staff WHERE page_uid = $1 AND user_uid = $2', [pageUid, userUid]);
      });
    },

    async recordAction(record: StaffActionRecord): Promise<void> {
      await db.query(
        `INSERT INTO staff_audit_log (page_uid, at, actor_uid, action, target, details)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [
          record.caller.pageUid,
          now(),
          record.caller.userUid,
          record.action,
          JSON.stringify(record.target),
          JSON.stringify(record.details ?? null),
        ],
      );
    },

    /** The store's audit log, newest first, `limit` entries older than entry `before`. */
    async auditLog(
      pageUid: string,
      page: { before?: string; limit: number },
    ): Promise<{ entries: AuditEntry[]; nextBefore: string | null }> {
      // Ordered by the column, not the text alias `id`, which would put entry 9 before entry 10.
      const rows = await db.query<{
        id: string;
        at: string;
        actor_uid: string | null;
        action: string;
        target: Record<string, string>;
        details: unknown;
      }>(
        `SELECT id::text AS id, at, actor_uid, action, target, details FROM staff_audit_log
         WHERE page_uid = $1 AND ($2::bigint IS NULL OR id < $2::bigint)
         ORDER BY staff_audit_log.id DESC LIMIT $3`,
        [pageUid, page.before ?? null, page.limit + 1],
      );
      const shown = rows.slice(0, page.limit);
      const actors = new Map<string, string>();
      for (const uid of new Set(shown.flatMap((row) => (row.actor_uid ? [row.actor_uid] : [])))) {
        const user = await users.findUser(uid);
        actors.set(uid, user?.name || user?.email || 'Former staff member');
      }
      return {
        entries: shown.map((row) => ({
          id: row.id,
          at: Number(row.at),
          actor: row.actor_uid ? (actors.get(row.actor_uid) ?? 'Former staff member') : 'Admin key',
          actorUid: row.actor_uid,
          action: row.action,
          target: row.target,
          details: row.details,
        })),
        nextBefore: rows.length > page.limit ? (shown.at(-1)?.id ?? null) : null,
      };
    },
  };
}

export type StaffService = ReturnType<typeof createStaffService>;
