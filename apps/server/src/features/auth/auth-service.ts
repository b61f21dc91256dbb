import { randomBytes } from 'node:crypto';
import type { AuthSession } from '@vitrine/protocol';
import type { FastifyRequest } from 'fastify';
import type { Database } from '../../db/database.ts';
import { HttpError } from '../../http/errors.ts';
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
 * How long after expiry an id token may still be exchanged for a new one. A stop-gap until
 * refresh tokens exist: until then a session lives while it is refreshed at least once a week.
 */
export const REFRESH_GRACE_MS = 7 * 24 * 60 * 60_000;

/** Who made a request, as proven by its id token. */
export interface AuthenticatedUser {
  userUid: string;
  isAnonymous: boolean;
}

interface UserRow {
  uid: string;
  name: string;
  is_anonymous: boolean;
}

const REASON_MESSAGES: Record<InvalidTokenReason, string> = {
  malformed: 'The id token is malformed.',
  unsupported_algorithm: 'The id token is not signed with a supported algorithm.',
  bad_signature: 'The id token signature is not valid.',
  wrong_issuer: 'The id token was not issued by this server.',
  expired: 'The id token has expired; refresh it or sign in again.',
  issued_in_future: 'The id token is issued in the future; check the server clocks.',
  unknown_user: 'The user of the id token no longer exists; sign in again.',
};

/** The 401 every rejected id token becomes, with a message saying why. */
export function unauthenticated(error: InvalidTokenError): HttpError {
  return new HttpError(401, 'unauthenticated', REASON_MESSAGES[error.reason]);
}

/**
 * Anonymous sign-in and the bearer id tokens of spec §7. Tokens are verified without a database
 * read (so a deleted user's token works until it expires, at most ID_TOKEN_TTL_MS); the signing
 * key lives in the database so every server node signs and verifies with the same one.
 */
export function createAuthService(db: Database, options: { now?: () => number } = {}) {
  const now = options.now ?? Date.now;
  let signingKey: Promise<Buffer> | undefined;

  async function loadSigningKey(): Promise<Buffer> {
    // Whichever node inserts first wins; the others' inserts do nothing and all read its key.
    await db.query('INSERT INTO server_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
      SIGNING_KEY_SECRET,
      randomBytes(SIGNING_KEY_BYTES).toString('base64url'),
    ]);
    const [row] = await db.query<{ value: string }>('SELECT value FROM server_secrets WHERE name = $1', [
      SIGNING_KEY_SECRET,
    ]);
    const key = row ? Buffer.from(row.value, 'base64url') : Buffer.alloc(0);
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

  async function session(user: UserRow): Promise<AuthSession> {
    const { token, expiresAt } = signIdToken(
      await getSigningKey(),
      { sub: user.uid, anon: user.is_anonymous },
      now(),
    );
    return {
      idToken: token,
      expiresAt,
      user: { uid: user.uid, name: user.name, isAnonymous: user.is_anonymous },
    };
  }

  async function verifyIdToken(token: string): Promise<AuthenticatedUser> {
    const claims = verifyIdTokenWithKey(token, await getSigningKey(), { nowMs: now() });
    return { userUid: claims.sub, isAnonymous: claims.anon };
  }

  return {
    /** The HS256 key of id tokens, shared by all servers on the database; loaded once. */
    signingKey: getSigningKey,

    /** Creates a new anonymous user (spec §4: done when no user exists) and its first id token. */
    async signInAnonymously(): Promise<AuthSession> {
      const [user] = await db.query<UserRow>(
        `INSERT INTO users (uid, name, is_anonymous) VALUES ($1, '', true)
         RETURNING uid, name, is_anonymous`,
        [randomBytes(18).toString('base64url')],
      );
      if (!user) throw new Error('inserting an anonymous user returned no row');
      return session(user);
    },

    /**
     * A new id token for the user of `idToken`, which must carry a valid signature and may have
     * expired up to REFRESH_GRACE_MS ago; the user must still exist. `anon` follows the user
     * row, so an upgraded account gets a non-anonymous token on its next refresh.
     */
    async refreshIdToken(idToken: string): Promise<AuthSession> {
      const claims = verifyIdTokenWithKey(idToken, await getSigningKey(), {
        nowMs: now(),
        acceptExpiredForMs: REFRESH_GRACE_MS,
      });
      const [user] = await db.query<UserRow>('SELECT uid, name, is_anonymous FROM users WHERE uid = $1', [
        claims.sub,
      ]);
      if (!user) throw new InvalidTokenError('unknown_user', 'The user of the token does not exist.');
      return session(user);
    },

    /** The user an unexpired, validly signed id token names; throws InvalidTokenError otherwise. */
    verifyIdToken,

    /**
     * The caller of a request from its `Authorization: Bearer <id token>` header: null without
     * the header, a 401 HttpError when the header is there but is not a valid id token.
     */
    async authenticateRequest(request: FastifyRequest): Promise<AuthenticatedUser | null> {
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
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
