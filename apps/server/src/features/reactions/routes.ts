import { CreateReactionRequest } from '@vitrine/protocol';
import type { FastifyInstance } from 'fastify';
import { parseInput } from '../../http/errors.ts';
import type { AuthService } from '../auth/auth-service.ts';
import type { ReactionService } from './reaction-service.ts';

export function registerReactionRoutes(
  app: FastifyInstance,
  reactions: ReactionService,
  auth: AuthService,
): void {
  app.post('/shopapiv2/reaction/createReaction', async (request) => {
    const caller = await auth.requireUser(request, 'Sign in to react (Authorization: Bearer <id token>).');
    return reactions.createReaction(caller.userUid, parseInput(CreateReactionRequest, request.body));
  });
}
