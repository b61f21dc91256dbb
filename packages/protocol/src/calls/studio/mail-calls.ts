import { z } from 'zod';
import { Timestamp, Uid } from '../../common.ts';
import { call } from '../define-call.ts';

const StorePath = z.object({ pageUid: Uid });
const MailPath = z.object({ pageUid: Uid, mailUid: z.string().min(1).max(64) });

/** A mail that did not reach its recipient: failed for good, retrying, or kept (no mail server). */
export const MailDeliveryProblem = z.object({
  uid: z.string(),
  to: z.string(),
  subject: z.string(),
  status: z.enum(['queued', 'kept', 'failed']),
  attempts: z.number().int().nonnegative(),
  /** The mail server's last answer (null for a kept mail: it was never tried). */
  error: z.string().nullable(),
  createdAt: Timestamp,
});
export type MailDeliveryProblem = z.infer<typeof MailDeliveryProblem>;

/**
 * How the server delivers mail, for the studio's settings. The SMTP server is the server's (one
 * for every store on it, set by its operator in the environment), so the studio shows which
 * setting to use and never its credentials.
 */
export const MailDelivery = z.object({
  /** `smtp`: mails are sent; `outbox`: no SMTP_URL, mails are kept and read in the studio. */
  transport: z.enum(['smtp', 'outbox']),
  /** The SMTP server's host and port (no user name or password), when there is one. */
  smtpServer: z.string().nullable(),
  /** The sender of every mail (MAIL_FROM). */
  from: z.string(),
  /** The environment settings that choose it, as the operator writes them. */
  settings: z.object({ smtpUrl: z.literal('SMTP_URL'), from: z.literal('MAIL_FROM') }),
  /** The store's undelivered mails, newest first (at most 50). */
  problems: z.array(MailDeliveryProblem),
});
export type MailDelivery = z.infer<typeof MailDelivery>;

/** The result of a test mail: delivered to the address, or the mail server's error. */
export const TestMailResult = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), to: z.string() }),
  z.object({ ok: z.literal(false), to: z.string(), error: z.string() }),
]);
export type TestMailResult = z.infer<typeof TestMailResult>;

/**
 * The studio's mail delivery calls, the owner's: the mails are shoppers' personal data, and a test
 * mail goes out under the store's name.
 */
export const mailCalls = {
  // By path, then method in the order of CALL_METHODS (call-types.ts); api-docs.test.ts checks it.
  getMailDelivery: call({
    method: 'GET',
    path: '/staff/stores/:pageUid/mail-delivery',
    auth: { staff: 'owner' },
    summary:
      'How the server delivers mail (SMTP or kept in the outbox), which settings choose it, and the store’s undelivered mails.',
    params: StorePath,
    response: MailDelivery,
  }),
  sendTestMail: call({
    method: 'POST',
    path: '/staff/stores/:pageUid/mail-delivery/test',
    auth: { staff: 'owner' },
    summary:
      'Sends a test mail to the signed-in owner’s address through the mail server at once, and answers whether it was delivered or the server’s error; 409 without a mail server.',
    params: StorePath,
    request: z.object({}).strict(),
    response: TestMailResult,
  }),
  resendMail: call({
    method: 'POST',
    path: '/staff/stores/:pageUid/mail/:mailUid/resend',
    auth: { staff: 'owner' },
    summary:
      'Sends a kept or failed mail of the store again, now; answers the mail with its new status. 409 without a mail server or for a mail already sent.',
    params: MailPath,
    request: z.object({}).strict(),
    response: MailDeliveryProblem.extend({ status: z.enum(['queued', 'sent', 'kept', 'failed']) }),
  }),
};
