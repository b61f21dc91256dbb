import type { Queryable } from '../db/database.ts';
import { enforceRateLimit } from './rate-limit.ts';

/** Who is asking: the signed-in user and the client address (`request.ip`, see config.trustProxy). */
export interface Requester {
  userUid: string;
  address: string;
}

export type LimitedAction = 'ping' | 'cartChange' | 'contactCapture' | 'competitionEntry';

interface Limit {
  max: number;
  windowMs: number;
}

const MINUTE = 60_000;

/**
 * Per-user and per-address limits of the actions a cheap anonymous identity could repeat
 * (issue 12 item 5). A user's limit is what one viewer needs with room to spare; an address's
 * limit is a large multiple of it, because thousands of viewers of one show can share one
 * carrier-NAT address. docs/operations.md lists them.
 */
export const ABUSE_LIMITS: Record<LimitedAction, { perUser: Limit; perAddress: Limit }> = {
  // The player pings every 30 s (PING_INTERVAL_MS): 2 a minute per open tab.
  ping: { perUser: { max: 20, windowMs: MINUTE }, perAddress: { max: 3_000, windowMs: MINUTE } },
  // Adds, quantity changes and removals together.
  cartChange: { perUser: { max: 60, windowMs: MINUTE }, perAddress: { max: 3_000, windowMs: MINUTE } },
  // Leaving contact details is a once-per-show step; a few retries for typos.
  contactCapture: {
    perUser: { max: 5, windowMs: 10 * MINUTE },
    perAddress: { max: 500, windowMs: 10 * MINUTE },
  },
  // One entry per competition anyway; a show runs a handful at a time.
  competitionEntry: {
    perUser: { max: 10, windowMs: MINUTE },
    perAddress: { max: 1_000, windowMs: MINUTE },
  },
};

/** Comments per address: this many times the per-user comment limit, in the same window. */
export const COMMENTS_PER_ADDRESS_FACTOR = 100;

export const userLimitMessage = (seconds: number) =>
  `You are doing this too often. Please wait ${seconds} second${seconds === 1 ? '' : 's'} and try again.`;
export const addressLimitMessage = (seconds: number) =>
  `Too many requests from your network. Please wait ${seconds} second${seconds === 1 ? '' : 's'} and try again.`;

/**
 * Counts an action against its user's and its address's limits (429 `rate_limited` when one is
 * used up); does nothing when config.abuseLimits is off.
 */
export function createAbuseLimiter(deps: { db: Queryable; now: () => number; enabled: boolean }) {
  const { db, now, enabled } = deps;
  return {
    enabled,
    async enforce(action: LimitedAction, requester: Requester): Promise<void> {
      if (!enabled) return;
      const limits = ABUSE_LIMITS[action];
      await enforceRateLimit(
        db,
        `${action}:user:${requester.userUid}`,
        limits.perUser,
        now(),
        userLimitMessage,
      );
      await enforceRateLimit(
        db,
        `${action}:address:${requester.address}`,
        limits.perAddress,
        now(),
        addressLimitMessage,
      );
    },
    /** The per-address part of another limit (comments keep their own per-user limit). */
    async enforceAddress(key: string, address: string, limit: Limit): Promise<void> {
      if (!enabled) return;
      await enforceRateLimit(db, `${key}:address:${address}`, limit, now(), addressLimitMessage);
    },
  };
}

export type AbuseLimiter = ReturnType<typeof createAbuseLimiter>;
