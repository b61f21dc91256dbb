import { createHash, randomBytes } from 'node:crypto';
import {
  ACCOUNT_RECOVERY_PER_ADDRESS,
  ACCOUNT_RECOVERY_PER_EMAIL,
  ACCOUNT_RECOVERY_TTL_MS,
} from '@vitrine/domain';
import type { AccountRecoveryRequest, AuthSession, ResetPasswordRequest } from '@vitrine/protocol';
import type { Locale } from '@vitrine/protocol/vocabulary';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.ts';
import { HttpError } from '../../http/errors.ts';
import { enforceRateLimit } from '../../http/rate-limit.ts';
import type { UserDirectory } from '../users/user-directory.ts';
import type { AccountService } from './account-service.ts';
import type { AuthService } from './auth-service.ts';

/** Where an e-mailed password reset link leads: the studio's reset page, the token in the fragment. */
export const passwordResetUrl = (origin: string, token: string) => `${origin}/studio/reset-password#${token}`;

export const RESET_LINK_NOT_VALID_MESSAGE =
  'This password reset link was already used or has expired. Ask for a new one on the sign-in page.';

const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

/** A recovery mail to send: which one, to whom, in which language, with its link. */
export interface RecoveryMail {
  template: 'signInLink' | 'passwordReset';
  to: string;
  locale: Locale;
  url: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

/**
 * Getting back into an account by e-mail (issue 28 item 3): a one-time sign-in link or a
 * password reset link, each working once for 30 minutes, only their hashes kept. A request is
 * answered before the address is even looked up, the same way for every address, so neither the
 * answer nor its timing tells whether an account exists; the mail goes out after the answer.
 */
export function createAccountRecovery(deps: {
  db: Database;
  users: Pick<UserDirectory, 'uidByEmail' | 'findUser'>;
  auth: Pick<AuthService, 'sessionForUser' | 'endAllSignInsOf'>;
  accounts: Pick<AccountService, 'hashNewPassword' | 'savePasswordHash'>;
  /** A one-time studio sign-in link token for the user (the staff feature's studio links). */
  createSignInLink: (userUid: string, ttlMs: number) => Promise<string>;
  /** Where a sign-in link token leads. */
  signInLinkUrl: (origin: string, token: string) => string;
  sendMail: (mail: RecoveryMail) => Promise<void>;
  now: () => number;
  log: Pick<FastifyBaseLogger, 'error'>;
}) {
  const { db, users, now, log } = deps;
  /** Mails being prepared after their answer went out; awaited when the server closes. */
  const pending = new Set<Promise<void>>();

  async function limitRequests(email: string, clientAddress: string) {
    const message = (seconds: number) => `Too many requests. Try again in ${seconds} seconds.`;
    await enforceRateLimit(
      db,
      `recovery-address:${clientAddress}`,
      ACCOUNT_RECOVERY_PER_ADDRESS,
      now(),
      message,
    );
    await enforceRateLimit(db, `recovery:${email}`, ACCOUNT_RECOVERY_PER_EMAIL, now(), message);
  }

  /** Runs `work` after the answer, keeping it until done; a failure is logged, never answered. */
  function afterAnswer(work: () => Promise<void>) {
    const running: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(work)
      .catch((error) => log.error({ err: error }, 'sending an account recovery mail failed'))
      .finally(() => pending.delete(running));
    pending.add(running);
  }

  /** The account of the address and the language its mail is written in; null: no account. */
  async function recipient(input: AccountRecoveryRequest) {
    const uid = await users.uidByEmail(input.email);
    if (uid === null) return null;
    const user = await users.findUser(uid);
    if (!user || user.isAnonymous) return null;
    return { uid, locale: user.localeCode ?? input.language ?? 'en' };
  }

  return {
    async requestSignInLink(input: AccountRecoveryRequest, clientAddress: string, origin: string) {
      await limitRequests(input.email, clientAddress);
      afterAnswer(async () => {
        const account = await recipient(input);
        if (!account) return;
        const token = await deps.createSignInLink(account.uid, ACCOUNT_RECOVERY_TTL_MS);
        await deps.sendMail({
          template: 'signInLink',
          to: input.email,
          locale: account.locale,
          url: deps.signInLinkUrl(origin, token),
          expiresAt: now() + ACCOUNT_RECOVERY_TTL_MS,
        });
      });
    },

    async requestPasswordReset(input: AccountRecoveryRequest, clientAddress: string, origin: string) {
      await limitRequests(input.email, clientAddress);
      afterAnswer(async () => {
        const account = await recipient(input);
        if (!account) return;
        const token = randomBytes(32).toString('base64url');
        const expiresAt = now() + ACCOUNT_RECOVERY_TTL_MS;
        await db.query(
          'INSERT INTO password_reset_tokens (token_hash, user_uid, created_at, expires_at) VALUES ($1, $2, $3, $4)',
          [hashToken(token), account.uid, now(), expiresAt],
        );
        await deps.sendMail({
          template: 'passwordReset',
          to: input.email,
          locale: account.locale,
          url: passwordResetUrl(origin, token),
          expiresAt,
        });
      });
    },

    /**
     * Sets the password a reset link is for, spending the link, ends the account's other
     * sign-ins and answers a new one. The password is checked and hashed before the link is
     * spent, so a refused password leaves the link working.
     */
    async resetPassword(input: ResetPasswordRequest, clientAddress: string): Promise<AuthSession> {
      await enforceRateLimit(
        db,
        `password-reset-address:${clientAddress}`,
        ACCOUNT_RECOVERY_PER_ADDRESS,
        now(),
        (seconds) => `Too many attempts. Try again in ${seconds} seconds.`,
      );
      const passwordHash = await deps.accounts.hashNewPassword(input.newPassword, clientAddress);
      const userUid = await db.transaction(async (tx) => {
        // One statement spends the link, so two resets with it cannot both succeed.
        const [row] = await tx.query<{ user_uid: string }>(
          `UPDATE password_reset_tokens SET used_at = $2
           WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING user_uid`,
          [hashToken(input.token), now()],
        );
        if (!row) return null;
        await deps.accounts.savePasswordHash(tx, row.user_uid, passwordHash);
        return row.user_uid;
      });
      if (userUid === null) throw new HttpError(401, 'link_not_valid', RESET_LINK_NOT_VALID_MESSAGE);
      await deps.auth.endAllSignInsOf(userUid);
      return deps.auth.sessionForUser(userUid);
    },

    /** Resolves once every mail requested so far was handed to the mail feature (tests, shutdown). */
    async settled(): Promise<void> {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}

export type AccountRecovery = ReturnType<typeof createAccountRecovery>;
