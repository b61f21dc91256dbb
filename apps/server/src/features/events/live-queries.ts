import { isShownOnShopPage } from '@vitrine/domain';
import {
  type CampaignPresentationDoc,
  type LiveChange,
  LiveQueryParams,
  type ShopEvent,
} from '@vitrine/protocol';
import type { Queryable } from '../../db/database.ts';
import { everyone, type LiveQueryCatalogue } from '../../realtime/live-query.ts';
import { type EventService, eventTopics } from './event-service.ts';

type EventQueries = Pick<
  LiveQueryCatalogue,
  | 'liveEvents.shop'
  | 'liveEvents.byId'
  | 'liveEvents.byCampaign'
  | 'liveEventProducts'
  | 'campaignPresentations'
  | 'onsiteEventUpdates'
>;

/**
 * A change to an event record as a query that only shows events passing `keep` sees it. An event
 * that no longer passes leaves by id alone: its new document (a draft's name, times, products)
 * is exactly what the subscriber may not see.
 */
function selectEvent(change: LiveChange, keep: (doc: ShopEvent) => boolean | 'not mine'): LiveChange | null {
  const verdict = keep(change.doc as ShopEvent);
  if (verdict === 'not mine') return null;
  return verdict ? change : { type: 'removed', docId: change.docId, doc: null };
}

export function eventLiveQueries(db: Queryable, events: EventService, now: () => number): EventQueries {
  return {
    'liveEvents.shop': {
      params: LiveQueryParams['liveEvents.shop'],
      authorize: everyone,
      topic: () => eventTopics.liveEvents,
      snapshot: async ({ pageUid }) =>
        (await events.shopEventList(pageUid, now())).map((doc) => ({ docId: doc.id, doc })),
      // Clients apply the same visibility rule again as time passes (planned shows drop out 15 min after start).
      select: (change, { pageUid }) =>
        selectEvent(change, (doc) =>
          doc.event.storeInfo.id !== pageUid ? 'not mine' : isShownOnShopPage(doc, now()),
        ),
    },
    'liveEvents.byId': {
      params: LiveQueryParams['liveEvents.byId'],
      authorize: everyone,
      topic: () => eventTopics.liveEvents,
      snapshot: async ({ ids }) => (await events.shopEventsByIds(ids)).map((doc) => ({ docId: doc.id, doc })),
      select: (change, { ids }) =>
        selectEvent(change, (doc) => (!ids.includes(doc.id) ? 'not mine' : doc.event.status !== 'draft')),
    },
    'liveEvents.byCampaign': {
      params: LiveQueryParams['liveEvents.byCampaign'],
      authorize: everyone,
      topic: () => eventTopics.liveEvents,
      snapshot: async ({ campaignIds }) =>
        (await events.shopEventsByCampaigns(campaignIds)).map((doc) => ({ docId: doc.id, doc })),
      select: (change, { campaignIds }) =>
        selectEvent(change, (doc) =>
          !campaignIds.includes(doc.event.campaignId) ? 'not mine' : doc.event.status !== 'draft',
        ),
    },
    liveEventProducts: {
      params: LiveQueryParams.liveEventProducts,
      authorize: everyone,
      topic: ({ eventId }) => eventTopics.eventProducts(eventId),
      snapshot: async ({ eventId }) =>
        (await events.publishedEventProducts(eventId)).map((doc) => ({ docId: doc.uid, doc })),
    },
    campaignPresentations: {
      params: LiveQueryParams.campaignPresentations,
      authorize: everyone,
      topic: ({ pageUid, campaignUid }) => eventTopics.campaignPresentation(pageUid, campaignUid),
      snapshot: async ({ pageUid, campaignUid }) => {
        const rows = await db.query<{ data: Record<string, unknown> }>(
          // A campaign whose shows are all drafts presents nothing yet (prepared competitions stay private).
          `SELECT data FROM campaign_presentations p WHERE page_uid = $1 AND campaign_uid = $2
             AND EXISTS (SELECT 1 FROM live_events e WHERE e.campaign_uid = p.campaign_uid AND e.status <> 'draft')`,
          [pageUid, campaignUid],
        );
        return rows.map((row) => {
          const doc: CampaignPresentationDoc = { ...row.data, pageUid, campaignUid };
          return { docId: campaignUid, doc };
        });
      },
    },
    onsiteEventUpdates: {
      params: LiveQueryParams.onsiteEventUpdates,
      authorize: everyone,
      topic: () => eventTopics.onsiteEventUpdates,
      // "time greater than now": a subscriber sees updates from the moment it subscribes.
      snapshot: async ({ storeIds }) =>
        (await events.onsiteEventUpdates(storeIds, now())).map((doc) => ({ docId: doc.uid, doc })),
      select: (change, { storeIds }) => {
        const doc = change.doc as { updatedEvent: ShopEvent };
        return storeIds.includes(doc.updatedEvent.event.storeInfo.id) ? change : null;
      },
    },
  };
}
