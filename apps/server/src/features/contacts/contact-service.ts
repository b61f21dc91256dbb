import { randomBytes } from 'node:crypto';
import { CONTACT_MESSAGES, contactProblems } from '@vitrine/domain';
import type { ContactCaptureRequest, CsvFile, StudioContact } from '@vitrine/protocol';
import { stringify } from 'csv-stringify/sync';
import type { Queryable } from '../../db/database.ts';
import type { AbuseLimiter } from '../../http/abuse-limits.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import type { AuthenticatedUser } from '../auth/auth-service.ts';
import type { StoreService } from '../stores/store-service.ts';
import type { UserService } from '../users/user-service.ts';

interface CaptureRow {
  uid: string;
  name: string;
  email: string;
  phone: string;
  consent: boolean;
  source: string;
  campaign_uid: string | null;
  created_at: number;
}

const toStudioContact = (row: CaptureRow): StudioContact => ({
  uid: row.uid,
  name: row.name,
  email: row.email,
  phone: row.phone,
  consent: row.consent,
  source: row.source,
  campaignUid: row.campaign_uid,
  createdAt: Number(row.created_at),
});

/**
 * Contact capture for social-live viewers (spec §2 /tiktok routes, §5 "Contact step"): stored
 * with the viewer's user. An anonymous viewer's name also becomes their display name.
 */
export function createContactService(
  db: Queryable,
  users: UserService,
  now: () => number,
  limits: AbuseLimiter,
  /** The stores contacts are captured for. */
  stores: Pick<StoreService, 'pageExists'>,
) {
  return {
    /**
     * A person (issue 12): the account's e-mail of a signed-in viewer, else the e-mail (or phone)
     * of the viewer's latest contact capture in the store; null for an anonymous viewer who left
     * none. Two accounts with the same contact are one person.
     */
    async personKey(pageUid: string, userUid: string): Promise<string | null> {
      const user = await users.findUser(userUid);
      if (!user) return null;
      const accountEmail = user.isAnonymous ? null : user.email;
      if (accountEmail) return `email:${accountEmail.trim().toLowerCase()}`;
      const [capture] = await db.query<{ email: string; phone: string }>(
        `SELECT email, phone FROM contact_captures WHERE page_uid = $1 AND user_uid = $2
         ORDER BY created_at DESC LIMIT 1`,
        [pageUid, userUid],
      );
      if (capture?.email) return `email:${capture.email.trim().toLowerCase()}`;
      const digits = capture?.phone?.replace(/[^0-9]/g, '') ?? '';
      return digits ? `phone:${digits}` : null;
    },

    /** The store's contact captures, newest first, in pages (the studio's contact list). */
    async listCaptures(
      pageUid: string,
      page: { consent?: boolean | undefined; before?: string | undefined; limit: number },
    ): Promise<{ contacts: StudioContact[]; nextBefore: string | null }> {
      const params: unknown[] = [pageUid];
      let conditions = '';
      if (page.consent !== undefined) {
        params.push(page.consent);
        conditions += ` AND consent = $${params.length}`;
      }
      if (page.before) {
        const dot = page.before.indexOf('.');
        params.push(Number(page.before.slice(0, dot)), page.before.slice(dot + 1));
        conditions += ` AND (created_at, uid) < ($${params.length - 1}::bigint, $${params.length})`;
      }
      params.push(page.limit + 1);
      const rows = await db.query<CaptureRow>(
        `SELECT uid, name, email, phone, consent, source, campaign_uid, created_at FROM contact_captures
         WHERE page_uid = $1${conditions} ORDER BY created_at DESC, uid DESC LIMIT $${params.length}`,
        params,
      );
      const shown = rows.slice(0, page.limit);
      const last = shown.at(-1);
      return {
        contacts: shown.map(toStudioContact),
        nextBefore: rows.length > page.limit && last ? `${last.created_at}.${last.uid}` : null,
      };
    },

    /** Every capture of the store (or those who consented), oldest first, as a CSV file. */
    async exportCaptures(pageUid: string, consent: boolean | undefined): Promise<CsvFile> {
      const rows = await db.query<CaptureRow>(
        `SELECT uid, name, email, phone, consent, source, campaign_uid, created_at FROM contact_captures
         WHERE page_uid = $1 ${consent === undefined ? '' : 'AND consent = $2'} ORDER BY created_at, uid`,
        consent === undefined ? [pageUid] : [pageUid, consent],
      );
      const records = [
        ['Name', 'E-mail', 'Phone', 'Consent', 'Source', 'Show (campaign)', 'Captured at (UTC)'],
        ...rows.map((row) => [
          row.name,
          row.email,
          row.phone,
          row.consent ? 'yes' : 'no',
          row.source,
          row.campaign_uid ?? '',
          new Date(Number(row.created_at)).toISOString(),
        ]),
      ];
      return {
        filename: `contacts-${pageUid}.csv`,
        // A spreadsheet runs a cell starting with = + - @ as a formula: viewers typed these.
        csv: stringify(
          records.map((record) => record.map((cell) => (/^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell))),
        ),
        rows: rows.length,
      };
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
      if (!(await stores.pageExists(input.pageUid))) throw notFound(`No store "${input.pageUid}".`);
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
