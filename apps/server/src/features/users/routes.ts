import type { FastifyInstance } from 'fastify';
import type { RequestAuthenticator } from '../../http/caller.ts';
import { registerCall } from '../../http/register-call.ts';
import type { UserService } from './user-service.ts';

/**
 * `auth` is the auth feature's service, typed by what the HTTP layer needs of it: users does not
 * import auth, which depends on users for its accounts.
 */
export function registerUserRoutes(
  app: FastifyInstance,
  users: UserService,
  auth: RequestAuthenticator,
): void {
  registerCall(app, 'updateUser', (input, { caller }) => users.updateUser(caller.userUid, input), { auth });
}
