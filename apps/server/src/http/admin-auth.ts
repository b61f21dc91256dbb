import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { AuthFailureLimiter } from './auth-failure-limit.ts';
import { HttpError } from './errors.ts';

/**
 * An onRequest hook (so before the body is read) that admits only requests carrying
 * `Authorization: Bearer <admin key>`. Wrong keys count against the client's failed
 * authentications (auth-failure-limit.ts): a guesser is refused with 429 after a few.
 */
export function requireAdminKey(adminKey: string, failures?: AuthFailureLimiter) {
  const expected = Buffer.from(adminKey);
  return async (request: FastifyRequest) => {
    await failures?.admit('adminKey', request);
    const header = request.headers.authorization ?? '';
    const presented = header.startsWith('Bearer ') ? header.slice(7) : '';
    const given = Buffer.from(presented);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      const refusal = await failures?.failed('adminKey', request, presented);
      if (refusal) throw refusal;
      throw new HttpError(
        401,
        'unauthorized',
        'A valid admin key is required (Authorization: Bearer <key>).',
      );
    }
  };
}

/**
 * How a start-up tells the operator about an admin key generated for this run. The key is a
 * credential: it goes to a person's terminal once, never into the log (which is shipped, kept
 * and read by others); without a terminal the log only says that one was generated.
 */
export function generatedAdminKeyNotice(
  adminKey: string,
  interactive: boolean,
): { terminal: string } | { log: string } {
  return interactive
    ? { terminal: `  Admin API key:      ${adminKey}  (this run only; set VITRINE_ADMIN_KEY to keep one)\n` }
    : {
        log: 'VITRINE_ADMIN_KEY is not set: the admin API has a random key for this run, not shown because the output is not a terminal; set VITRINE_ADMIN_KEY to use it',
      };
}
