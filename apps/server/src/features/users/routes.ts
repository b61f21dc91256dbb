import type { FastifyInstance } from 'fastify';
import { registerCall } from '../../http/register-call.ts';
import type { AuthService } from '../auth/auth-service.ts';
import type { UserService } from './user-service.ts';

export function registerUserRoutes(app: FastifyInstance, users: UserService, auth: AuthService): void {
  registerCall(app, 'updateUser', (input, { caller }) => users.updateUser(caller.userUid, input), { auth });
}
