import { randomBytes } from 'node:crypto';
import type { Locale } from '@vitrine/protocol/vocabulary';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Queryable } from '../../db/database.ts';
import { type MailTemplate, type MailTemplates, type OrderMailData, renderMail } from './mail-templates.ts';

/** Waits before each retry of a failed send: 10 s, 1 min, 5 min, 30 min; then the mail has failed. */
export const MAIL_RETRY_DELAYS_MS = [10_000, 60_000, 5 * 60_000, 30 * 60_000] as const;
/** How long a node owns a mail it is sending, so another node's sweep does not send it too. */
const SEND_LEASE_MS = 2 * 60_000;
/** How often queued mails whose retry is due are sent. */
export const MAIL_SWEEP_INTERVAL_MS = 5_000;

export type MailStatus = 'queued' | 'sent' | 'kept' | 'failed';

/** A row of `mail_outbox`. */
interface MailRow {
  uid: string;
  page_uid: string | null;
  template: string;
  locale: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  status: MailStatus;
  attempts: number;
  next_attempt_at: number | null;
  error: string | null;
  created_at: number;
  sent_at: number | null;
}

/** One mail as the studio's outbox lists it. */
export interface OutboxMail {
  uid: string;
  template: string;
  locale: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  status: MailStatus;
  attempts: number;
  error: string | null;
  createdAt: number;
  sentAt: number | null;
}

export interface MailRequest<T extends MailTemplate> {
  /** The store the mail is about (its outbox lists it); null for none. */
  pageUid: string | null;
  to: string;
  locale: Locale;
  template: T;
  data: MailTemplates[T];
  /** One mail per key: a second request with the same key is the first mail. */
  dedupeKey?: string;
}

/** An order just paid, with whom to tell and in which language. */
export interface PaidOrder extends OrderMailData {
  pageUid: string;
  checkoutUid: string;
  shopperEmail: string;
  shopperLocale: Locale;
  /** The store's own address (store info), and the store's language for its notice. */
  storeEmail: string;
  storeLocale: Locale;
}

/**
 * E-mail (issue 14 item 6). Every mail is rendered and written to `mail_outbox` first, so none is
 * lost with the process; with SMTP_URL it is then sent with nodemailer, a failure retried with
 * backoff (MAIL_RETRY_DELAYS_MS) by the sweep; without it, the mail is kept and read in the
 * studio's outbox, so the demo works with no mail server.
 */
export function createMailService(deps: {
  db: Queryable;
  now: () => number;
  log: Pick<FastifyBaseLogger, 'error' | 'warn'>;
  smtpUrl: string | null;
  from: string;
}) {
  const { db, now, log } = deps;
  const transport = deps.smtpUrl ? nodemailer.createTransport(deps.smtpUrl) : null;

  /** Sends one queued mail if no one else is sending it; records the outcome. */
  async function attempt(uid: string): Promise<MailStatus> {
    if (!transport) return 'kept';
    const at = now();
    const [mail] = await db.query<MailRow>(
      `UPDATE mail_outbox SET next_attempt_at = $3
       WHERE uid = $1 AND status = 'queued' AND (next_attempt_at IS NULL OR next_attempt_at <= $2)
       RETURNING *`,
      [uid, at, at + SEND_LEASE_MS],
    );
    if (!mail) return (await statusOf(uid)) ?? 'queued';
    try {
      await transport.sendMail({
        from: deps.from,
        to: mail.to_address,
        subject: mail.subject,
        text: mail.text_body,
        html: mail.html_body,
        headers: { 'Content-Language': mail.locale },
      });
      await db.query(
        `UPDATE mail_outbox SET status = 'sent', attempts = attempts + 1, sent_at = $2, next_attempt_at = NULL,
           error = NULL WHERE uid = $1`,
        [uid, now()],
      );
      return 'sent';
    } catch (error) {
      const attempts = mail.attempts + 1;
      const delay = MAIL_RETRY_DELAYS_MS[attempts - 1];
      const message = error instanceof Error ? error.message : String(error);
      await db.query(
        'UPDATE mail_outbox SET status = $2, attempts = $3, next_attempt_at = $4, error = $5 WHERE uid = $1',
        [
          uid,
          delay === undefined ? 'failed' : 'queued',
          attempts,
          delay === undefined ? null : now() + delay,
          message.slice(0, 1000),
        ],
      );
      log.warn({ err: error, mail: uid, attempts }, 'sending a mail failed');
      return delay === undefined ? 'failed' : 'queued';
    }
  }

  async function statusOf(uid: string): Promise<MailStatus | undefined> {
    const [row] = await db.query<{ status: MailStatus }>('SELECT status FROM mail_outbox WHERE uid = $1', [
      uid,
    ]);
    return row?.status;
  }

  async function sendMail<T extends MailTemplate>(
    request: MailRequest<T>,
  ): Promise<{ uid: string; status: MailStatus }> {
    const rendered = renderMail(request.template, request.locale, request.data);
    const uid = randomBytes(12).toString('base64url');
    const [inserted] = await db.query<{ uid: string }>(
      `INSERT INTO mail_outbox (uid, page_uid, template, locale, to_address, subject, text_body, html_body, status,
         next_attempt_at, dedupe_key, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $10)
       ON CONFLICT (dedupe_key) DO NOTHING RETURNING uid`,
      [
        uid,
        request.pageUid,
        request.template,
        request.locale,
        request.to,
        rendered.subject,
        rendered.text,
        rendered.html,
        transport ? 'queued' : 'kept',
        now(),
        request.dedupeKey ?? null,
      ],
    );
    if (!inserted) {
      const [existing] = await db.query<{ uid: string; status: MailStatus }>(
        'SELECT uid, status FROM mail_outbox WHERE dedupe_key = $1',
        [request.dedupeKey],
      );
      if (!existing) throw new Error('a deduplicated mail vanished');
      return existing;
    }
    return { uid, status: transport ? await attempt(uid) : 'kept' };
  }

  return {
    sendMail,

    /** The SMTP transport (null: mails are kept in the outbox), for the studio's delivery settings. */
    transport,
    from: deps.from,
    /** Sends one queued mail now (the studio's "Send again"); answers its status afterwards. */
    deliver: attempt,

    /**
     * The mails of a paid order: the confirmation to the shopper in their language and the
     * notice to the store in its own; each at most once per order, however often reported.
     */
    async orderPaid(order: PaidOrder): Promise<void> {
      const sends: Promise<unknown>[] = [];
      if (order.shopperEmail) {
        sends.push(
          sendMail({
            pageUid: order.pageUid,
            to: order.shopperEmail,
            locale: order.shopperLocale,
            template: 'orderConfirmation',
            data: order,
            dedupeKey: `orderConfirmation:${order.checkoutUid}`,
          }),
        );
      }
      if (order.storeEmail) {
        sends.push(
          sendMail({
            pageUid: order.pageUid,
            to: order.storeEmail,
            locale: order.storeLocale,
            template: 'newOrderNotice',
            data: order,
            dedupeKey: `newOrderNotice:${order.checkoutUid}`,
          }),
        );
      }
      await Promise.all(sends);
    },

    /**
     * The shopper's news of an order after payment, in the language they shopped in: shipped
     * (once per tracking number, so a corrected number is sent again) or refunded (once per
     * refund request).
     */
    async orderNews(
      notice: { pageUid: string; checkoutUid: string; shopperEmail: string; shopperLocale: Locale },
      news:
        | { template: 'orderShipped'; data: MailTemplates['orderShipped'] }
        | { template: 'orderRefunded'; data: MailTemplates['orderRefunded']; key: string },
    ): Promise<void> {
      if (!notice.shopperEmail) return;
      const key =
        news.template === 'orderShipped'
          ? `orderShipped:${notice.checkoutUid}:${news.data.carrier}:${news.data.trackingNumber}`
          : `orderRefunded:${notice.checkoutUid}:${news.key}`;
      const request = {
        pageUid: notice.pageUid,
        to: notice.shopperEmail,
        locale: notice.shopperLocale,
        dedupeKey: key,
      };
      if (news.template === 'orderShipped')
        await sendMail({ ...request, template: news.template, data: news.data });
      else await sendMail({ ...request, template: news.template, data: news.data });
    },

    /** Sends queued mails whose retry is due (and any a crashed node left); returns how many were tried. */
    async retryDue(): Promise<number> {
      if (!transport) return 0;
      const due = await db.query<{ uid: string }>(
        `SELECT uid FROM mail_outbox WHERE status = 'queued' AND next_attempt_at <= $1
         ORDER BY next_attempt_at LIMIT 50`,
        [now()],
      );
      for (const { uid } of due) await attempt(uid);
      return due.length;
    },

    /** The store's mails, newest first, in pages. */
    async outbox(
      pageUid: string,
      page: { before?: string | undefined; limit: number; status?: MailStatus | undefined },
    ): Promise<{ mails: OutboxMail[]; nextBefore: string | null }> {
      const params: unknown[] = [pageUid, page.limit + 1];
      let conditions = '';
      if (page.before) {
        const [cursorAt, cursorUid] = decodeCursor(page.before);
        params.push(cursorAt, cursorUid);
        conditions += ` AND (created_at, uid) < ($${params.length - 1}::bigint, $${params.length})`;
      }
      if (page.status) {
        params.push(page.status);
        conditions += ` AND status = $${params.length}`;
      }
      const rows = await db.query<MailRow>(
        `SELECT * FROM mail_outbox WHERE page_uid = $1${conditions} ORDER BY created_at DESC, uid DESC LIMIT $2`,
        params,
      );
      const more = rows.length > page.limit;
      const shown = rows.slice(0, page.limit);
      const last = shown.at(-1);
      return {
        mails: shown.map((row) => ({
          uid: row.uid,
          template: row.template,
          locale: row.locale,
          to: row.to_address,
          subject: row.subject,
          text: row.text_body,
          html: row.html_body,
          status: row.status,
          attempts: row.attempts,
          error: row.error,
          createdAt: Number(row.created_at),
          sentAt: row.sent_at === null ? null : Number(row.sent_at),
        })),
        nextBefore: more && last ? `${last.created_at}.${last.uid}` : null,
      };
    },

    /** Closes the SMTP connections. */
    close(): void {
      transport?.close();
    },
  };
}

function decodeCursor(cursor: string): [number, string] {
  const dot = cursor.indexOf('.');
  return [Number(cursor.slice(0, dot)), cursor.slice(dot + 1)];
}

export type MailService = ReturnType<typeof createMailService>;
