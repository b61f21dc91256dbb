import { timingSafeEqual } from 'node:crypto';
import { roleIncludes } from '@vitrine/domain';
import type { StaffRole } from '@vitrine/protocol';
import type { FastifyRequest } from 'fastify';
import type { AuthFailureLimiter } from '../../http/auth-failure-limit.ts';
import type { RequestAuthenticator, StaffCaller, StaffGate } from '../../http/caller.ts';
import { HttpError } from '../../http/errors.ts';
import type { StaffService } from './staff-service.ts';

/** An id token is a JWT (three dot-separated parts); any other bearer is an admin key attempt. */
const looksLikeIdToken = (bearer: string) => bearer.split('.').length === 3;

/**
 * Admits studio calls: the admin key (automation; it acts as an owner of every store) or a
 * signed-in member of the path's store whose role includes the call's. Someone who is not staff
 * of the store gets the same 403 whether the store exists or not, so store ids cannot be probed.
 * A wrong admin key counts as a failed authentication, and a member's writes count against
 * STUDIO_WRITE_LIMIT (`failures`, issue 33 §6).
 */
export function createStaffGate(deps: {
  staff: StaffService;
  auth: RequestAuthenticator;
  adminKey: string;
  failures?: AuthFailureLimiter;
}): StaffGate {
  const adminKey = Buffer.from(deps.adminKey);
  const bearerOf = (request: FastifyRequest) => {
    const header = request.headers.authorization ?? '';
    return header.startsWith('Bearer ') ? header.slice(7) : '';
  };

  return {
    async admit(request, pageUid, required: StaffRole): Promise<StaffCaller> {
      const bearer = bearerOf(request);
      const keyAttempt = bearer !== '' && !looksLikeIdToken(bearer);
      if (keyAttempt) await deps.failures?.admit('adminKey', request);
      const given = Buffer.from(bearer);
      if (given.length === adminKey.length && timingSafeEqual(given, adminKey))
        return { pageUid, userUid: null, role: 'owner' };
      if (keyAttempt) {
        const refusal = await deps.failures?.failed('adminKey', request, bearer);
        if (refusal) throw refusal;
      }
      const user = await deps.auth.requireUser(request, 'Sign in to the studio with your staff account.');
      const role = user.isAnonymous ? null : await deps.staff.roleOf(pageUid, user.userUid);
      if (!role) throw new HttpError(403, 'not_staff', 'You are not staff of this store.');
      if (!roleIncludes(role, required))
        throw new HttpError(403, 'role_required', `This needs the ${required} role; yours is ${role}.`);
      if (request.method !== 'GET') await deps.failures?.studioWrite(user.userUid, request);
      return { pageUid, userUid: user.userUid, role };
    },
    recordAction: (record) => deps.staff.recordAction(record),
  };
}
