import type { Queryable } from '../db/database.ts';
import { HttpError } from './errors.ts';

/**
 * Fixed-window counters in the rate_limits table, so every server node enforces the same limit.
 * One statement both checks and counts, so concurrent requests cannot slip past the limit.
 */
export async function takeRateLimit(
  db: Queryable,
  key: string,
  limit: { max: number; windowMs: number },
  now: number,
): Promise<{ allowed: true } | { allowed: false; retryAfterMs: number }> {
  const rows = await db.query<{ window_start: string }>(
    `INSERT INTO rate_limits AS r (key, window_start, count) VALUES ($1, $2, 1)
     ON CONFLICT (key) DO UPDATE SET
       window_start = CASE WHEN $2 - r.window_start >= $3 THEN $2 ELSE r.window_start END,
       count = CASE WHEN $2 - r.window_start >= $3 THEN 1 ELSE r.count + 1 END
     WHERE $2 - r.window_start >= $3 OR r.count < $4
     RETURNING window_start`,
    [key, now, limit.windowMs, limit.max],
  );
  if (rows.length > 0) return { allowed: true };
  const [current] = await db.query<{ window_start: string }>(
    'SELECT window_start FROM rate_limits WHERE key = $1',
    [key],
  );
  const windowStart = current ? Number(current.window_start) : now;
  return { allowed: false, retryAfterMs: Math.max(0, windowStart + limit.windowMs - now) };
}

/**
 * How long a counter row is kept after its window started: longer than any window in use (the
 * longest configurable one, VITRINE_COMMENT_RATE_LIMIT's, is under 28 hours), so deleting older
 * rows never resets a live window.
 */
export const RATE_LIMIT_RETENTION_MS = 2 * 24 * 60 * 60_000;

/**
 * Deletes counters whose window is long over. Every viewer, address and action leaves a row, so
 * without this the table grows with every visitor a shop ever had. Answers how many went.
 */
export async function deleteStaleRateLimits(db: Queryable, now: number): Promise<number> {
  const rows = await db.query('DELETE FROM rate_limits WHERE window_start < $1 RETURNING 1', [
    now - RATE_LIMIT_RETENTION_MS,
  ]);
  return rows.length;
}

/** A 429 `rate_limited` answer (RateLimitedError of the protocol) with a Retry-After. */
export class RateLimitedHttpError extends HttpError {
  constructor(
    message: string,
    readonly retryAfterMs: number,
  ) {
    super(429, 'rate_limited', message, { retryAfterMs });
  }
}

/** Throws a RateLimitedHttpError with `message(seconds)` when the limit is used up. */
export async function enforceRateLimit(
  db: Queryable,
  key: string,
  limit: { max: number; windowMs: number },
  now: number,
  message: (waitSeconds: number) => string,
): Promise<void> {
  const result = await takeRateLimit(db, key, limit, now);
  if (!result.allowed) {
    throw new RateLimitedHttpError(
      message(Math.max(1, Math.ceil(result.retryAfterMs / 1000))),
      result.retryAfterMs,
    );
  }
}
