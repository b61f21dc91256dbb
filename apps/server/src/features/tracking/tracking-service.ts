import type { TrackingEvent } from '@vitrine/protocol';
import { WATCH_HEARTBEAT_EVENT } from '@vitrine/protocol/vocabulary';
import type { Queryable } from '../../db/database.ts';
import type { AuthenticatedUser } from '../auth/auth-service.ts';

/** What `tracking_events.payload` holds: the validated event, plus the client's unverified user. */
export type StoredTrackingPayload = TrackingEvent & {
  /** The `userUid` the client sent when the server could not verify it (or it differed). */
  claimedUserUid?: string;
};

const COLUMNS_PER_ROW = 11;

/** One raw event as analytics reads it (see rawSlice). */
export interface RawTrackingEvent {
  id: number;
  campaignUid: string;
  receivedAt: number;
  name: string;
  viewerKey: string | null;
  replay: boolean;
  watchedSeconds: number;
  productUid: string | null;
  productShown: boolean;
}

/** A raw event as the studio's CSV export lists it. */
export interface ExportedTrackingEvent {
  receivedAt: number;
  name: string;
  viewerKey: string | null;
  playback: 'live' | 'replay';
  watchedSeconds: number;
  productUid: string | null;
  videoTime: number | null;
  delayMs: number | null;
}

/** What both readings of raw events (rawSlice, showEvents) read of each row. */
const EVENT_COLUMNS = `(extract(epoch FROM received_at) * 1000)::float8 AS received_at, tracking_event,
  COALESCE(viewer_uid, 'user:' || user_uid) AS viewer_key, replay,
  watched_seconds::float8 AS watched_seconds, product_uid`;

interface EventRow {
  received_at: number;
  tracking_event: string;
  viewer_key: string | null;
  replay: boolean;
  watched_seconds: number;
  product_uid: string | null;
}

/** What both readings answer alike of EVENT_COLUMNS (a viewer: the player's viewer id, else the user). */
function eventFields(row: EventRow) {
  return {
    receivedAt: Math.round(Number(row.received_at)),
    name: row.tracking_event,
    viewerKey: row.viewer_key,
    watchedSeconds: Number(row.watched_seconds),
    productUid: row.product_uid,
  };
}

/** The product an event is about: the player puts the catalogue product's uid in trackingInfo. */
function productOf(event: TrackingEvent): string | null {
  const uid = event.trackingInfo.productUid;
  return typeof uid === 'string' && uid.length > 0 && uid.length <= 128 ? uid : null;
}

/** A recording is watched when the player says replay, or (older players) the show is over. */
function isReplay(event: TrackingEvent): boolean {
  return event.playback === 'replay' || (event.playback === null && event.eventStatus === 'vod');
}

/**
 * Viewer tracking (spec §7 `/shopapiv2/tracking`): validated events are appended to
 * tracking_events and never read back by the product itself.
 *
 * Who did it: `userUid` comes from the request's id token, never from the body. Tracking is
 * open to anonymous callers (and `navigator.sendBeacon` cannot send an Authorization header),
 * so a body's `userUid` is only a claim anyone could forge; storing it as the user would let a
 * caller attribute events (cart adds, checkouts) to somebody else. Without a verified caller
 * the row's user_uid is null and the claim is kept as `payload.claimedUserUid`, for analysis
 * that accepts the risk.
 *
 * No IP address is stored (the rate limit keeps addresses in memory for a minute only), and no
 * cookie is read: a viewer is the anonymous id its player keeps in its own storage.
 *
 * Events for page uids that do not exist (or no longer do) are recorded all the same: there are
 * no foreign keys, a check would cost a read per request, and a viewer's player must not get
 * errors for a store deleted while it was open. Reports join on pages when they need to.
 */
export function createTrackingService(db: Queryable) {
  return {
    /** Stores `events` in one multi-row INSERT (all or none); returns how many were stored. */
    async record(events: readonly TrackingEvent[], caller: AuthenticatedUser | null): Promise<number> {
      if (events.length === 0) return 0;
      const params: unknown[] = [];
      const rows: string[] = [];
      for (const event of events) {
        const payload: StoredTrackingPayload = { ...event, userUid: caller?.userUid ?? null };
        if (event.userUid !== null && event.userUid !== caller?.userUid)
          payload.claimedUserUid = event.userUid;
        const base = params.length;
        rows.push(
          `(${Array.from({ length: COLUMNS_PER_ROW }, (_, i) => `$${base + i + 1}`).join(', ')}::jsonb)`,
        );
        params.push(
          event.viewerUid,
          isReplay(event),
          event.watchedSeconds ?? 0,
          productOf(event),
          event.playingProducts.length > 0,
          event.trackingEvent,
          event.pageUid,
          payload.userUid,
          event.campaignUid,
          event.eventUid,
          JSON.stringify(payload),
        );
      }
      await db.query(
        `INSERT INTO tracking_events (viewer_uid, replay, watched_seconds, product_uid, product_shown,
           tracking_event, page_uid, user_uid, campaign_uid, event_uid, payload)
         VALUES ${rows.join(', ')}`,
        params,
      );
      return events.length;
    },

    /**
     * Up to `limit` events with a show (campaign) after event id `afterId`, oldest first, for the
     * analytics rollup. The viewer is the player's viewer id, else the verified user. Only events
     * received before `settledBefore` are read: ids are taken before COMMIT, so a reader moving a
     * cursor over ids must leave the last moments to inserts still committing.
     */
    async rawSlice(afterId: number, limit: number, settledBefore: number): Promise<RawTrackingEvent[]> {
      const rows = await db.query<EventRow & { id: string; campaign_uid: string; product_shown: boolean }>(
        `SELECT id, campaign_uid, ${EVENT_COLUMNS}, product_shown
         FROM tracking_events
         WHERE id > $1 AND received_at < to_timestamp($3 / 1000.0) AND campaign_uid IS NOT NULL
         ORDER BY id LIMIT $2`,
        [afterId, limit, settledBefore],
      );
      return rows.map((row) => ({
        id: Number(row.id),
        campaignUid: row.campaign_uid,
        ...eventFields(row),
        replay: row.replay,
        productShown: row.product_shown,
      }));
    },

    /** The id of the newest event (0 without any): where a rollup that starts now may begin. */
    async lastEventId(): Promise<number> {
      const [row] = await db.query<{ id: string | null }>('SELECT max(id) AS id FROM tracking_events');
      return Number(row?.id ?? 0);
    },

    /**
     * One show's raw events in its store, oldest first, at most `limit` (the studio's CSV export;
     * tracking_events_page_campaign_received_idx finds them).
     */
    async showEvents(pageUid: string, campaignUid: string, limit: number): Promise<ExportedTrackingEvent[]> {
      const rows = await db.query<EventRow & { video_time: number | null; delay_ms: number | null }>(
        `SELECT ${EVENT_COLUMNS},
           (payload->>'videoAbsoluteTime')::float8 AS video_time, (payload->>'delayMs')::float8 AS delay_ms
         FROM tracking_events WHERE page_uid = $1 AND campaign_uid = $2 ORDER BY received_at, id LIMIT $3`,
        [pageUid, campaignUid, limit],
      );
      return rows.map((row) => ({
        ...eventFields(row),
        playback: row.replay ? 'replay' : 'live',
        videoTime: row.video_time === null ? null : Number(row.video_time),
        delayMs: row.delay_ms === null ? null : Number(row.delay_ms),
      }));
    },

    /**
     * A live show's recent figures as its viewers' players report them, for the control room:
     * comments and reactions received since `recentSince`, and the latest delay each viewer
     * watching live reported since `delaySince` (one per viewer). Both read only the recent part
     * of the (page, campaign, received_at) index.
     */
    async showRecentFigures(
      pageUid: string,
      campaignUid: string,
      window: { recentSince: number; delaySince: number },
    ): Promise<{ comments: number; reactions: number; delays: number[] }> {
      const [counts, delays] = await Promise.all([
        db.query<{ comments: number; reactions: number }>(
          `SELECT count(*) FILTER (WHERE tracking_event = 'user.commented')::int AS comments,
                  count(*) FILTER (WHERE tracking_event = 'user.reacted')::int AS reactions
           FROM tracking_events
           WHERE page_uid = $1 AND campaign_uid = $2 AND received_at >= to_timestamp($3 / 1000.0)`,
          [pageUid, campaignUid, window.recentSince],
        ),
        db.query<{ delay_ms: number }>(
          `SELECT DISTINCT ON (COALESCE(viewer_uid, 'user:' || user_uid, 'event:' || id::text))
             (payload->>'delayMs')::float8 AS delay_ms
           FROM tracking_events
           WHERE page_uid = $1 AND campaign_uid = $2 AND received_at >= to_timestamp($3 / 1000.0)
             AND tracking_event = $4 AND NOT replay AND payload->>'delayMs' IS NOT NULL
           ORDER BY COALESCE(viewer_uid, 'user:' || user_uid, 'event:' || id::text), received_at DESC, id DESC`,
          [pageUid, campaignUid, window.delaySince, WATCH_HEARTBEAT_EVENT],
        ),
      ]);
      return {
        comments: counts[0]?.comments ?? 0,
        reactions: counts[0]?.reactions ?? 0,
        delays: delays.map((row) => Number(row.delay_ms)),
      };
    },

    /**
     * The delay (ms) a signed viewer's player last reported for a live show since `since`, or null:
     * how far behind the flash deals feature lets her stamped position be (issue 30 §3).
     */
    async latestDelayOf(input: {
      pageUid: string;
      campaignUid: string;
      userUid: string;
      since: number;
    }): Promise<number | null> {
      const [row] = await db.query<{ delay_ms: number }>(
        `SELECT (payload->>'delayMs')::float8 AS delay_ms FROM tracking_events
         WHERE page_uid = $1 AND campaign_uid = $2 AND user_uid = $3 AND received_at >= to_timestamp($4 / 1000.0)
           AND tracking_event = $5 AND NOT replay AND payload->>'delayMs' IS NOT NULL
         ORDER BY received_at DESC, id DESC LIMIT 1`,
        [input.pageUid, input.campaignUid, input.userUid, input.since, WATCH_HEARTBEAT_EVENT],
      );
      return row ? Number(row.delay_ms) : null;
    },

    /**
     * A show's adds to cart per catalogue product received in [from, until) (until null: up to
     * now), as viewers' players report them; the key '' counts adds naming no product.
     */
    async showAddsToCart(
      pageUid: string,
      campaignUid: string,
      from: number,
      until: number | null,
    ): Promise<Map<string, number>> {
      const rows = await db.query<{ product_uid: string | null; adds: number }>(
        `SELECT product_uid, count(*)::int AS adds FROM tracking_events
         WHERE page_uid = $1 AND campaign_uid = $2 AND received_at >= to_timestamp($3 / 1000.0)
           AND ($4::float8 IS NULL OR received_at < to_timestamp($4 / 1000.0))
           AND tracking_event = 'cart.added-to-cart'
         GROUP BY product_uid`,
        [pageUid, campaignUid, from, until],
      );
      return new Map(rows.map((row) => [row.product_uid ?? '', row.adds]));
    },

    /** Deletes raw events received before `time` (the retention); returns how many. */
    async purgeBefore(time: number): Promise<number> {
      const rows = await db.query<{ count: number }>(
        `WITH gone AS (DELETE FROM tracking_events WHERE received_at < to_timestamp($1 / 1000.0) RETURNING 1)
         SELECT count(*)::int AS count FROM gone`,
        [time],
      );
      return rows[0]?.count ?? 0;
    },
  };
}

export type TrackingService = ReturnType<typeof createTrackingService>;
