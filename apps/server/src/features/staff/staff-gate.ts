import { timingSafeEqual } from 'node:crypto';
import { roleIncludes } from '@vitrine/domain';
import type { StaffRole } from '@vitrine/protocol';
import type { FastifyRequest } from 'fastify';
import type { RequestAuthenticator, StaffCaller, StaffGate } from '../../http/caller.ts';
import { HttpError } from '../../http/errors.ts';
import type { StaffService } from './staff-service.ts';

/**
 * Admits studio calls: the admin key (automation; it acts as an owner of every store) or a
 * signed-in member of the path's store whose role includes the call's. Someone who is not staff
 * of the store gets the same 403 whether the store exists or not, so store ids cannot be probed.
 */
export function createStaffGate(deps: {
  staff: StaffService;
  auth: RequestAuthenticator;
  adminKey: string;
}): StaffGate {
  const adminKey = Buffer.from(deps.adminKey);
  const isAdminKey = (request: FastifyRequest) => {
    const header = request.headers.authorization ?? '';
    const given = Buffer.from(header.startsWith('Bearer ') ? header.slice(7) : '');
    return given.length === adminKey.length && timingSafeEqual(given, adminKey);
  };

  return {
    async admit(request, pageUid, required: StaffRole): Promise<StaffCaller> {
      if (isAdminKey(request)) return { pageUid, userUid: null, role: 'owner' };
      const user = await deps.auth.requireUser(request, 'Sign in to the studio with your staff account.');
      const role = user.isAnonymous ? null : await deps.staff.roleOf(pageUid, user.userUid);
      if (!role) throw new HttpError(403, 'not_staff', 'You are not staff of this store.');
      if (!roleIncludes(role, required))
        throw new HttpError(403, 'role_required', `This needs the ${required} role; yours is ${role}.`);
      return { pageUid, userUid: user.userUid, role };
    },
    recordAction: (record) => deps.staff.recordAction(record),
  };
}
