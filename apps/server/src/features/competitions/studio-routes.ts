import type { FastifyInstance } from 'fastify';
import type { StaffGate } from '../../http/caller.ts';
import { registerCall } from '../../http/register-call.ts';
import type { CompetitionService } from './competition-service.ts';

/**
 * The studio's calls to prepare a show's raffles, quizzes and polls: moderators run competitions,
 * so they may (hosts and owners too). `campaignOf` finds the show's campaign in the path's
 * store; a show or competition of another store is a 404.
 */
export function registerStudioCompetitionRoutes(
  app: FastifyInstance,
  deps: {
    competitions: CompetitionService;
    campaignOf: (pageUid: string, showUid: string) => Promise<string>;
    staffGate: StaffGate;
  },
): void {
  const { competitions, campaignOf } = deps;
  const staff = { staffGate: deps.staffGate };
  registerCall(
    app,
    'listShowCompetitions',
    async (_body, { params: { pageUid, showUid } }) => ({
      competitions: await competitions.list(pageUid, await campaignOf(pageUid, showUid)),
    }),
    staff,
  );
  registerCall(
    app,
    'createShowCompetition',
    async (input, { params: { pageUid, showUid } }) =>
      competitions.create(pageUid, await campaignOf(pageUid, showUid), input),
    staff,
  );
  registerCall(
    app,
    'updateShowCompetition',
    async (input, { params: { pageUid, showUid, competitionUid } }) => {
      await competitions.requireInCampaign(pageUid, await campaignOf(pageUid, showUid), competitionUid);
      return competitions.update(competitionUid, input);
    },
    staff,
  );
  registerCall(
    app,
    'deleteShowCompetition',
    async (_body, { params: { pageUid, showUid, competitionUid } }) =>
      competitions.deletePrepared(pageUid, await campaignOf(pageUid, showUid), competitionUid),
    staff,
  );
}
