import {
  CompetitionNoticeRequest,
  CreateCompetitionRequest,
  DismissCompetitionRequest,
  DrawWinnersRequest,
  ParticipateRequest,
  Uid,
  UpdateCompetitionRequest,
} from '@vitrine/protocol';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import { z } from 'zod';
import { parseInput } from '../../http/errors.ts';
import type { AuthService } from '../auth/auth-service.ts';
import type { CompetitionService } from './competition-service.ts';

const CampaignParams = z.object({ pageUid: Uid, campaignUid: Uid });
const CompetitionParams = z.object({ competitionUid: z.string().min(1).max(128) });

export function registerCompetitionRoutes(
  app: FastifyInstance,
  competitions: CompetitionService,
  auth: AuthService,
  requireAdmin: onRequestHookHandler,
): void {
  const caller = (request: FastifyRequest) =>
    auth.requireUser(request, 'Sign in to take part (Authorization: Bearer <id token>).');

  app.post('/shopapiv2/competition/participate', async (request) => {
    const user = await caller(request);
    return competitions.participate(user.userUid, parseInput(ParticipateRequest, request.body), request.ip);
  });

  app.post('/shopapiv2/competition/dismiss', async (request) => {
    const user = await caller(request);
    return competitions.dismiss(user.userUid, parseInput(DismissCompetitionRequest, request.body));
  });

  // Host console (admin key).
  const campaignPath = '/admin/pages/:pageUid/campaigns/:campaignUid/competitions';
  app.get(campaignPath, { onRequest: requireAdmin }, async (request) => {
    const { pageUid, campaignUid } = parseInput(CampaignParams, request.params);
    return { competitions: await competitions.list(pageUid, campaignUid) };
  });
  app.post(campaignPath, { onRequest: requireAdmin }, async (request, reply) => {
    const { pageUid, campaignUid } = parseInput(CampaignParams, request.params);
    const created = await competitions.create(
      pageUid,
      campaignUid,
      parseInput(CreateCompetitionRequest, request.body),
    );
    return reply.status(201).send(created);
  });
  app.patch('/admin/competitions/:competitionUid', { onRequest: requireAdmin }, async (request) => {
    const { competitionUid } = parseInput(CompetitionParams, request.params);
    return competitions.update(competitionUid, parseInput(UpdateCompetitionRequest, request.body));
  });
  app.post('/admin/competitions/:competitionUid/draw', { onRequest: requireAdmin }, async (request) => {
    const { competitionUid } = parseInput(CompetitionParams, request.params);
    const { count } = parseInput(DrawWinnersRequest, request.body ?? {});
    return competitions.draw(competitionUid, count);
  });
  app.post('/admin/competitions/:competitionUid/notice', { onRequest: requireAdmin }, async (request) => {
    const { competitionUid } = parseInput(CompetitionParams, request.params);
    return competitions.notice(competitionUid, parseInput(CompetitionNoticeRequest, request.body));
  });
}
