import type { FastifyInstance } from 'fastify';
import { registerCall } from '../../http/register-call.ts';
import type { AuthService } from '../auth/auth-service.ts';
import type { ReactionService } from './reaction-service.ts';

export function registerReactionRoutes(
  app: FastifyInstance,
  reactions: ReactionService,
  auth: AuthService,
): void {
  registerCall(
    app,
    'createReaction',
    (input, { caller }) => reactions.createReaction(caller.userUid, input),
    {
      auth,
      signInMessage: 'Sign in to react (Authorization: Bearer <id token>).',
    },
  );
}
