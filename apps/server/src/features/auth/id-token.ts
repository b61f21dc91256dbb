import { createHmac, timingSafeEqual } from 'node:crypto';
import { TOKEN_REFRESH_INTERVAL_MS } from '@vitrine/domain';

/** The `iss` of every id token; a token naming another issuer is not ours. */
export const ID_TOKEN_ISSUER = 'vitrine';

/**
 * How long an id token is accepted. Clients refresh every TOKEN_REFRESH_INTERVAL_MS (30 min,
 * spec §7), so a token is replaced halfway through its life and one missed refresh (a throttled
 * background tab, a short offline spell) still leaves a valid token.
 */
export const ID_TOKEN_TTL_MS = 60 * 60_000;

/** Time left on a token when the client's regular refresh is due (see ID_TOKEN_TTL_MS). */
export const ID_TOKEN_REFRESH_MARGIN_MS = ID_TOKEN_TTL_MS - TOKEN_REFRESH_INTERVAL_MS;

/**
 * The `aud` of every id token: the viewer API. A token minted for another audience (should the
 * key ever sign anything else) is refused.
 */
export const ID_TOKEN_AUDIENCE = 'vitrine-viewer';

/** Tolerated difference between the clocks of the server nodes that sign and verify. */
export const MAX_CLOCK_SKEW_MS = 60_000;

/** Longer strings are refused before any decoding (the refresh request allows the same). */
export const MAX_ID_TOKEN_LENGTH = 4096;

/** The claims of a vitrine id token. `iat` and `exp` are JWT NumericDates: whole seconds. */
export interface IdTokenClaims {
  iss: typeof ID_TOKEN_ISSUER;
  aud: typeof ID_TOKEN_AUDIENCE;
  /** The user's uid. */
  sub: string;
  /** Whether the user is anonymous. */
  anon: boolean;
  /**
   * The refresh-token family (the sign-in) the token was issued from: the token stops working
   * when that sign-in ends (logout, reuse). Absent only from tokens issued before families were
   * bound (accepted until they expire, at most ID_TOKEN_TTL_MS).
   */
  fam?: string;
  iat: number;
  exp: number;
}

export type InvalidTokenReason =
  | 'malformed'
  | 'unsupported_algorithm'
  | 'bad_signature'
  | 'wrong_issuer'
  | 'wrong_audience'
  | 'expired'
  | 'issued_in_future'
  | 'unknown_user'
  | 'session_ended';

/** A token that must not be accepted; `reason` says why (for logs and the 401 message). */
export class InvalidTokenError extends Error {
  constructor(
    readonly reason: InvalidTokenReason,
    message: string = reason,
  ) {
    super(message);
    this.name = 'InvalidTokenError';
  }
}

const HEADER = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const MAX_SUBJECT_LENGTH = 128;
const MAX_FAMILY_LENGTH = 64;

/** Signs an HS256 compact JWT for `subject`, issued at `nowMs` and valid for ID_TOKEN_TTL_MS. */
export function signIdToken(
  key: Buffer,
  subject: { sub: string; anon: boolean; fam?: string },
  nowMs: number,
): { token: string; claims: IdTokenClaims; expiresAt: number } {
  const iat = Math.floor(nowMs / 1000);
  const claims: IdTokenClaims = {
    iss: ID_TOKEN_ISSUER,
    aud: ID_TOKEN_AUDIENCE,
    sub: subject.sub,
    anon: subject.anon,
    ...(subject.fam === undefined ? {} : { fam: subject.fam }),
    iat,
    exp: iat + ID_TOKEN_TTL_MS / 1000,
  };
  const signingInput = `${HEADER}.${base64url(JSON.stringify(claims))}`;
  return { token: `${signingInput}.${sign(key, signingInput)}`, claims, expiresAt: claims.exp * 1000 };
}

/**
 * Checks an id token and returns its claims, or throws InvalidTokenError. The header is checked
 * before the signature, and nothing in the payload is trusted before the signature is.
 * `acceptExpiredForMs` accepts a token that expired at most that long ago (token refresh).
 */
export function verifyIdToken(
  token: string,
  key: Buffer,
  options: { nowMs: number; acceptExpiredForMs?: number },
): IdTokenClaims {
  if (token.length > MAX_ID_TOKEN_LENGTH) throw new InvalidTokenError('malformed', 'The token is too long.');
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((part) => BASE64URL.test(part))) {
    throw new InvalidTokenError('malformed', 'The token is not a compact JWT.');
  }
  const [encodedHeader, encodedPayload, encodedSignature] = parts as [string, string, string];

  const header = decodeJsonObject(encodedHeader);
  if (header.alg !== 'HS256') {
    throw new InvalidTokenError('unsupported_algorithm', 'The token is not signed with HS256.');
  }
  if ((header.typ !== undefined && header.typ !== 'JWT') || header.crit !== undefined) {
    throw new InvalidTokenError('malformed', 'The token header is not supported.');
  }

  // Compared as the canonical base64url text, so no second encoding of the same bytes passes.
  const expected = Buffer.from(sign(key, `${encodedHeader}.${encodedPayload}`));
  const given = Buffer.from(encodedSignature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new InvalidTokenError('bad_signature', 'The token signature is not valid.');
  }

  const claims = readClaims(decodeJsonObject(encodedPayload));
  if (claims.iat * 1000 > options.nowMs + MAX_CLOCK_SKEW_MS) {
    throw new InvalidTokenError('issued_in_future', 'The token is issued in the future.');
  }
  if (options.nowMs >= claims.exp * 1000 + (options.acceptExpiredForMs ?? 0)) {
    throw new InvalidTokenError('expired', 'The token has expired.');
  }
  return claims;
}

function readClaims(payload: Record<string, unknown>): IdTokenClaims {
  const { iss, aud, sub, anon, fam, iat, exp } = payload;
  if (iss !== ID_TOKEN_ISSUER)
    throw new InvalidTokenError('wrong_issuer', 'The token is not issued by vitrine.');
  if (aud !== ID_TOKEN_AUDIENCE)
    throw new InvalidTokenError('wrong_audience', 'The token is not meant for the viewer API.');
  if (
    typeof sub !== 'string' ||
    sub.length === 0 ||
    sub.length > MAX_SUBJECT_LENGTH ||
    typeof anon !== 'boolean' ||
    (fam !== undefined && (typeof fam !== 'string' || fam.length === 0 || fam.length > MAX_FAMILY_LENGTH)) ||
    !Number.isSafeInteger(iat) ||
    !Number.isSafeInteger(exp) ||
    (exp as number) <= (iat as number)
  ) {
    throw new InvalidTokenError('malformed', 'The token claims are incomplete.');
  }
  return {
    iss,
    aud,
    sub,
    anon,
    ...(fam === undefined ? {} : { fam: fam as string }),
    iat: iat as number,
    exp: exp as number,
  };
}

function decodeJsonObject(encoded: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidTokenError('malformed', 'The token is not valid JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidTokenError('malformed', 'The token is not a JSON object.');
  }
  return value as Record<string, unknown>;
}

function sign(key: Buffer, signingInput: string): string {
  return createHmac('sha256', key).update(signingInput).digest('base64url');
}

function base64url(text: string): string {
  return Buffer.from(text).toString('base64url');
}
