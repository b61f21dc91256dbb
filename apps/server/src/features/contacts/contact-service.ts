import { randomBytes } from 'node:crypto';
import { CONTACT_MESSAGES, contactProblems } from '@vitrine/domain';
import type { ContactCaptureRequest } from '@vitrine/protocol';
import type { Queryable } from '../../db/database.ts';
import type { AbuseLimiter } from '../../http/abuse-limits.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import type { AuthenticatedUser } from '../auth/auth-service.ts';
import type { UserService } from '../users/user-service.ts';

/**
 * Contact capture for social-live viewers (spec §2 /tiktok routes, §5 "Contact step"): stored
 * with the viewer's user. An anonymous viewer's name also becomes their display name.
 */
export function createContactService(
  db: Queryable,
  users: UserService,
  now: () => number,
  limits: AbuseLimiter,
) {
  return {
    /**
     * A person (issue 12): the account's e-mail of a signed-in viewer, else the e-mail (or phone)
     * of the viewer's latest contact capture in the store; null for an anonymous viewer who left
     * none. Two accounts with the same contact are one person.
     */
    async personKey(pageUid: string, userUid: string): Promise<string | null> {
      const [row] = await db.query<{
        account_email: string | null;
        email: string | null;
        phone: string | null;
      }>(
        `SELECT CASE WHEN u.is_anonymous THEN NULL ELSE u.email END AS account_email, c.email, c.phone
         FROM users u
         LEFT JOIN LATERAL (SELECT email, phone FROM contact_captures
                            WHERE page_uid = $1 AND user_uid = u.uid ORDER BY created_at DESC LIMIT 1) c ON true
         WHERE u.uid = $2`,
        [pageUid, userUid],
      );
      if (!row) return null;
      if (row.account_email) return `email:${row.account_email.trim().toLowerCase()}`;
      if (row.email) return `email:${row.email.trim().toLowerCase()}`;
      const digits = row.phone?.replace(/[^0-9]/g, '') ?? '';
      return digits ? `phone:${digits}` : null;
    },

    /** `address`: the client address, for the per-address limit of captures. */
    async capture(
      caller: AuthenticatedUser,
      input: ContactCaptureRequest,
      address: string,
    ): Promise<{ uid: string }> {
      await limits.enforce('contactCapture', { userUid: caller.userUid, address });
      const problems = contactProblems(input, caller.isAnonymous);
      if (problems.length > 0) {
        throw new HttpError(
          400,
          'contact_incomplete',
          problems.map((key) => CONTACT_MESSAGES[key]).join(' '),
          {
            problems,
          },
        );
      }
      const [page] = await db.query('SELECT 1 FROM pages WHERE uid = $1', [input.pageUid]);
      if (!page) throw notFound(`No store "${input.pageUid}".`);
      const uid = randomBytes(12).toString('base64url');
      await db.query(
        `INSERT INTO contact_captures (uid, page_uid, campaign_uid, user_uid, name, phone, email, consent, source, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [
          uid,
          input.pageUid,
          input.campaignUid ?? null,
          caller.userUid,
          input.name ?? '',
          input.phone ?? '',
          input.email ?? '',
          input.consent,
          input.source,
          now(),
        ],
      );
      if (caller.isAnonymous && input.name) {
        await users.updateUser(caller.userUid, {
          customerUid: caller.userUid,
          updates: { name: input.name },
        });
      }
      return { uid };
    },
  };
}

export type ContactService = ReturnType<typeof createContactService>;
