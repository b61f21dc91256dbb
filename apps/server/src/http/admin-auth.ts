import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { HttpError } from './errors.ts';

/** An onRequest hook (so before the body is read) that admits only requests carrying `Authorization: Bearer <admin key>`. */
export function requireAdminKey(adminKey: string) {
  const expected = Buffer.from(adminKey);
  return async (request: FastifyRequest) => {
    const header = request.headers.authorization ?? '';
    const given = Buffer.from(header.startsWith('Bearer ') ? header.slice(7) : '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
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
