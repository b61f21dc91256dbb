import { UpdateUserRequest } from '@vitrine/protocol';
import type { FastifyInstance } from 'fastify';
import { HttpError, parseInput } from '../../http/errors.ts';
import type { AuthService } from '../auth/auth-service.ts';
import type { UserService } from './user-service.ts';

export function registerUserRoutes(app: FastifyInstance, users: UserService, auth: AuthService): void {
  app.post('/functions/customerpage/updateUser', async (request) => {
    const caller = await auth.authenticateRequest(request);
    if (!caller)
      throw new HttpError(401, 'unauthenticated', 'Sign in first (Authorization: Bearer <id token>).');
    return users.updateUser(caller.userUid, parseInput(UpdateUserRequest, request.body));
  });
}
