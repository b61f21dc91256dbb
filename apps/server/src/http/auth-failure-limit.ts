import { createHash } from 'node:crypto';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Queryable } from '../db/database.ts';
import type { AddressHasher } from './address-hash.ts';
import { RateLimitedHttpError, takeRateLimit } from './rate-limit.ts';

const MINUTE = 60_000;

/** What a failed attempt tried: the admin key, or a one-time link (studio link, invitation). */
export type AuthFailureKind = 'adminKey' | 'oneTimeToken';

/**
 * Failed authentications allowed before a client is refused (issue 33 §6). A person who mistypes
 * the admin key or opens an old link fails a few times; a guesser fails thousands of times. Per
 * address: then every attempt from it, right or wrong, is refused until the window ends, so
 * guessing cannot go on. Per admin-key prefix (the first characters of the key tried): a
 * guesser spread over many addresses who knows how the key starts (a screenshot, a log line)
 * is counted as one; its wrong keys are refused, while the right key still works, so nobody can
 * lock the store's automation out.
 */
export const AUTH_FAILURE_LIMITS = {
  perAddress: { max: 20, windowMs: 10 * MINUTE },
  perKeyPrefix: { max: 100, windowMs: 10 * MINUTE },
} as const;
/** How many characters of a presented key make its prefix. */
const KEY_PREFIX_LENGTH = 6;

/** Studio writes (any call but a read) one staff member may make per minute. */
export const STUDIO_WRITE_LIMIT = { max: 300, windowMs: MINUTE } as const;

const waitText = (seconds: number) => `${seconds} second${seconds === 1 ? '' : 's'}`;
export const authFailureMessage = (seconds: number) =>
  `Too many failed sign-in attempts from your network. Please wait ${waitText(seconds)} and try again.`;
export const studioWriteMessage = (seconds: number) =>
  `You are changing things too quickly. Please wait ${waitText(seconds)} and try again.`;

/**
 * Counts failed authentications per client address (hashed, see address-hash.ts) and per admin
 * key prefix in the rate_limits table, so every node counts the same; refuses with 429 and a
 * Retry-After once a limit is reached, logs each refusal and counts them for /readyz.
 */
export function createAuthFailureLimiter(deps: {
  db: Queryable;
  now: () => number;
  enabled: boolean;
  log: FastifyBaseLogger;
  hashAddress: AddressHasher;
}) {
  const { db, now, enabled, log, hashAddress } = deps;
  const refusals: Record<AuthFailureKind | 'studioWrite', number> = {
    adminKey: 0,
    oneTimeToken: 0,
    studioWrite: 0,
  };
  const addressKey = async (request: FastifyRequest) =>
    `authFailure:address:${await hashAddress(request.ip)}`;
  const prefixKey = (presented: string) =>
    `authFailure:keyPrefix:${createHash('sha256').update(presented.slice(0, KEY_PREFIX_LENGTH)).digest('base64url').slice(0, 16)}`;

  const refuse = (
    kind: AuthFailureKind | 'studioWrite',
    retryAfterMs: number,
    fields: Record<string, string>,
  ) => {
    refusals[kind]++;
    log.warn({ kind, retryAfterMs, ...fields }, 'authentication rate limit: refused');
    const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
    return new RateLimitedHttpError(
      kind === 'studioWrite' ? studioWriteMessage(seconds) : authFailureMessage(seconds),
      retryAfterMs,
    );
  };

  /** How long `key` is still used up (0: it is not). */
  async function blockedFor(key: string, limit: { max: number; windowMs: number }): Promise<number> {
    const [row] = await db.query<{ window_start: string; count: number }>(
      'SELECT window_start, count FROM rate_limits WHERE key = $1',
      [key],
    );
    if (!row) return 0;
    const ends = Number(row.window_start) + limit.windowMs;
    return row.count >= limit.max && ends > now() ? ends - now() : 0;
  }

  return {
    /** Refusals since start, by kind (for /readyz and the operator). */
    refusals: () => ({ ...refusals }),

    /** Before checking a credential: a 429 when this address has failed too often. */
    async admit(kind: AuthFailureKind, request: FastifyRequest): Promise<void> {
      if (!enabled) return;
      const wait = await blockedFor(await addressKey(request), AUTH_FAILURE_LIMITS.perAddress);
      if (wait > 0) throw refuse(kind, wait, { route: request.url });
    },

    /**
     * Counts a failed attempt against the address (and, for an admin key, its prefix). Answers
     * the 429 to throw instead of the 401/404 when a limit is now used up, else null.
     */
    async failed(
      kind: AuthFailureKind,
      request: FastifyRequest,
      presentedKey?: string,
    ): Promise<RateLimitedHttpError | null> {
      if (!enabled) return null;
      const byAddress = await takeRateLimit(
        db,
        await addressKey(request),
        AUTH_FAILURE_LIMITS.perAddress,
        now(),
      );
      if (!byAddress.allowed) return refuse(kind, byAddress.retryAfterMs, { route: request.url });
      if (kind === 'adminKey' && presentedKey) {
        const byPrefix = await takeRateLimit(
          db,
          prefixKey(presentedKey),
          AUTH_FAILURE_LIMITS.perKeyPrefix,
          now(),
        );
        if (!byPrefix.allowed)
          return refuse(kind, byPrefix.retryAfterMs, { route: request.url, scope: 'keyPrefix' });
      }
      return null;
    },

    /** Counts a studio write of a staff member; a 429 past STUDIO_WRITE_LIMIT. */
    async studioWrite(userUid: string, request: FastifyRequest): Promise<void> {
      if (!enabled) return;
      const result = await takeRateLimit(db, `studioWrite:user:${userUid}`, STUDIO_WRITE_LIMIT, now());
      if (!result.allowed) throw refuse('studioWrite', result.retryAfterMs, { route: request.url, userUid });
    },
  };
}

export type AuthFailureLimiter = ReturnType<typeof createAuthFailureLimiter>;
