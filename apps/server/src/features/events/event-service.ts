import {
  type CodedProduct,
  campaignShowStatus,
  EVENT_UPDATES_QUERY_LIMIT,
  groupShopEvents,
} from '@vitrine/domain';
import type {
  CampaignInput,
  CampaignPresentationDoc,
  CompetitionPresentation,
  CueInput,
  EventProduct,
  EventProductInput,
  FlashDealPresentation,
  LiveChange,
  LiveEvent,
  LiveEventInput,
  ShopEvent,
  ShopEvents,
} from '@vitrine/protocol';
import type { EventCurrentStatus } from '@vitrine/protocol/vocabulary';
import type { Queryable } from '../../db/database.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import type { OutboxDatabase, Transaction } from '../../realtime/outbox.ts';
import type { CatalogService } from '../catalog/catalog-service.ts';
import type { PageSummary, StoreService } from '../stores/store-service.ts';

interface LiveEventRow {
  id: string;
  page_uid: string;
  campaign_uid: string;
  status: LiveEvent['event']['status'];
  current_status: LiveEvent['event']['currentStatus'];
  event_name: string;
  event_start_timestamp: number;
  live_start_time: number | null;
  live_end_time: number | null;
  cdn: string | null;
  cdn_live_video_id: string | null;
  cdn_video_id: string | null;
  cdn_video_start_time: number | null;
  cdn_mp4_video_url: string | null;
  live_video_format: LiveEvent['event']['liveVideoFormat'];
  live_video_cover: string | null;
  cover_photo_path: string | null;
  video_has_overlay: boolean;
  onsite_cart_mode: LiveEvent['event']['onsiteCartMode'];
  lead_mode_after_deadline: boolean;
  use_onsite_cart: boolean;
  broadcast_delay_ms: number | null;
  cdn_delay_ms: number | null;
  video_current_status: LiveEvent['event']['currentStatus'] | null;
  // joined from campaigns
  deadline: number | null;
  using_checkout: boolean;
}

interface EventProductRow {
  uid: string;
  event_id: string;
  product_uid: string;
  relative_cues: EventProduct['relativeCues'];
  absolute_cues: EventProduct['absoluteCues'];
  presentation_time: number | null;
  presentation_end_time: number | null;
  sorting: number;
  studio_controlled: boolean;
  show_all_products_when_event_starts: boolean;
}

interface CueRow {
  event_product_uid: string;
  source: string;
  presentation_start_timestamp: number;
  presentation_end_timestamp: number | null;
  deleted: boolean;
}

const SELECT_EVENTS = `
  SELECT e.*, c.deadline, c.using_checkout
  FROM live_events e
  JOIN campaigns c ON c.uid = e.campaign_uid`;

/** How many products a shop card previews. */
const SHOP_CARD_PREVIEW_PRODUCTS = 4;

function toLiveEvent(row: LiveEventRow, store: Pick<PageSummary, 'language' | 'currency'>): LiveEvent {
  return {
    id: row.id,
    event: {
      status: row.status,
      currentStatus: row.current_status,
      eventName: row.event_name,
      eventStartTimestamp: row.event_start_timestamp,
      storeInfo: { id: row.page_uid, language: store.language, currency: store.currency },
      liveStartTime: row.live_start_time,
      liveEndTime: row.live_end_time,
      cdn: row.cdn,
      cdnLiveVideoId: row.cdn_live_video_id,
      cdnVideoId: row.cdn_video_id,
      cdnVideoStartTime: row.cdn_video_start_time,
      cdnMp4VideoUrl: row.cdn_mp4_video_url,
      liveVideoFormat: row.live_video_format,
      liveVideoCover: row.live_video_cover,
      coverPhotoPath: row.cover_photo_path,
      videoHasOverlay: row.video_has_overlay,
      campaignId: row.campaign_uid,
      onsiteCartMode: row.onsite_cart_mode,
      leadModeAfterDeadline: row.lead_mode_after_deadline,
      useOnsiteCart: row.use_onsite_cart,
      broadcastDelayMs: row.broadcast_delay_ms,
      cdnDelayMs: row.cdn_delay_ms,
    },
    campaign: { deadline: row.deadline, usingCheckout: row.using_checkout },
    video: { cdn: row.cdn, currentStatus: row.video_current_status ?? row.current_status },
  };
}

/** What the live feature changes of an event when its stream goes live or ends. */
export interface StreamVideoChange {
  currentStatus: 'live' | 'vod';
  liveStartTime: number;
  liveEndTime: number | null;
  /** The HLS playlist viewers play: the live one while live, the replay afterwards. */
  videoUrl: string;
  /** The program date time of the video's first frame: cues map onto the video from it. */
  videoStartTime: number;
}

/** The fields of an event the live feature reads. */
export interface StreamEventFields {
  pageUid: string;
  currentStatus: EventCurrentStatus;
  liveStartTime: number | null;
  liveEndTime: number | null;
}

/** Campaigns, live events, the products shown in them and their cues. */
/** Topics of the events feature's live queries. */
export const eventTopics = {
  /** Every live event record, whatever the store; events change rarely, so one topic serves all lookups. */
  liveEvents: 'liveEvents',
  onsiteEventUpdates: 'onsiteEventUpdates',
  eventProducts: (eventId: string) => `liveEventProducts:${eventId}`,
  campaignPresentation: (pageUid: string, campaignUid: string) =>
    `campaignPresentations:${pageUid}:${campaignUid}`,
};

/** `now` stamps what the event log and live queries see (first publication, on-site updates). */
export function createEventService(
  db: OutboxDatabase,
  stores: StoreService,
  catalog: CatalogService,
  now: () => number,
) {
  async function requireEventPage(eventId: string, q: Queryable = db): Promise<string> {
    const [row] = await q.query<{ page_uid: string }>('SELECT page_uid FROM live_events WHERE id = $1', [
      eventId,
    ]);
    if (!row) throw notFound(`No event with id "${eventId}".`);
    return row.page_uid;
  }

  /** The event's products; `q` is the caller's transaction when it builds a document to publish. */
  async function eventProducts(eventId: string, q: Queryable = db): Promise<EventProduct[]> {
    await requireEventPage(eventId, q);
    const rows = await q.query<EventProductRow>(
      'SELECT * FROM event_products WHERE event_id = $1 ORDER BY sorting, uid',
      [eventId],
    );
    const cues = await q.query<CueRow>(
      'SELECT * FROM event_product_cues WHERE event_id = $1 ORDER BY presentation_start_timestamp, id',
      [eventId],
    );
    const products = new Map(
      (
        await catalog.productsByUid(
          rows.map((row) => row.product_uid),
          q,
        )
      ).map((product) => [product.uid, product]),
    );
    return rows.flatMap((row) => {
      const product = products.get(row.product_uid);
      if (!product) return [];
      return [
        {
          uid: row.uid,
          eventId: row.event_id,
          productUid: row.product_uid,
          externalId: product.externalId,
          sku: product.sku,
          url: product.url,
          relativeCues: row.relative_cues,
          absoluteCues: row.absolute_cues,
          cues: cues
            .filter((cue) => cue.event_product_uid === row.uid)
            .map((cue) => ({
              source: cue.source,
              presentationStartTimestamp: cue.presentation_start_timestamp,
              presentationEndTimestamp: cue.presentation_end_timestamp,
              deleted: cue.deleted,
            })),
          presentationTime: row.presentation_time,
          presentationEndTime: row.presentation_end_time,
          sorting: row.sorting,
          studioControlled: row.studio_controlled,
          showAllProductsWhenEventStarts: row.show_all_products_when_event_starts,
          product,
        },
      ];
    });
  }

  /** An event record with the product summary its shop card shows. */
  async function toShopEvent(event: LiveEvent, q: Queryable = db): Promise<ShopEvent> {
    const products = await eventProducts(event.id, q);
    return {
      ...event,
      shopSummary: {
        productCount: products.length,
        previewProducts: products.slice(0, SHOP_CARD_PREVIEW_PRODUCTS).map(({ product }) => ({
          uid: product.uid,
          name: product.name,
          image: product.images[0] ?? null,
          prices: product.prices,
        })),
      },
    };
  }

  /**
   * The rows as event records, with their stores' language and currency (read in one batch, on
   * `q`: the caller's transaction when it reads inside one).
   */
  async function toLiveEvents(rows: readonly LiveEventRow[], q: Queryable = db): Promise<LiveEvent[]> {
    const pages = await stores.pageSummaries(
      rows.map((row) => row.page_uid),
      q,
    );
    return rows.flatMap((row) => {
      const page = pages.get(row.page_uid);
      return page ? [toLiveEvent(row, page)] : [];
    });
  }

  async function eventsWhere(condition: string, params: unknown[], q: Queryable = db): Promise<LiveEvent[]> {
    return toLiveEvents(await q.query<LiveEventRow>(`${SELECT_EVENTS} WHERE ${condition}`, params), q);
  }

  async function eventsByIds(ids: readonly string[]): Promise<LiveEvent[]> {
    // Drafts are unpublished; private events are unlisted but open to anyone with the link.
    const rows = await db.query<LiveEventRow>(
      `${SELECT_EVENTS} WHERE e.id = ANY($1) AND e.status <> 'draft' ORDER BY e.id`,
      [ids],
    );
    return toLiveEvents(rows);
  }

  async function eventsByCampaigns(campaignIds: readonly string[]): Promise<LiveEvent[]> {
    const rows = await db.query<LiveEventRow>(
      `${SELECT_EVENTS} WHERE e.campaign_uid = ANY($1) AND e.status <> 'draft' ORDER BY e.event_start_timestamp, e.id`,
      [campaignIds],
    );
    return toLiveEvents(rows);
  }

  /** The shop page's three rows of events (spec §4), each with a product preview for its card. */
  async function shopEvents(pageUid: string, now: number): Promise<ShopEvents> {
    await stores.pageSummary(pageUid);
    const rows = await db.query<LiveEventRow>(
      `${SELECT_EVENTS} WHERE e.page_uid = $1 AND e.status = 'public'`,
      [pageUid],
    );
    const groups = groupShopEvents(await toLiveEvents(rows), now);
    return {
      live: await Promise.all(groups.live.map((event) => toShopEvent(event))),
      planned: await Promise.all(groups.planned.map((event) => toShopEvent(event))),
      vod: await Promise.all(groups.vod.map((event) => toShopEvent(event))),
    };
  }

  /** Tells live queries that these events changed (drafts included: queries drop them). */
  async function publishEvents(tx: Transaction, events: LiveEvent[], now: number): Promise<void> {
    const docs = await Promise.all(events.map((event) => toShopEvent(event, tx)));
    tx.publish(
      eventTopics.liveEvents,
      docs.map((doc) => ({ type: 'modified', docId: doc.id, doc })),
    );
    const updates: LiveChange[] = [];
    // The on-site updates log is public to anyone naming a store: it holds public events only.
    for (const doc of docs.filter((candidate) => candidate.event.status === 'public')) {
      const [row] = await tx.query<{ id: number }>(
        'INSERT INTO onsite_event_updates (store_id, event_id, time, updated_event) VALUES ($1, $2, $3, $4) RETURNING id',
        [doc.event.storeInfo.id, doc.id, now, JSON.stringify(doc)],
      );
      updates.push({
        type: 'added',
        docId: String(row?.id),
        doc: { uid: String(row?.id), time: now, updatedEvent: doc },
      });
    }
    if (updates.length > 0) tx.publish(eventTopics.onsiteEventUpdates, updates);
  }

  async function publishEventProduct(tx: Transaction, eventId: string, uid: string): Promise<void> {
    await announceEvent(tx, eventId, { modified: [uid] });
  }

  /**
   * Sets one part of the campaign's presentation document (the rest kept) and announces the
   * document when `tx` commits; a show still in draft is told nobody (the snapshot hides it too).
   */
  async function presentPart(
    tx: Transaction,
    pageUid: string,
    campaignUid: string,
    key: 'competitions' | 'flashDeals',
    value: readonly unknown[],
  ): Promise<void> {
    const [row] = await tx.query<{ data: Record<string, unknown> }>(
      `INSERT INTO campaign_presentations (page_uid, campaign_uid, data)
       VALUES ($1, $2, jsonb_build_object($4::text, $3::jsonb))
       ON CONFLICT (page_uid, campaign_uid) DO UPDATE
         SET data = campaign_presentations.data || jsonb_build_object($4::text, $3::jsonb), updated_at = now()
       RETURNING data`,
      [pageUid, campaignUid, JSON.stringify(value), key],
    );
    const doc: CampaignPresentationDoc = { ...row?.data, pageUid, campaignUid };
    const [published] = await tx.query(
      `SELECT 1 FROM live_events WHERE campaign_uid = $1 AND status <> 'draft' LIMIT 1`,
      [campaignUid],
    );
    if (!published) return;
    tx.publish(eventTopics.campaignPresentation(pageUid, campaignUid), [
      { type: 'modified', docId: campaignUid, doc },
    ]);
  }

  /**
   * Tells live queries that an event and some of its products changed (or left it). A draft's
   * products are told nobody: the products topic has no rule of its own for drafts.
   */
  async function announceEvent(
    tx: Transaction,
    eventId: string,
    products: { modified?: readonly string[]; removed?: readonly string[] } = {},
  ): Promise<void> {
    const events = await eventsWhere('e.id = $1', [eventId], tx);
    if (events.some((event) => event.event.status !== 'draft')) {
      const modified = new Set(products.modified ?? []);
      const changes: LiveChange[] = (await eventProducts(eventId, tx))
        .filter((product) => modified.has(product.uid))
        .map((product) => ({ type: 'modified', docId: product.uid, doc: product }));
      for (const uid of products.removed ?? []) changes.push({ type: 'removed', docId: uid, doc: null });
      if (changes.length > 0) tx.publish(eventTopics.eventProducts(eventId), changes);
    }
    await publishEvents(tx, events, now());
  }

  return {
    announceEvent,

    /** The products of a published event, for anyone; a draft's are a 404 like an unknown event's. */
    async publishedEventProducts(eventId: string): Promise<EventProduct[]> {
      const [row] = await db.query<{ status: string }>('SELECT status FROM live_events WHERE id = $1', [
        eventId,
      ]);
      if (!row || row.status === 'draft') throw notFound(`No event with id "${eventId}".`);
      return eventProducts(eventId);
    },

    /** An event whatever its status (drafts too), for staff; null when the store has no such event. */
    async anyEvent(pageUid: string, eventId: string, q: Queryable = db): Promise<LiveEvent | null> {
      const [event] = await eventsWhere('e.id = $1 AND e.page_uid = $2', [eventId, pageUid], q);
      return event ?? null;
    },

    /**
     * A campaign's store and order deadline, or null for an unknown campaign. `q`: the caller's
     * transaction, when it reads inside one.
     */
    async campaign(
      campaignUid: string,
      q: Queryable = db,
    ): Promise<{ pageUid: string; deadline: number | null } | null> {
      const [row] = await q.query<{ page_uid: string; deadline: number | null }>(
        'SELECT page_uid, deadline FROM campaigns WHERE uid = $1',
        [campaignUid],
      );
      return row ? { pageUid: row.page_uid, deadline: row.deadline } : null;
    },

    /** Names of the store's campaigns among `campaignUids` (the studio's order filters and lists). */
    async campaignNames(pageUid: string, campaignUids: readonly string[]): Promise<Map<string, string>> {
      if (campaignUids.length === 0) return new Map();
      const rows = await db.query<{ uid: string; name: string }>(
        'SELECT uid, name FROM campaigns WHERE page_uid = $1 AND uid = ANY($2::text[])',
        [pageUid, [...campaignUids]],
      );
      return new Map(rows.map((row) => [row.uid, row.name]));
    },

    /** Whether the store has this campaign. */
    async campaignExists(pageUid: string, campaignUid: string): Promise<boolean> {
      const rows = await db.query('SELECT 1 FROM campaigns WHERE uid = $1 AND page_uid = $2', [
        campaignUid,
        pageUid,
      ]);
      return rows.length > 0;
    },

    /**
     * The status of the campaign's show (see campaignShowStatus of the domain), from its published
     * events; null when the store has no such campaign.
     */
    async campaignShowStatus(pageUid: string, campaignUid: string): Promise<EventCurrentStatus | null> {
      const [campaign] = await db.query<{ statuses: EventCurrentStatus[] | null }>(
        `SELECT (SELECT array_agg(DISTINCT e.current_status) FROM live_events e
                 WHERE e.campaign_uid = c.uid AND e.status <> 'draft') AS statuses
         FROM campaigns c WHERE c.uid = $1 AND c.page_uid = $2`,
        [campaignUid, pageUid],
      );
      return campaign ? campaignShowStatus(campaign.statuses ?? []) : null;
    },

    /**
     * The products the campaign's published shows sell, each with its codes (its SKU and its
     * variants'): a viewer's comment naming one asks for it (spec §4 "Comments").
     */
    async campaignProductCodes(pageUid: string, campaignUid: string): Promise<CodedProduct[]> {
      const rows = await db.query<{ product_uid: string }>(
        `SELECT DISTINCT ep.product_uid FROM event_products ep
         JOIN live_events e ON e.id = ep.event_id
         WHERE e.campaign_uid = $1 AND e.page_uid = $2 AND e.status <> 'draft'`,
        [campaignUid, pageUid],
      );
      if (rows.length === 0) return [];
      const products = await catalog.productsByUid(rows.map((row) => row.product_uid));
      return products.map((product) => ({
        uid: product.uid,
        codes: [product.sku, ...product.variants.map((variant) => variant.sku)],
      }));
    },

    /**
     * Puts the campaign's competitions into its presentation document (the rest of the document
     * kept) and announces it when `tx` commits; the competitions feature calls it in the
     * transaction that changed one.
     */
    async presentCompetitions(
      tx: Transaction,
      pageUid: string,
      campaignUid: string,
      competitions: readonly CompetitionPresentation[],
    ): Promise<void> {
      await presentPart(tx, pageUid, campaignUid, 'competitions', competitions);
    },

    /**
     * Puts the campaign's flash deals into its presentation document, like presentCompetitions
     * (issue 30 §3: the flash deals feature calls it in the transaction that changed one).
     */
    async presentFlashDeals(
      tx: Transaction,
      pageUid: string,
      campaignUid: string,
      deals: readonly FlashDealPresentation[],
    ): Promise<void> {
      await presentPart(tx, pageUid, campaignUid, 'flashDeals', deals);
    },

    /** The store a campaign belongs to, or undefined for an unknown campaign. */
    async pageOfCampaign(campaignUid: string): Promise<string | undefined> {
      const [row] = await db.query<{ page_uid: string }>('SELECT page_uid FROM campaigns WHERE uid = $1', [
        campaignUid,
      ]);
      return row?.page_uid;
    },

    async upsertCampaign(pageUid: string, campaignUid: string, input: CampaignInput): Promise<void> {
      await stores.pageSummary(pageUid);
      const [existing] = await db.query<{ page_uid: string }>(
        'SELECT page_uid FROM campaigns WHERE uid = $1',
        [campaignUid],
      );
      if (existing && existing.page_uid !== pageUid) {
        throw new HttpError(409, 'conflict', `Campaign "${campaignUid}" belongs to another store.`);
      }
      await db.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO campaigns (uid, page_uid, name, deadline, using_checkout) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (uid) DO UPDATE SET name = EXCLUDED.name, deadline = EXCLUDED.deadline,
             using_checkout = EXCLUDED.using_checkout, updated_at = now()`,
          [campaignUid, pageUid, input.name, input.deadline, input.usingCheckout],
        );
        await publishEvents(tx, await eventsWhere('e.campaign_uid = $1', [campaignUid], tx), now());
      });
    },

    async upsertEvent(eventId: string, input: LiveEventInput): Promise<void> {
      const [campaign] = await db.query<{ page_uid: string }>(
        'SELECT page_uid FROM campaigns WHERE uid = $1',
        [input.campaignId],
      );
      if (!campaign) throw notFound(`No campaign with uid "${input.campaignId}".`);
      if (campaign.page_uid !== input.pageUid) {
        throw new HttpError(409, 'conflict', `Campaign "${input.campaignId}" belongs to another store.`);
      }
      const [existing] = await db.query<{ page_uid: string }>(
        'SELECT page_uid FROM live_events WHERE id = $1',
        [eventId],
      );
      if (existing && existing.page_uid !== input.pageUid) {
        throw new HttpError(409, 'conflict', `Event "${eventId}" belongs to another store.`);
      }
      const columns = {
        page_uid: input.pageUid,
        campaign_uid: input.campaignId,
        status: input.status,
        current_status: input.currentStatus,
        event_name: input.eventName,
        event_start_timestamp: input.eventStartTimestamp,
        live_start_time: input.liveStartTime,
        live_end_time: input.liveEndTime,
        cdn: input.cdn,
        cdn_live_video_id: input.cdnLiveVideoId,
        cdn_video_id: input.cdnVideoId,
        cdn_video_start_time: input.cdnVideoStartTime,
        cdn_mp4_video_url: input.cdnMp4VideoUrl,
        live_video_format: input.liveVideoFormat === null ? null : JSON.stringify(input.liveVideoFormat),
        live_video_cover: input.liveVideoCover,
        cover_photo_path: input.coverPhotoPath,
        video_has_overlay: input.videoHasOverlay,
        onsite_cart_mode: input.onsiteCartMode,
        lead_mode_after_deadline: input.leadModeAfterDeadline,
        use_onsite_cart: input.useOnsiteCart,
        broadcast_delay_ms: input.broadcastDelayMs,
        cdn_delay_ms: input.cdnDelayMs,
        video_current_status: input.videoCurrentStatus,
        // Kept once set (see the ON CONFLICT below): when it was first published.
        first_published_at: input.status === 'draft' ? null : now(),
      };
      const names = Object.keys(columns);
      await db.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO live_events (id, ${names.join(', ')})
           VALUES ($1, ${names.map((_, i) => `$${i + 2}`).join(', ')})
           ON CONFLICT (id) DO UPDATE SET ${names
             .map((name) =>
               name === 'first_published_at'
                 ? `${name} = COALESCE(live_events.${name}, EXCLUDED.${name})`
                 : `${name} = EXCLUDED.${name}`,
             )
             .join(', ')},
             updated_at = now()`,
          [eventId, ...Object.values(columns)],
        );
        await publishEvents(tx, await eventsWhere('e.id = $1', [eventId], tx), now());
      });
    },

    /**
     * The live feature's stream moved the event on (Go live, End): its status for viewers, its
     * live times and the video they play (the live playlist, then the replay). The stream's own
     * clock (program date time) places cues, so the delays of an external provider do not apply.
     */
    async setStreamVideo(eventId: string, change: StreamVideoChange): Promise<void> {
      await requireEventPage(eventId);
      await db.transaction(async (tx) => {
        await tx.query(
          `UPDATE live_events SET current_status = $2, video_current_status = $2, live_start_time = $3,
             live_end_time = $4, cdn = 'vitrine', cdn_mp4_video_url = $5, cdn_video_start_time = $6,
             broadcast_delay_ms = 0, cdn_delay_ms = 0, updated_at = now()
           WHERE id = $1`,
          [
            eventId,
            change.currentStatus,
            change.liveStartTime,
            change.liveEndTime,
            change.videoUrl,
            change.videoStartTime,
          ],
        );
        await publishEvents(tx, await eventsWhere('e.id = $1', [eventId], tx), now());
      });
    },

    /** The fields of an event the live feature reads to run its stream. */
    async streamEvent(eventId: string): Promise<StreamEventFields | null> {
      const [row] = await db.query<{
        page_uid: string;
        current_status: EventCurrentStatus;
        live_start_time: number | null;
        live_end_time: number | null;
      }>('SELECT page_uid, current_status, live_start_time, live_end_time FROM live_events WHERE id = $1', [
        eventId,
      ]);
      if (!row) return null;
      return {
        pageUid: row.page_uid,
        currentStatus: row.current_status,
        liveStartTime: row.live_start_time,
        liveEndTime: row.live_end_time,
      };
    },

    async upsertEventProduct(eventId: string, uid: string, input: EventProductInput): Promise<void> {
      const pageUid = await requireEventPage(eventId);
      if ((await catalog.pageOfProduct(input.productUid)) !== pageUid) {
        throw notFound(`No product "${input.productUid}" in this event's store.`);
      }
      await db.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO event_products (uid, event_id, product_uid, relative_cues, absolute_cues, presentation_time,
             presentation_end_time, sorting, studio_controlled, show_all_products_when_event_starts)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
           ON CONFLICT (event_id, uid) DO UPDATE SET product_uid = EXCLUDED.product_uid,
             relative_cues = EXCLUDED.relative_cues, absolute_cues = EXCLUDED.absolute_cues,
             presentation_time = EXCLUDED.presentation_time, presentation_end_time = EXCLUDED.presentation_end_time,
             sorting = EXCLUDED.sorting, studio_controlled = EXCLUDED.studio_controlled,
             show_all_products_when_event_starts = EXCLUDED.show_all_products_when_event_starts, updated_at = now()`,
          [
            uid,
            eventId,
            input.productUid,
            JSON.stringify(input.relativeCues),
            JSON.stringify(input.absoluteCues),
            input.presentationTime,
            input.presentationEndTime,
            input.sorting,
            input.studioControlled,
            input.showAllProductsWhenEventStarts,
          ],
        );
        await tx.query('DELETE FROM event_product_cues WHERE event_id = $1 AND event_product_uid = $2', [
          eventId,
          uid,
        ]);
        for (const cue of input.cues) await insertCue(tx, eventId, uid, cue);
        await publishEventProduct(tx, eventId, uid);
      });
    },

    async appendCue(eventId: string, uid: string, cue: CueInput): Promise<void> {
      const [row] = await db.query('SELECT 1 FROM event_products WHERE event_id = $1 AND uid = $2', [
        eventId,
        uid,
      ]);
      if (!row) throw notFound(`No product "${uid}" in event "${eventId}".`);
      await db.transaction(async (tx) => {
        await insertCue(tx, eventId, uid, cue);
        await publishEventProduct(tx, eventId, uid);
      });
    },

    /**
     * A product's data changed (committed before): the events showing it tell their viewers. The
     * documents are read in this transaction, so they are published after every earlier commit.
     */
    async republishProduct(productUid: string): Promise<void> {
      await db.transaction(async (tx) => {
        const rows = await tx.query<{ event_id: string; uid: string }>(
          'SELECT event_id, uid FROM event_products WHERE product_uid = $1',
          [productUid],
        );
        for (const row of rows) await publishEventProduct(tx, row.event_id, row.uid);
      });
    },

    /** As republishProduct for many products (a CSV import), in one transaction. */
    async republishProducts(productUids: readonly string[]): Promise<void> {
      if (productUids.length === 0) return;
      await db.transaction(async (tx) => {
        const rows = await tx.query<{ event_id: string; uid: string }>(
          'SELECT event_id, uid FROM event_products WHERE product_uid = ANY($1)',
          [productUids],
        );
        for (const row of rows) await publishEventProduct(tx, row.event_id, row.uid);
      });
    },

    eventsByIds,

    eventsByCampaigns,

    eventProducts: (eventId: string) => eventProducts(eventId),

    async shopEventsByIds(ids: readonly string[]): Promise<ShopEvent[]> {
      return Promise.all((await eventsByIds(ids)).map((event) => toShopEvent(event)));
    },

    async shopEventsByCampaigns(campaignIds: readonly string[]): Promise<ShopEvent[]> {
      return Promise.all((await eventsByCampaigns(campaignIds)).map((event) => toShopEvent(event)));
    },

    /** Every event the shop page lists now, as one list (the live query's documents). */
    async shopEventList(pageUid: string, now: number): Promise<ShopEvent[]> {
      const { live, planned, vod } = await shopEvents(pageUid, now);
      return [...live, ...planned, ...vod];
    },

    /** Updates of the stores' events after `since`, newest first, at most 50 (spec §7). */
    async onsiteEventUpdates(storeIds: readonly string[], since: number) {
      const rows = await db.query<{ id: number; time: number; updated_event: ShopEvent }>(
        `SELECT id, time, updated_event FROM onsite_event_updates WHERE store_id = ANY($1) AND time > $2
         ORDER BY time DESC, id DESC LIMIT ${EVENT_UPDATES_QUERY_LIMIT}`,
        [storeIds, since],
      );
      return rows.map((row) => ({ uid: String(row.id), time: row.time, updatedEvent: row.updated_event }));
    },

    shopEvents,

    /**
     * The public events showing any of these catalogue products, newest start first, at most
     * `limit`, each with its event products of them (cues included, for the replay's chapters).
     * Drafts and private shows are never among them: search lists what the shop pages list.
     */
    async publicEventsWithProducts(
      productUids: readonly string[],
      limit: number,
    ): Promise<{ event: LiveEvent; products: EventProduct[] }[]> {
      if (productUids.length === 0) return [];
      const rows = await db.query<LiveEventRow>(
        `${SELECT_EVENTS} WHERE e.status = 'public' AND e.id IN (
           SELECT event_id FROM event_products WHERE product_uid = ANY($1))
         ORDER BY e.event_start_timestamp DESC, e.id LIMIT $2`,
        [productUids, limit],
      );
      const wanted = new Set(productUids);
      return Promise.all(
        (await toLiveEvents(rows)).map(async (event) => ({
          event,
          products: (await eventProducts(event.id)).filter((product) => wanted.has(product.productUid)),
        })),
      );
    },

    /**
     * The public events with when each last changed (its campaign's changes count), newest first,
     * at most `limit`: the sitemap picks the listed ones.
     */
    async publicEventListing(limit: number): Promise<{ event: LiveEvent; updatedAt: number }[]> {
      const rows = await db.query<LiveEventRow & { updated_ms: number }>(
        `SELECT e.*, c.deadline, c.using_checkout,
           (extract(epoch FROM greatest(e.updated_at, c.updated_at)) * 1000)::bigint AS updated_ms
         FROM live_events e JOIN campaigns c ON c.uid = e.campaign_uid
         WHERE e.status = 'public' ORDER BY updated_ms DESC, e.id LIMIT $1`,
        [limit],
      );
      const updated = new Map(rows.map((row) => [row.id, Number(row.updated_ms)]));
      return (await toLiveEvents(rows)).map((event) => ({ event, updatedAt: updated.get(event.id) ?? 0 }));
    },
  };
}

async function insertCue(
  tx: Queryable,
  eventId: string,
  eventProductUid: string,
  cue: CueInput,
): Promise<void> {
  await tx.query(
    `INSERT INTO event_product_cues (event_id, event_product_uid, source, presentation_start_timestamp,
       presentation_end_timestamp, deleted) VALUES ($1, $2, $3, $4, $5, $6)`,
    [
      eventId,
      eventProductUid,
      cue.source,
      cue.presentationStartTimestamp,
      cue.presentationEndTimestamp,
      cue.deleted,
    ],
  );
}

export type EventService = ReturnType<typeof createEventService>;
