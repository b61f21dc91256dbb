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
