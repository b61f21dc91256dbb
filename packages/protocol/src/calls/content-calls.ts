import { z } from 'zod';
import { ProductInput } from '../catalog.ts';
import { Uid } from '../common.ts';
import { CampaignInput, CueInput, EventProductInput, LiveEventInput } from '../events.ts';
import { PageInput, StoreInfo, StoreInfoRequest } from '../store.ts';
import type { CallSchemas } from './define-call.ts';

/** What an admin upsert answers: the uid it stored under. */
export const UpsertedUid = z.object({ uid: Uid });

/** Store info, and the admin upserts of stores, products, campaigns, events and cues (all idempotent but cues). */
export const contentCalls = {
  storeInfo: {
    summary: "A store's info (spec §3); 404 for an unknown store.",
    request: StoreInfoRequest,
    response: StoreInfo,
  },
  putPage: {
    summary:
      'A store: info, language, currency, allowed embed origins, player and integrity settings, freeDeliveryOver.',
    params: z.object({ pageUid: Uid }),
    request: PageInput,
    response: UpsertedUid,
  },
  putProduct: {
    summary: "A product of a store's catalog: name, prices, images, options, variants, stock.",
    params: z.object({ pageUid: Uid, productUid: Uid }),
    request: ProductInput,
    response: UpsertedUid,
  },
  putCampaign: {
    summary: 'A campaign (a show and its checkout): name, deadline, usingCheckout.',
    params: z.object({ pageUid: Uid, campaignUid: Uid }),
    request: CampaignInput,
    response: UpsertedUid,
  },
  putEvent: {
    summary: 'A live event: the event fields of spec §3.',
    params: z.object({ eventId: Uid }),
    request: LiveEventInput,
    response: z.object({ id: Uid }),
  },
  putEventProduct: {
    summary: 'A product presented in an event: product, cues, sorting, flags.',
    params: z.object({ eventId: Uid, uid: Uid }),
    request: EventProductInput,
    response: UpsertedUid,
  },
  appendCue: {
    summary: 'One cue appended to an event product while live.',
    params: z.object({ eventId: Uid, uid: Uid }),
    request: CueInput,
    response: UpsertedUid,
    status: 201,
  },
} satisfies Record<string, CallSchemas>;
