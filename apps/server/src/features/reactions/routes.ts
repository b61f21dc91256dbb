import { CreateReactionRequest } from '@vitrine/protocol';
import type { FastifyInstance } from 'fastify';
import { HttpError, parseInput } from '../../http/errors.ts';
import type { AuthService } from '../auth/auth-service.ts';
import type { ReactionService } from './reaction-service.ts';

export function registerReactionRoutes(
  app: FastifyInstance,
  reactions: ReactionService,
  auth: AuthService,
): void {
  app.post('/shopapiv2/reaction/createReaction', async (request) => {
    const caller = await auth.authenticateRequest(request);
    if (!caller)
      throw new HttpError(401, 'unauthenticated', 'Sign in to react (Authorization: Bearer <id token>).');
    return reactions.createReaction(caller.userUid, parseInput(CreateReactionRequest, request.body));
  });
}
