import { UpdateUserRequest } from '@vitrine/protocol';
import type { FastifyInstance } from 'fastify';
import { parseInput } from '../../http/errors.ts';
import type { AuthService } from '../auth/auth-service.ts';
import type { UserService } from './user-service.ts';

export function registerUserRoutes(app: FastifyInstance, users: UserService, auth: AuthService): void {
  app.post('/functions/customerpage/updateUser', async (request) => {
    const caller = await auth.requireUser(request);
    return users.updateUser(caller.userUid, parseInput(UpdateUserRequest, request.body));
  });
}
