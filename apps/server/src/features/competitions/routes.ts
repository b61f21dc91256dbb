import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { registerCall } from '../../http/register-call.ts';
import type { AuthService } from '../auth/auth-service.ts';
import type { ViewerBans } from '../comments/viewer-bans.ts';
import type { CompetitionService } from './competition-service.ts';

export function registerCompetitionRoutes(
  app: FastifyInstance,
  competitions: CompetitionService,
  auth: AuthService,
  requireAdmin: onRequestHookHandler,
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

  // Host console (admin key).
  const admin = { requireAdmin };
  registerCall(
    app,
    'listCompetitions',
    async (_body, { params }) => ({
      competitions: await competitions.list(params.pageUid, params.campaignUid),
    }),
    admin,
  );
  registerCall(
    app,
    'createCompetition',
    (input, { params }) => competitions.create(params.pageUid, params.campaignUid, input),
    admin,
  );
  registerCall(
    app,
    'updateCompetition',
    (input, { params }) => competitions.update(params.competitionUid, input),
    admin,
  );
  registerCall(
    app,
    'drawWinners',
    ({ count }, { params }) => competitions.draw(params.competitionUid, count),
    admin,
  );
  registerCall(
    app,
    'competitionNotice',
    (input, { params }) => competitions.notice(params.competitionUid, input),
    admin,
  );
}
