import { createHash, randomBytes } from 'node:crypto';
import type { AuthSession, SignInWithPasswordRequest, SignUpRequest } from '@vitrine/protocol';
import type { Queryable } from '../../db/database.ts';
import { HttpError } from '../../http/errors.ts';
import { enforceRateLimit } from '../../http/rate-limit.ts';
import type { OutboxDatabase } from '../../realtime/outbox.ts';
import type { UserService } from '../users/user-service.ts';
import { type AuthenticatedUser, type AuthService, RefreshRefusedError } from './auth-service.ts';
import { assertPasswordNotCommon, decoyPasswordHash, hashPassword, verifyPassword } from './passwords.ts';

/**
 * Password attempts per e-mail address FROM ONE CLIENT ADDRESS per window, against guessing.
 * Keyed on both, so a stranger's wrong guesses use up his own allowance for the e-mail, not the
 * owner's: the owner, signing in from her own address, is not locked out.
 */
export const PASSWORD_ATTEMPT_LIMIT = { max: 10, windowMs: 15 * 60_000 };
/**
 * Password attempts per e-mail address from all addresses together: a looser cap on guessing
 * spread over many addresses. Reaching it takes ten addresses each using up their own limit in
 * the same quarter hour, so one attacker address cannot lock the owner out.
 */
export const PASSWORD_ATTEMPTS_PER_EMAIL = { max: 100, windowMs: 15 * 60_000 };
/**
 * Password attempts per client address over all e-mails (when config.abuseLimits is on):
 * against trying one password on many accounts. Generous, as many shoppers can share one
 * carrier-NAT address.
 */
export const PASSWORD_ATTEMPTS_PER_ADDRESS = { max: 100, windowMs: 10 * 60_000 };
/**
 * Sign-ups per client address per window: each one costs a 128 MiB, ~0.5 s scrypt hash, so a
 * flood of them must not be able to take the server's CPU.
 */
export const SIGN_UP_LIMIT = { max: 20, windowMs: 10 * 60_000 };
/** How long the credential of a 409 credential_in_use can be redeemed. */
export const PENDING_CREDENTIAL_TTL_MS = 5 * 60_000;

export const WRONG_PASSWORD_MESSAGE = 'Wrong e-mail address or password.';
export const EMAIL_IN_USE_MESSAGE =
  'An account with this e-mail address already exists. Sign in with your password instead.';
export const ALREADY_SIGNED_IN_MESSAGE = 'You are already signed in to an account; log out first.';
export const CREDENTIAL_IN_USE_MESSAGE =
  'This sign-in is already linked to another account; signing in to that account instead.';

const isUniqueViolation = (error: unknown) => (error as { code?: unknown }).code === '23505';
const hashCredential = (credential: string) => createHash('sha256').update(credential).digest('base64url');

/** A social identity as the provider vouched for it. */
export interface VerifiedIdentity {
  providerId: string;
  subject: string;
  email: string | null;
  name: string | null;
  avatar: string | null;
}

/**
 * E-mail + password accounts, social identities and logout (spec §4 "Authentication"). Signing
 * up or linking with an anonymous caller upgrades that user in place, so their comments and
 * participations stay theirs.
 */
export function createAccountService(
  db: OutboxDatabase,
  auth: AuthService,
  /** The users feature: accounts are users, found by e-mail and created or upgraded through it. */
  users: Pick<
    UserService,
    | 'findUser'
    | 'uidByEmail'
    | 'createAccount'
    | 'upgradeToPasswordAccount'
    | 'upgradeToIdentityAccount'
    | 'publishUser'
  >,
  now: () => number,
  /**
   * config.abuseLimits: per-address limits (sign-in attempts, anonymous users, hashing share);
   * config.signUpLimit: new accounts per address (SIGN_UP_LIMIT unless configured).
   */
  options: { abuseLimits: boolean; signUpLimit?: { max: number; windowMs: number } } = { abuseLimits: false },
) {
  /** The client whose share of the hashing queue a hash counts against (abuse limits only). */
  const hashingClient = (clientAddress: string) => (options.abuseLimits ? clientAddress : undefined);

  /**
   * Counts a password attempt on `email` from `clientAddress` against the limits above. Sign-up
   * counts too: with a taken e-mail it checks the password (see signUp), so it must not be a way
   * around the sign-in limits.
   */
  async function limitPasswordAttempts(email: string, clientAddress: string) {
    const tooMany = (seconds: number) => `Too many sign-in attempts. Try again in ${seconds} seconds.`;
    if (options.abuseLimits) {
      await enforceRateLimit(
        db,
        `password-address:${clientAddress}`,
        PASSWORD_ATTEMPTS_PER_ADDRESS,
        now(),
        (seconds) => `Too many sign-in attempts from your network. Try again in ${seconds} seconds.`,
      );
    }
    await enforceRateLimit(db, `password:${email}:${clientAddress}`, PASSWORD_ATTEMPT_LIMIT, now(), tooMany);
    await enforceRateLimit(db, `password:${email}`, PASSWORD_ATTEMPTS_PER_EMAIL, now(), tooMany);
  }

  /**
   * The account with this e-mail and its password hash (null: no password). The password query
   * runs for unknown e-mails too, so the time taken does not tell whether an account exists.
   */
  async function accountByEmail(
    email: string,
  ): Promise<{ uid: string; password_hash: string | null } | null> {
    const uid = await users.uidByEmail(email);
    const [password] = await db.query<{ password_hash: string }>(
      'SELECT password_hash FROM user_passwords WHERE user_uid = $1',
      [uid ?? ''],
    );
    return uid === null ? null : { uid, password_hash: password?.password_hash ?? null };
  }

  /** The caller must be absent or anonymous to get a new credential attached. */
  function requireNoAccount(caller: AuthenticatedUser | null) {
    if (caller && !caller.isAnonymous)
      throw new HttpError(409, 'already_signed_in', ALREADY_SIGNED_IN_MESSAGE);
  }

  return {
    async signUp(
      caller: AuthenticatedUser | null,
      input: SignUpRequest,
      clientAddress: string,
    ): Promise<AuthSession> {
      requireNoAccount(caller);
      await enforceRateLimit(
        db,
        `signup:${clientAddress}`,
        options.signUpLimit ?? SIGN_UP_LIMIT,
        now(),
        (seconds) => `Too many new accounts from this address. Try again in ${seconds} seconds.`,
      );
      assertPasswordNotCommon(input.password);
      // Free and taken e-mails alike, so the limit itself tells nothing.
      await limitPasswordAttempts(input.email, clientAddress);
      /*
       * Sign-up must not tell who has an account (issue 12 item 5), so a taken e-mail gets the
       * same answer as a free one: 200 with a new, non-anonymous session, after one scrypt run
       * either way (a free e-mail's new hash, a taken one's password check). What stands behind
       * it differs, and harms no one: with the account's own password, it is that account (its
       * holder simply signed in); with any other password, the caller's account is made without
       * the e-mail and without a password, so the existing account stays untouched and only its
       * holder can reach it. Only the rare race of two sign-ups at once still answers 409.
       */
      const existing = await accountByEmail(input.email);
      const client = hashingClient(clientAddress);
      if (existing) {
        const stored = existing.password_hash ?? (await decoyPasswordHash());
        const matches = await verifyPassword(input.password, stored, client);
        if (matches && existing.password_hash) return auth.sessionForUser(existing.uid);
      }
      const email = existing ? null : input.email;
      const passwordHash = email ? await hashPassword(input.password, client) : null;
      let userUid: string;
      try {
        userUid = await db.transaction(async (tx) => {
          let uid = caller?.userUid;
          const upgraded = uid
            ? await users.upgradeToPasswordAccount(tx, uid, { email, name: input.name ?? null })
            : false;
          if (!upgraded) {
            // No caller, or their anonymous user is gone: a new account.
            uid = await users.createAccount(tx, { name: input.name ?? '', email });
          }
          if (passwordHash) {
            await tx.query(
              'INSERT INTO user_passwords (user_uid, password_hash, updated_at) VALUES ($1, $2, $3)',
              [uid, passwordHash, now()],
            );
          }
          await users.publishUser(tx, uid as string);
          return uid as string;
        });
      } catch (error) {
        // Two sign-ups with one address at once: the unique index decides.
        if (isUniqueViolation(error)) throw new HttpError(409, 'email_in_use', EMAIL_IN_USE_MESSAGE);
        throw error;
      }
      return auth.sessionForUser(userUid);
    },

    /**
     * Sets a signed-in account's password: the first one freely (accounts made by a studio link
     * or a social sign-in have none), a replacement only with the current one, counted against
     * the same attempt limits as signing in.
     */
    async changePassword(
      caller: AuthenticatedUser,
      input: { currentPassword?: string | undefined; newPassword: string },
      clientAddress: string,
    ): Promise<void> {
      if (caller.isAnonymous)
        throw new HttpError(
          403,
          'account_required',
          'Create an account or sign in before setting a password.',
        );
      const user = await users.findUser(caller.userUid);
      if (!user?.email)
        throw new HttpError(
          409,
          'email_required',
          'Add an e-mail address to the account before setting a password.',
        );
      const [row] = await db.query<{ password_hash: string }>(
        'SELECT password_hash FROM user_passwords WHERE user_uid = $1',
        [caller.userUid],
      );
      const client = hashingClient(clientAddress);
      if (row) {
        await limitPasswordAttempts(user.email, clientAddress);
        if (
          !input.currentPassword ||
          !(await verifyPassword(input.currentPassword, row.password_hash, client))
        )
          throw new HttpError(403, 'wrong_password', 'The current password is not right.');
      }
      assertPasswordNotCommon(input.newPassword);
      const hash = await hashPassword(input.newPassword, client);
      await db.query(
        `INSERT INTO user_passwords (user_uid, password_hash, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (user_uid) DO UPDATE SET password_hash = EXCLUDED.password_hash, updated_at = EXCLUDED.updated_at`,
        [caller.userUid, hash, now()],
      );
    },

    /**
     * The stored form of a new password (refused when common), hashed outside any transaction:
     * a hash takes half a second, and PGlite's one connection must not wait on it.
     */
    async hashNewPassword(password: string, clientAddress: string): Promise<string> {
      assertPasswordNotCommon(password);
      return hashPassword(password, hashingClient(clientAddress));
    },

    /** Sets an account's password to a hash from hashNewPassword (first run, password reset). */
    async savePasswordHash(q: Queryable, userUid: string, passwordHash: string): Promise<void> {
      await q.query(
        `INSERT INTO user_passwords (user_uid, password_hash, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (user_uid) DO UPDATE SET password_hash = EXCLUDED.password_hash, updated_at = EXCLUDED.updated_at`,
        [userUid, passwordHash, now()],
      );
    },

    async signInWithPassword(input: SignInWithPasswordRequest, clientAddress: string): Promise<AuthSession> {
      await limitPasswordAttempts(input.email, clientAddress);
      const account = await accountByEmail(input.email);
      const matches = await verifyPassword(
        input.password,
        account?.password_hash ?? (await decoyPasswordHash()),
        hashingClient(clientAddress),
      );
      if (!account?.password_hash || !matches)
        throw new HttpError(401, 'unauthenticated', WRONG_PASSWORD_MESSAGE);
      return auth.sessionForUser(account.uid);
    },

    /**
     * Ends the sign-in of the refresh token and starts a new anonymous one (spec §4); the new
     * anonymous user counts against the address's limit like any other.
     */
    async logout(refreshToken: string, clientAddress: string): Promise<AuthSession> {
      await auth.revokeFamilyOf(refreshToken);
      return auth.signInAnonymously(options.abuseLimits ? { limitAddress: clientAddress } : {});
    },

    /**
     * Signs in with a social identity: its linked user if there is one, else links it to the
     * anonymous caller (upgrade) or to a new user. When the caller is anonymous but the identity
     * already has another user, answers 409 credential_in_use with a one-time credential for
     * that user (spec §8: the client retries with the credential from the error).
     */
    async signInWithIdentity(
      caller: AuthenticatedUser | null,
      identity: VerifiedIdentity,
    ): Promise<AuthSession> {
      const [linked] = await db.query<{ user_uid: string }>(
        'SELECT user_uid FROM user_identities WHERE provider_id = $1 AND subject = $2',
        [identity.providerId, identity.subject],
      );
      if (linked) {
        if (caller?.isAnonymous && caller.userUid !== linked.user_uid) {
          const credential = randomBytes(32).toString('base64url');
          await db.query(
            'INSERT INTO pending_credentials (credential_hash, user_uid, expires_at) VALUES ($1, $2, $3)',
            [hashCredential(credential), linked.user_uid, now() + PENDING_CREDENTIAL_TTL_MS],
          );
          throw new HttpError(409, 'credential_in_use', CREDENTIAL_IN_USE_MESSAGE, { credential });
        }
        return auth.sessionForUser(linked.user_uid);
      }
      requireNoAccount(caller);
      const userUid = await db.transaction(async (tx) => {
        // The profile's e-mail goes on the user only when no other account has it.
        const emailTaken = identity.email ? (await users.uidByEmail(identity.email, tx)) !== null : true;
        const email = emailTaken ? null : identity.email;
        const upgraded = caller
          ? await users.upgradeToIdentityAccount(tx, caller.userUid, {
              email,
              name: identity.name,
              avatar: identity.avatar,
            })
          : false;
        const uid =
          caller && upgraded
            ? caller.userUid
            : await users.createAccount(tx, { name: identity.name ?? '', email, avatar: identity.avatar });
        await tx.query(
          'INSERT INTO user_identities (provider_id, subject, user_uid, email, created_at) VALUES ($1, $2, $3, $4, $5)',
          [identity.providerId, identity.subject, uid, identity.email, now()],
        );
        await users.publishUser(tx, uid);
        return uid;
      });
      return auth.sessionForUser(userUid);
    },

    /** Redeems the one-time credential of a 409 credential_in_use. */
    async signInWithCredential(credential: string): Promise<AuthSession> {
      const [row] = await db.query<{ user_uid: string }>(
        `UPDATE pending_credentials SET used_at = $2
         WHERE credential_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING user_uid`,
        [hashCredential(credential), now()],
      );
      if (!row)
        throw new RefreshRefusedError('The credential is not valid or was already used; sign in again.');
      return auth.sessionForUser(row.user_uid);
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
