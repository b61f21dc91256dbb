import type { FastifyInstance } from 'fastify';
import { registerCall } from '../../http/register-call.ts';
import type { AuthService } from '../auth/auth-service.ts';
import type { ViewerBans } from '../comments/viewer-bans.ts';
import type { ReactionService } from './reaction-service.ts';

export function registerReactionRoutes(
  app: FastifyInstance,
  reactions: ReactionService,
  auth: AuthService,
  /** Banned viewers (by account, device or address) cannot react (issue 33 §4). */
  bans?: ViewerBans,
): void {
  registerCall(
    app,
    'createReaction',
    async (input, { caller, request }) => {
      await bans?.requireNotBanned(request, input.pageUid, caller.userUid, 'takePart');
      return reactions.createReaction(caller.userUid, input);
    },
    {
      auth,
      signInMessage: 'Sign in to react (Authorization: Bearer <id token>).',
    },
  );
}
