import { createHash, randomBytes } from 'node:crypto';
import type { AuthSession, UserDoc } from '@vitrine/protocol';
import type { FastifyRequest } from 'fastify';
import { createBatchedLookup } from '../../db/batched-lookup.ts';
import type { Queryable } from '../../db/database.ts';
import { sharedSecret } from '../../db/server-secrets.ts';
import type { AuthenticatedUser } from '../../http/caller.ts';
import { HttpError } from '../../http/errors.ts';
import { enforceRateLimit } from '../../http/rate-limit.ts';
import type { OutboxDatabase, Transaction } from '../../realtime/outbox.ts';
import type { UserDirectory } from '../users/user-directory.ts';
import {
  InvalidTokenError,
  type InvalidTokenReason,
  signIdToken,
  verifyIdToken as verifyIdTokenWithKey,
} from './id-token.ts';

/** The server_secrets row holding the id-token signing key (base64url of 32 random bytes). */
export const SIGNING_KEY_SECRET = 'id_token_signing';
const SIGNING_KEY_BYTES = 32;

/**
 * How long after expiry an id token may still be exchanged for a new one: only an anonymous
 * token from before refresh-token families (no `fam` claim), kept by a client that stored no
 * refresh token. Every token issued now carries its family and refreshes with the refresh token,
 * so this path closes by itself a week after the upgrade.
 */
export const REFRESH_GRACE_MS = 7 * 24 * 60 * 60_000;

/**
 * The bus topic announcing ended sign-ins (logout, refresh-token reuse): one `removed` change
 * per family, docId = the family id. Every node's realtime gateway follows it and drops the
 * authentication of its sockets from that family.
 */
export const SESSIONS_ENDED_TOPIC = 'auth.sessionsEnded';

/**
 * New anonymous users per client address per window, when config.abuseLimits is on: each is a
 * database row and a new identity for the per-user limits. A viewer keeps hers across visits
 * (local storage), so an address makes new ones only for new viewers or browsers; a minute's
 * window lets a show's start, with many viewers behind one carrier-NAT address, through, and
 * holds a script to 60 a minute. docs/operations.md lists it.
 */
export const ANONYMOUS_USERS_PER_ADDRESS = { max: 60, windowMs: 60_000 };

/** How long a refresh token can be exchanged; each exchange issues a new one. */
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60_000;

/** The stored form of a refresh token: its SHA-256 (the token itself is 32 random bytes). */
export const hashRefreshToken = (token: string) => createHash('sha256').update(token).digest('base64url');

export const REFRESH_WITH_REFRESH_TOKEN_MESSAGE =
  'This id token cannot be exchanged; refresh with the refresh token, or sign in again.';

/** A refresh token that cannot be exchanged; the message is the 401's. */
export class RefreshRefusedError extends HttpError {
  constructor(message: string) {
    super(401, 'unauthenticated', message);
  }
}

/** Who made a request, as proven by its id token. */
export type { AuthenticatedUser };

/** An authenticated user and the sign-in (refresh-token family) the token came from, if known. */
export interface AuthenticatedSession extends AuthenticatedUser {
  sessionId: string | null;
}

/** The user facts a session carries. */
type SessionUser = Pick<UserDoc, 'uid' | 'name' | 'isAnonymous'>;

const REASON_MESSAGES: Record<InvalidTokenReason, string> = {
  malformed: 'The id token is malformed.',
  unsupported_algorithm: 'The id token is not signed with a supported algorithm.',
  bad_signature: 'The id token signature is not valid.',
  wrong_issuer: 'The id token was not issued by this server.',
  wrong_audience: 'The id token is not meant for this API.',
  expired: 'The id token has expired; refresh it or sign in again.',
  issued_in_future: 'The id token is issued in the future; check the server clocks.',
  unknown_user: 'The user of the id token no longer exists; sign in again.',
  session_ended: 'This sign-in has ended (logged out); sign in again.',
};

/** The 401 every rejected id token becomes, with a message saying why. */
export function unauthenticated(error: InvalidTokenError): HttpError {
  return new HttpError(401, 'unauthenticated', REASON_MESSAGES[error.reason]);
}

/**
 * Anonymous sign-in and the bearer id tokens of spec §7. Verifying a token reads one row: its
 * refresh-token family, so a token stops working as soon as its sign-in ends (logout). A deleted
 * user's token works until it expires (at most ID_TOKEN_TTL_MS). The signing key lives in the
 * database so every server node signs and verifies with the same one.
 */
export function createAuthService(
  db: OutboxDatabase,
  options: {
    /** The users feature: creates anonymous users and reads the user a session is for. */
    users: Pick<UserDirectory, 'findUser' | 'createAnonymousUser'>;
    now?: () => number;
  },
) {
  const now = options.now ?? Date.now;
  const { users } = options;

  /** Tells every node's realtime gateway that these sign-ins ended (once `tx` commits). */
  function announceEnded(tx: Transaction, familyIds: string[]) {
    tx.publish(
      SESSIONS_ENDED_TOPIC,
      familyIds.map((id) => ({ type: 'removed' as const, docId: id, doc: null })),
    );
  }
  let signingKey: Promise<Buffer> | undefined;

  async function loadSigningKey(): Promise<Buffer> {
    const key = (await sharedSecret(db, SIGNING_KEY_SECRET, SIGNING_KEY_BYTES)) ?? Buffer.alloc(0);
    if (key.length < SIGNING_KEY_BYTES) {
      throw new Error(
        `server_secrets.${SIGNING_KEY_SECRET} is missing or shorter than ${SIGNING_KEY_BYTES} bytes`,
      );
    }
    return key;
  }

  function getSigningKey(): Promise<Buffer> {
    if (!signingKey) {
      signingKey = loadSigningKey();
      // A failed load (database briefly down) is retried by the next call, not cached.
      signingKey.catch(() => {
        signingKey = undefined;
      });
    }
    return signingKey;
  }

  /** A new refresh token in `familyId`, or in a new family (a new sign-in) when none is given. */
  async function issueRefreshToken(
    db: Queryable,
    userUid: string,
    familyId?: string,
  ): Promise<{ token: string; family: string }> {
    const family = familyId ?? randomBytes(16).toString('base64url');
    if (!familyId) {
      await db.query('INSERT INTO refresh_token_families (id, user_uid, created_at) VALUES ($1, $2, $3)', [
        family,
        userUid,
        now(),
      ]);
    }
    const token = randomBytes(32).toString('base64url');
    await db.query(
      'INSERT INTO refresh_tokens (token_hash, family_id, issued_at, expires_at) VALUES ($1, $2, $3, $4)',
      [hashRefreshToken(token), family, now(), now() + REFRESH_TOKEN_TTL_MS],
    );
    return { token, family };
  }

  async function session(
    user: SessionUser,
    options: { familyId?: string; tx?: Queryable } = {},
  ): Promise<AuthSession> {
    const { token: refreshToken, family } = await issueRefreshToken(
      options.tx ?? db,
      user.uid,
      options.familyId,
    );
    const { token, expiresAt } = signIdToken(
      await getSigningKey(),
      { sub: user.uid, anon: user.isAnonymous, fam: family },
      now(),
    );
    return {
      idToken: token,
      expiresAt,
      user: { uid: user.uid, name: user.name, isAnonymous: user.isAnonymous },
      refreshToken,
    };
  }

  /**
   * Exchanges a refresh token for a session with the next one (rotation). A token already
   * exchanged means it leaked (or two clients share it): the whole family is revoked so neither
   * the thief nor the owner can go on, and the owner signs in again.
   */
  async function refreshWithToken(refreshToken: string): Promise<AuthSession> {
    await getSigningKey(); // loaded outside the transaction, which holds PGlite's one connection
    const outcome = await db.transaction(async (tx) => {
      const [row] = await tx.query<{
        family_id: string;
        expires_at: string;
        spent_at: string | null;
        revoked_at: string | null;
        user_uid: string;
      }>(
        `SELECT t.family_id, t.expires_at, t.spent_at, f.revoked_at, f.user_uid
         FROM refresh_tokens t JOIN refresh_token_families f ON f.id = t.family_id
         WHERE t.token_hash = $1 FOR UPDATE OF t, f`,
        [hashRefreshToken(refreshToken)],
      );
      if (!row) return { refused: 'The refresh token is not valid; sign in again.' };
      if (row.revoked_at !== null) return { refused: 'This sign-in has ended; sign in again.' };
      if (row.spent_at !== null) {
        await tx.query(
          `UPDATE refresh_token_families SET revoked_at = $2, revoked_reason = 'reuse' WHERE id = $1`,
          [row.family_id, now()],
        );
        announceEnded(tx, [row.family_id]);
        return {
          refused: 'The refresh token was already used, so this sign-in was ended for safety; sign in again.',
        };
      }
      if (Number(row.expires_at) <= now())
        return { refused: 'The refresh token has expired; sign in again.' };
      const user = await users.findUser(row.user_uid, tx);
      if (!user) return { refused: 'The user of the refresh token no longer exists; sign in again.' };
      await tx.query('UPDATE refresh_tokens SET spent_at = $2 WHERE token_hash = $1', [
        hashRefreshToken(refreshToken),
        now(),
      ]);
      return {
        session: await session(user, { familyId: row.family_id, tx }),
      };
    });
    // Thrown after the transaction so a revocation is committed, not rolled back.
    if ('refused' in outcome) throw new RefreshRefusedError(outcome.refused as string);
    return outcome.session;
  }

  /**
   * Ends the sign-in the refresh token belongs to: every refresh token of its family, every id
   * token issued from it (see verifySession) and the realtime sockets authenticated with them.
   */
  function revokeFamilyOf(refreshToken: string): Promise<boolean> {
    return db.transaction(async (tx) => {
      const rows = await tx.query<{ id: string }>(
        `UPDATE refresh_token_families SET revoked_at = $2, revoked_reason = 'logout'
         WHERE id = (SELECT family_id FROM refresh_tokens WHERE token_hash = $1) AND revoked_at IS NULL
         RETURNING id`,
        [hashRefreshToken(refreshToken), now()],
      );
      announceEnded(
        tx,
        rows.map((row) => row.id),
      );
      return rows.length > 0;
    });
  }

  /**
   * Ends every sign-in of a user (a password reset: whoever knew the old password is signed out
   * everywhere), with their realtime sockets.
   */
  function endAllSignInsOf(userUid: string): Promise<number> {
    return db.transaction(async (tx) => {
      const rows = await tx.query<{ id: string }>(
        `UPDATE refresh_token_families SET revoked_at = $2, revoked_reason = 'password-reset'
         WHERE user_uid = $1 AND revoked_at IS NULL RETURNING id`,
        [userUid, now()],
      );
      announceEnded(
        tx,
        rows.map((row) => row.id),
      );
      return rows.length;
    });
  }

  async function sessionForUser(userUid: string, tx?: Queryable): Promise<AuthSession> {
    const user = await users.findUser(userUid, tx ?? db);
    if (!user) throw new RefreshRefusedError('The account no longer exists.');
    return session(user, tx ? { tx } : {});
  }

  /**
   * A refresh-token family's revocation, read for every authenticated request: the requests that
   * arrived together share one statement (a flash sale's adds), each sent after its request came.
   */
  const familyOf = createBatchedLookup(async (ids) => {
    const rows = await db.query<{ id: string; revoked_at: string | null }>(
      'SELECT id, revoked_at FROM refresh_token_families WHERE id = ANY($1)',
      [ids],
    );
    return new Map(rows.map((row) => [row.id, row]));
  });

  /** As verifyIdToken, with the sign-in the token belongs to (the realtime gateway follows it). */
  async function verifySession(token: string): Promise<AuthenticatedSession> {
    const claims = verifyIdTokenWithKey(token, await getSigningKey(), { nowMs: now() });
    if (claims.fam !== undefined) {
      const family = await familyOf(claims.fam);
      if (!family || family.revoked_at !== null) {
        throw new InvalidTokenError('session_ended', REASON_MESSAGES.session_ended);
      }
    }
    return { userUid: claims.sub, isAnonymous: claims.anon, sessionId: claims.fam ?? null };
  }

  async function verifyIdToken(token: string): Promise<AuthenticatedUser> {
    const { userUid, isAnonymous } = await verifySession(token);
    return { userUid, isAnonymous };
  }

  async function authenticateRequest(request: FastifyRequest): Promise<AuthenticatedUser | null> {
    const header = request.headers.authorization;
    if (header === undefined || header.trim() === '') return null;
    const match = /^Bearer +(\S+) *$/i.exec(header);
    if (!match?.[1]) {
      throw new HttpError(401, 'unauthenticated', 'The Authorization header must be "Bearer <id token>".');
    }
    try {
      return await verifyIdToken(match[1]);
    } catch (error) {
      if (error instanceof InvalidTokenError) throw unauthenticated(error);
      throw error;
    }
  }

  return {
    /** The HS256 key of id tokens, shared by all servers on the database; loaded once. */
    signingKey: getSigningKey,

    /**
     * Creates a new anonymous user (spec §4: done when no user exists) and its first id token.
     * With `limitAddress` (config.abuseLimits), at most ANONYMOUS_USERS_PER_ADDRESS per window
     * from that client address.
     */
    async signInAnonymously(limits: { limitAddress?: string } = {}): Promise<AuthSession> {
      if (limits.limitAddress !== undefined) {
        await enforceRateLimit(
          db,
          `anonymous:${limits.limitAddress}`,
          ANONYMOUS_USERS_PER_ADDRESS,
          now(),
          (seconds) => `Too many new visitors from this address. Try again in ${seconds} seconds.`,
        );
      }
      return session(await users.createAnonymousUser());
    },

    /**
     * The upgrade path of an anonymous client from before refresh tokens: a new session for the
     * user of `idToken`, a validly signed token WITHOUT a family (`fam`) that expired at most
     * REFRESH_GRACE_MS ago, of a user who is still anonymous. Tokens with a family are refused:
     * their client holds the refresh token, and exchanging the id token would start sessions
     * beside the rotated family that outlive its logout. Starts a new refresh-token family.
     */
    async refreshIdToken(idToken: string): Promise<AuthSession> {
      const claims = verifyIdTokenWithKey(idToken, await getSigningKey(), {
        nowMs: now(),
        acceptExpiredForMs: REFRESH_GRACE_MS,
      });
      if (claims.fam !== undefined) throw new RefreshRefusedError(REFRESH_WITH_REFRESH_TOKEN_MESSAGE);
      const user = await users.findUser(claims.sub);
      if (!user) throw new InvalidTokenError('unknown_user', 'The user of the token does not exist.');
      if (!user.isAnonymous) throw new RefreshRefusedError(REFRESH_WITH_REFRESH_TOKEN_MESSAGE);
      return session(user);
    },

    refreshWithToken,
    revokeFamilyOf,
    endAllSignInsOf,
    /** A new sign-in (id token + new refresh-token family) for an existing user. */
    sessionForUser,

    /**
     * The user an unexpired, validly signed id token of a sign-in that has not ended names;
     * throws InvalidTokenError otherwise.
     */
    verifyIdToken,
    verifySession,

    /**
     * The caller of a request from its `Authorization: Bearer <id token>` header: null without
     * the header, a 401 HttpError when the header is there but is not a valid id token.
     */
    authenticateRequest,

    /**
     * The caller of a request that needs a signed-in (or anonymous) user: as authenticateRequest,
     * and a 401 HttpError with `message` when the header is missing.
     */
    async requireUser(
      request: FastifyRequest,
      message = 'Sign in first (Authorization: Bearer <id token>).',
    ): Promise<AuthenticatedUser> {
      const user = await authenticateRequest(request);
      if (!user) throw new HttpError(401, 'unauthenticated', message);
      return user;
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
