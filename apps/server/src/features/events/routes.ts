import { CampaignInput, CueInput, EventProductInput, LiveEventInput, Uid } from '@vitrine/protocol';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { z } from 'zod';
import { parseInput } from '../../http/errors.ts';
import type { EventService } from './event-service.ts';

/** Admin API for campaigns, events, event products and cues (used by the seed, tests and host console). */
export function registerEventRoutes(
  app: FastifyInstance,
  events: EventService,
  requireAdmin: onRequestHookHandler,
): void {
  app.put('/admin/pages/:pageUid/campaigns/:campaignUid', { onRequest: requireAdmin }, async (request) => {
    const { pageUid, campaignUid } = parseInput(z.object({ pageUid: Uid, campaignUid: Uid }), request.params);
    await events.upsertCampaign(pageUid, campaignUid, parseInput(CampaignInput, request.body));
    return { uid: campaignUid };
  });

  app.put('/admin/events/:eventId', { onRequest: requireAdmin }, async (request) => {
    const { eventId } = parseInput(z.object({ eventId: Uid }), request.params);
    await events.upsertEvent(eventId, parseInput(LiveEventInput, request.body));
    return { id: eventId };
  });

  app.put('/admin/events/:eventId/products/:uid', { onRequest: requireAdmin }, async (request) => {
    const { eventId, uid } = parseInput(z.object({ eventId: Uid, uid: Uid }), request.params);
    await events.upsertEventProduct(eventId, uid, parseInput(EventProductInput, request.body));
    return { uid };
  });

  app.post(
    '/admin/events/:eventId/products/:uid/cues',
    { onRequest: requireAdmin },
    async (request, reply) => {
      const { eventId, uid } = parseInput(z.object({ eventId: Uid, uid: Uid }), request.params);
      await events.appendCue(eventId, uid, parseInput(CueInput, request.body));
      return reply.status(201).send({ uid });
    },
  );
}
