import type { MailDelivery, MailDeliveryProblem, TestMailResult } from '@vitrine/protocol';
import type { Locale } from '@vitrine/protocol/vocabulary';
import type { Queryable } from '../../db/database.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import type { MailService, MailStatus } from './mail-service.ts';
import { TEST_MAIL_TEXTS } from './test-mail-texts.ts';

/** How many undelivered mails the studio's delivery panel lists. */
const PROBLEMS_SHOWN = 50;

interface ProblemRow {
  uid: string;
  to_address: string;
  subject: string;
  status: MailStatus;
  attempts: number;
  error: string | null;
  created_at: string | number;
}

const toProblem = (row: ProblemRow) => ({
  uid: row.uid,
  to: row.to_address,
  subject: row.subject,
  status: row.status,
  attempts: row.attempts,
  error: row.error,
  createdAt: Number(row.created_at),
});

/** The SMTP server's host and port from SMTP_URL, never its user name or password. */
export function smtpServerOf(url: string | null): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    const port = parsed.port || (parsed.protocol === 'smtps:' ? '465' : '587');
    return `${parsed.protocol}//${parsed.hostname}:${port}`;
  } catch {
    return null;
  }
}

const noServer = () =>
  new HttpError(
    409,
    'conflict',
    'No mail server is set: the server operator sets SMTP_URL (and MAIL_FROM) and restarts the server.',
  );

/**
 * The studio's view of mail delivery (issue 33 item 9): whether mails are sent or kept, the
 * settings that decide it, the store's undelivered mails, a test mail and "Send again".
 */
export function createMailDelivery(deps: { db: Queryable; mail: MailService; smtpUrl: string | null }) {
  const { db, mail } = deps;
  return {
    async delivery(pageUid: string): Promise<MailDelivery> {
      // Failed for good, retrying after an error, or kept because no mail server was set.
      const rows = await db.query<ProblemRow>(
        `SELECT uid, to_address, subject, status, attempts, error, created_at FROM mail_outbox
         WHERE page_uid = $1 AND (status IN ('failed', 'kept') OR (status = 'queued' AND error IS NOT NULL))
         ORDER BY created_at DESC, uid DESC LIMIT $2`,
        [pageUid, PROBLEMS_SHOWN],
      );
      return {
        transport: mail.transport ? 'smtp' : 'outbox',
        smtpServer: smtpServerOf(deps.smtpUrl),
        from: mail.from,
        settings: { smtpUrl: 'SMTP_URL', from: 'MAIL_FROM' },
        problems: rows.map((row) => toProblem(row) as MailDeliveryProblem),
      };
    },

    /** Sends a test mail to `to` at once (not through the outbox), so the answer is the server's. */
    async sendTest(to: string | null, store: { name: string; language: Locale }): Promise<TestMailResult> {
      if (!mail.transport) throw noServer();
      if (!to)
        throw new HttpError(409, 'conflict', 'Your account has no e-mail address to send the test mail to.');
      try {
        await mail.transport.sendMail({
          from: mail.from,
          to,
          subject: TEST_MAIL_TEXTS[store.language].subject(store.name),
          text: TEST_MAIL_TEXTS[store.language].text(store.name),
          headers: { 'Content-Language': store.language },
        });
        return { ok: true, to };
      } catch (error) {
        return {
          ok: false,
          to,
          error: (error instanceof Error ? error.message : String(error)).slice(0, 1000),
        };
      }
    },

    /** Sends a kept, failed or retrying mail of the store again, now. */
    async resend(pageUid: string, uid: string) {
      if (!mail.transport) throw noServer();
      const [row] = await db.query<{ status: MailStatus }>(
        'SELECT status FROM mail_outbox WHERE uid = $1 AND page_uid = $2',
        [uid, pageUid],
      );
      if (!row) throw notFound('No such mail in this store’s outbox.');
      if (row.status === 'sent') throw new HttpError(409, 'conflict', 'This mail was sent already.');
      // A fresh round of retries: the mail server may have been set or mended since.
      await db.query(
        `UPDATE mail_outbox SET status = 'queued', attempts = 0, next_attempt_at = NULL WHERE uid = $1 AND status <> 'sent'`,
        [uid],
      );
      await mail.deliver(uid);
      const [after] = await db.query<ProblemRow>(
        'SELECT uid, to_address, subject, status, attempts, error, created_at FROM mail_outbox WHERE uid = $1',
        [uid],
      );
      if (!after) throw notFound('No such mail in this store’s outbox.');
      return toProblem(after);
    },
  };
}

export type MailDeliveryService = ReturnType<typeof createMailDelivery>;
