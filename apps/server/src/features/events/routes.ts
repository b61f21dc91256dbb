import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { registerCall } from '../../http/register-call.ts';
import type { EventService } from './event-service.ts';

/** Admin API for campaigns, events, event products and cues (used by the seed, tests and host console). */
export function registerEventRoutes(
  app: FastifyInstance,
  events: EventService,
  requireAdmin: onRequestHookHandler,
): void {
  const admin = { requireAdmin };
  registerCall(
    app,
    'putCampaign',
    async (input, { params: { pageUid, campaignUid } }) => {
      await events.upsertCampaign(pageUid, campaignUid, input);
      return { uid: campaignUid };
    },
    admin,
  );

  registerCall(
    app,
    'putEvent',
    async (input, { params: { eventId } }) => {
      await events.upsertEvent(eventId, input);
      return { id: eventId };
    },
    admin,
  );

  registerCall(
    app,
    'putEventProduct',
    async (input, { params: { eventId, uid } }) => {
      await events.upsertEventProduct(eventId, uid, input);
      return { uid };
    },
    admin,
  );

  registerCall(
    app,
    'appendCue',
    async (input, { params: { eventId, uid } }) => {
      await events.appendCue(eventId, uid, input);
      return { uid };
    },
    admin,
  );
}
