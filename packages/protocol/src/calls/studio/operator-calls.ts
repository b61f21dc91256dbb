import { z } from 'zod';
import { Email, Password, UserName } from '../../accounts.ts';
import { AuthSession } from '../../auth.ts';
import { LocaleCode, Uid } from '../../common.ts';
import { call } from '../define-call.ts';
import { OneTimeToken } from './staff-calls.ts';

/** Whether this server still waits for its first store (the setup page at `/`). */
export const SetupStatus = z.object({ needed: z.boolean() });
export type SetupStatus = z.infer<typeof SetupStatus>;

/** The first store and its owner, made in the browser with the one-time setup token of the server's log. */
export const CompleteSetupRequest = z
  .object({
    token: OneTimeToken,
    storeName: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
    /** The store's id in its URLs; made from its name when left out. */
    storeId: Uid.optional(),
    ownerName: UserName,
    email: Email,
    password: Password,
    /** The language of the store and of its owner's mails; the browser's by default. */
    language: LocaleCode.default('en'),
  })
  .strict();
export type CompleteSetupRequest = z.infer<typeof CompleteSetupRequest>;

export const CompleteSetupResponse = z.object({ pageUid: Uid, session: AuthSession });
export type CompleteSetupResponse = z.infer<typeof CompleteSetupResponse>;

/** Asks for a mail to an account's address; answered the same whether the account exists or not. */
export const AccountRecoveryRequest = z
  .object({
    email: Email,
    /** The language of the mail when the account has none saved. */
    language: LocaleCode.optional(),
  })
  .strict();
export type AccountRecoveryRequest = z.infer<typeof AccountRecoveryRequest>;

export const ResetPasswordRequest = z.object({ token: OneTimeToken, newPassword: Password }).strict();
export type ResetPasswordRequest = z.infer<typeof ResetPasswordRequest>;

/**
 * What an operator checks from outside (`npm run doctor`, admin key): whether payments and mail
 * are configured (never a key or a password), what the live ingest offers, the free space of the
 * server's folders and its clock. Only the server knows these; nothing else reports them.
 */
export const ServerStatus = z.object({
  /** The payment providers offered; empty: the shop cannot take payments. */
  payments: z.array(z.enum(['stripe', 'test'])),
  /** Whether mail is sent through SMTP (false: kept in the outbox). */
  mail: z.object({ sending: z.boolean() }),
  live: z.object({
    /** The RTMP port publishers use, or null when there is no RTMP ingest. */
    rtmpPort: z.number().int().nullable(),
    whip: z.boolean(),
    /** Whether an ffmpeg 5 or later was found: live video needs it. */
    ffmpeg: z.boolean(),
  }),
  /** Free and total bytes of the disk under each folder the server writes. */
  disks: z.array(
    z.object({
      purpose: z.enum(['database', 'media', 'recordings']),
      path: z.string(),
      freeBytes: z.number().nonnegative(),
      totalBytes: z.number().nonnegative(),
    }),
  ),
  /** The server's clock (ms since the epoch) when it answered. */
  time: z.number(),
});
export type ServerStatus = z.infer<typeof ServerStatus>;

/** First-run setup, account recovery by e-mail and the operator's status read. */
export const operatorCalls = {
  // By path, then method in the order of CALL_METHODS (call-types.ts); api-docs.test.ts checks it.
  serverStatus: call({
    method: 'GET',
    path: '/admin/status',
    auth: 'admin',
    summary:
      'For the operator (admin key; `npm run doctor`): payment providers and mail configured or not, the live ingest, free disk under the data folders, the server clock. No secrets.',
    response: ServerStatus,
  }),
  requestPasswordReset: call({
    method: 'POST',
    path: '/functions/auth/requestPasswordReset',
    auth: 'anonymous',
    summary:
      'E-mails a one-time password reset link (30 minutes) to the account with this address; the same 204 whether there is one or not. 429 after too many requests.',
    request: AccountRecoveryRequest,
    response: null,
    status: 204,
  }),
  requestSignInLink: call({
    method: 'POST',
    path: '/functions/auth/requestSignInLink',
    auth: 'anonymous',
    summary:
      'E-mails a one-time sign-in link (30 minutes) to the account with this address; the same 204 whether there is one or not. 429 after too many requests for the address or from the client.',
    request: AccountRecoveryRequest,
    response: null,
    status: 204,
  }),
  resetPassword: call({
    method: 'POST',
    path: '/functions/auth/resetPassword',
    auth: 'anonymous',
    summary:
      "Sets a new password with a reset link's token (once, before it expires), ends the account's other sign-ins and signs in. 401 link_not_valid.",
    request: ResetPasswordRequest,
    response: AuthSession,
  }),
  setupStatus: call({
    method: 'GET',
    path: '/staff/setup',
    auth: 'anonymous',
    summary: 'Whether the server has no store yet, so `/` shows the setup page.',
    response: SetupStatus,
  }),
  completeSetup: call({
    method: 'POST',
    path: '/staff/setup',
    auth: 'anonymous',
    summary:
      "Creates the first store and its owner's account with the one-time setup token of the server's log, and signs the owner in; refused once a store exists. 429 after too many attempts.",
    request: CompleteSetupRequest,
    response: CompleteSetupResponse,
    status: 201,
  }),
};
