import type { FastifyInstance } from 'fastify';
import { registerCall } from '../../http/register-call.ts';
import type { AuthService } from '../auth/auth-service.ts';
import type { ViewerBans } from '../comments/viewer-bans.ts';
import type { CompetitionService } from './competition-service.ts';

export function registerCompetitionRoutes(
  app: FastifyInstance,
  competitions: CompetitionService,
  auth: AuthService,
  /** Banned viewers (by account, device or address) cannot enter (issue 33 §4). */
  bans?: ViewerBans,
): void {
  const viewer = { auth, signInMessage: 'Sign in to take part (Authorization: Bearer <id token>).' };
  registerCall(
    app,
    'participate',
    async (input, { caller, request }) => {
      await bans?.requireNotBanned(request, input.pageUid, caller.userUid, 'takePart');
      return competitions.participate(caller.userUid, input, request.ip);
    },
    viewer,
  );
  registerCall(
    app,
    'dismissCompetition',
    (input, { caller }) => competitions.dismiss(caller.userUid, input),
    viewer,
  );
}
