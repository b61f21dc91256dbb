import { isIPv6 } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../../http/errors.ts';
import { registerCall } from '../../http/register-call.ts';
import type { AuthService } from '../auth/auth-service.ts';
import type { TrackingService } from './tracking-service.ts';

/** Tracking events one client address may send per minute (batched events count one each). */
export const TRACKING_EVENTS_PER_MINUTE = 120;
/** Most client addresses the rate limiter remembers per window; the oldest is forgotten first. */
export const TRACKING_RATE_LIMIT_MAX_ADDRESSES = 50_000;

export interface TrackingRouteOptions {
  eventsPerMinute?: number;
  maxTrackedAddresses?: number;
  /** The clock of the rate limiter; tests pass a fake one. */
  now?: () => number;
}

/**
 * `POST /shopapiv2/tracking` (spec §7): one TrackingEvent, or `{events: [...]}` (TrackingBatch),
 * answered 204. A valid bearer id token attributes the events to its user; an invalid one is a
 * 401 as everywhere else; none at all is fine (anonymous tracking, and every sendBeacon).
 *
 * Bodies may be `application/json` or `text/plain`: `navigator.sendBeacon(url, string)` sends
 * text/plain (a JSON content type would need a CORS preflight, which beacons cannot make), so in
 * this route's plugin text/plain is parsed as JSON, with the server's body limit and its
 * prototype-poisoning rules. Other routes keep Fastify's plain-text parser.
 *
 * Unauthenticated writes are rate limited per client address (see createRateLimiter); note that
 * `request.ip` is the proxy's address unless the server is configured with `trustProxy`.
 */
export function registerTrackingRoutes(
  app: FastifyInstance,
  tracking: TrackingService,
  auth: AuthService,
  options: TrackingRouteOptions = {},
): void {
  const eventsPerMinute = options.eventsPerMinute ?? TRACKING_EVENTS_PER_MINUTE;
  const limiter = createRateLimiter({
    limit: eventsPerMinute,
    windowMs: 60_000,
    maxKeys: options.maxTrackedAddresses ?? TRACKING_RATE_LIMIT_MAX_ADDRESSES,
    now: options.now ?? Date.now,
  });

  app.register(async (scope) => {
    const parseJson = scope.getDefaultJsonParser(
      app.initialConfig.onProtoPoisoning ?? 'error',
      app.initialConfig.onConstructorPoisoning ?? 'ignore',
    );
    scope.addContentTypeParser('text/plain', { parseAs: 'string' }, (request, body: string, done) => {
      parseJson(request, body, (error, value) => {
        if (!error) return done(null, value);
        // Fastify's own messages would speak of application/json.
        const problem = body.length === 0 ? 'it is empty' : 'it is not valid JSON';
        done(new HttpError(400, 'invalid_request', `A text/plain tracking body must be JSON; ${problem}.`));
      });
    });

    registerCall(
      scope,
      'track',
      async (body, { caller, request }) => {
        const events = 'events' in body ? body.events : [body];
        const verdict = limiter.take(rateLimitKey(request.ip), events.length);
        if (!verdict.allowed) {
          throw new HttpError(
            429,
            'rate_limited',
            `Too many tracking events from this address: at most ${eventsPerMinute} per minute. ` +
              `Try again in ${verdict.retryAfterSeconds} s.`,
            undefined,
            { 'retry-after': String(verdict.retryAfterSeconds) },
          );
        }
        await tracking.record(events, caller);
      },
      { auth },
    );
  });
}

export type RateLimitVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * A fixed-window counter per key, in memory (so per server node). Memory stays bounded: the
 * whole table is dropped when a window ends, and within a window at most `maxKeys` keys are
 * kept, the first-seen one forgotten when a new key would exceed that (under a flood of distinct
 * addresses some may then get more than `limit`, but memory never grows). A request whose cost
 * would pass the limit is refused whole and costs nothing.
 */
export function createRateLimiter(options: {
  limit: number;
  windowMs: number;
  maxKeys: number;
  now: () => number;
}) {
  const { limit, windowMs, maxKeys, now } = options;
  let windowStart = Number.NEGATIVE_INFINITY;
  let counts = new Map<string, number>();

  return {
    take(key: string, cost: number): RateLimitVerdict {
      const time = now();
      if (time >= windowStart + windowMs) {
        windowStart = time;
        counts = new Map();
      }
      const used = counts.get(key) ?? 0;
      if (used + cost > limit) {
        return {
          allowed: false,
          retryAfterSeconds: Math.max(1, Math.ceil((windowStart + windowMs - time) / 1000)),
        };
      }
      if (used === 0 && counts.size >= maxKeys) {
        const oldest = counts.keys().next();
        if (!oldest.done) counts.delete(oldest.value);
      }
      counts.set(key, used + cost);
      return { allowed: true };
    },
    /** How many keys are remembered now. */
    get size() {
      return counts.size;
    },
  };
}

/**
 * The rate-limit key of a client address: IPv4 as is (also when IPv4-mapped), IPv6 by its /64
 * prefix, since one IPv6 client usually holds a whole /64 and could otherwise rotate addresses.
 */
export function rateLimitKey(ip: string): string {
  const address = ip.replace(/%.*$/, '');
  if (!isIPv6(address)) return ip;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  const [head = '', tail] = address.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  // A trailing dotted IPv4 part ("64:ff9b::192.0.2.1") stands for two groups.
  const groupCount = (parts: string[]) => parts.reduce((n, part) => n + (part.includes('.') ? 2 : 1), 0);
  const missing = tail === undefined ? 0 : 8 - groupCount(headGroups) - groupCount(tailGroups);
  const groups = [...headGroups, ...Array<string>(Math.max(0, missing)).fill('0'), ...tailGroups];
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}
