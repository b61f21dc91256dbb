import { z } from 'zod';
import { Uid } from '../common.ts';
import { CampaignInput, CueInput, EventProductInput, LiveEventInput } from '../events.ts';
import { PageInput } from '../store.ts';
import { call } from './define-call.ts';

/** What an admin upsert answers: the uid it stored under. */
export const UpsertedUid = z.object({ uid: Uid });

/**
 * The calls made with the admin key (auth 'admin', paths under /admin/): the upserts an operator's
 * automation (and the demo seed) writes stores, campaigns, shows with their state, event products
 * and cues with, under ids it chooses. Every other store write is a staff call, which takes the
 * admin key as the store's owner; these stay because no staff call makes them: a store is created
 * here before it has an owner, and a show's live/replay state, its times and its replay video are
 * otherwise the live pipeline's to set.
 */
export const adminCalls = {
  // By path, then method in the order of CALL_METHODS (call-types.ts); api-docs.test.ts checks it.
  putEvent: call({
    method: 'PUT',
    path: '/admin/events/:eventId',
    auth: 'admin',
    summary: 'A live event: the event fields of spec §3.',
    params: z.object({ eventId: Uid }),
    request: LiveEventInput,
    response: z.object({ id: Uid }),
  }),
  putEventProduct: call({
    method: 'PUT',
    path: '/admin/events/:eventId/products/:uid',
    auth: 'admin',
    summary: 'A product presented in an event: product, cues, sorting, flags.',
    params: z.object({ eventId: Uid, uid: Uid }),
    request: EventProductInput,
    response: UpsertedUid,
  }),
  appendCue: call({
    method: 'POST',
    path: '/admin/events/:eventId/products/:uid/cues',
    auth: 'admin',
    summary: 'One cue appended to an event product while live.',
    params: z.object({ eventId: Uid, uid: Uid }),
    request: CueInput,
    response: UpsertedUid,
    status: 201,
  }),
  putPage: call({
    method: 'PUT',
    path: '/admin/pages/:pageUid',
    auth: 'admin',
    summary:
      'A store: info, language, currency, allowed embed origins, player and integrity settings, freeDeliveryOver.',
    params: z.object({ pageUid: Uid }),
    request: PageInput,
    response: UpsertedUid,
  }),
  putCampaign: call({
    method: 'PUT',
    path: '/admin/pages/:pageUid/campaigns/:campaignUid',
    auth: 'admin',
    summary: 'A campaign (a show and its checkout): name, deadline, usingCheckout.',
    params: z.object({ pageUid: Uid, campaignUid: Uid }),
    request: CampaignInput,
    response: UpsertedUid,
  }),
};
