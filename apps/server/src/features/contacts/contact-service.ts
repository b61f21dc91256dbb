import { randomBytes } from 'node:crypto';
import { CONTACT_MESSAGES, contactProblems } from '@vitrine/domain';
import type { ContactCaptureRequest } from '@vitrine/protocol';
import type { Queryable } from '../../db/database.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import type { AuthenticatedUser } from '../auth/auth-service.ts';
import type { UserService } from '../users/user-service.ts';

/**
 * Contact capture for social-live viewers (spec §2 /tiktok routes, §5 "Contact step"): stored
 * with the viewer's user. An anonymous viewer's name also becomes their display name.
 */
export function createContactService(db: Queryable, users: UserService, now: () => number) {
  return {
    async capture(caller: AuthenticatedUser, input: ContactCaptureRequest): Promise<{ uid: string }> {
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
