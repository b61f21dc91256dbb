import { UpdateUserRequest } from '@vitrine/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseInput } from '../../http/errors.ts';
import type { UserService } from './user-service.ts';

/**
 * `requireUser` is the auth feature's check of the caller, wired by the composition root: users
 * does not import auth, which depends on users for its accounts.
 */
export function registerUserRoutes(
  app: FastifyInstance,
  users: UserService,
  requireUser: (request: FastifyRequest) => Promise<{ userUid: string }>,
): void {
  app.post('/functions/customerpage/updateUser', async (request) => {
    const caller = await requireUser(request);
    return users.updateUser(caller.userUid, parseInput(UpdateUserRequest, request.body));
  });
}
