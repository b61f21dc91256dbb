import type { TrackingEvent } from '@vitrine/protocol';
import type { Queryable } from '../../db/database.ts';
import type { AuthenticatedUser } from '../auth/auth-service.ts';

/** What `tracking_events.payload` holds: the validated event, plus the client's unverified user. */
export type StoredTrackingPayload = TrackingEvent & {
  /** The `userUid` the client sent when the server could not verify it (or it differed). */
  claimedUserUid?: string;
};

const COLUMNS_PER_ROW = 6;

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
          event.trackingEvent,
          event.pageUid,
          payload.userUid,
          event.campaignUid,
          event.eventUid,
          JSON.stringify(payload),
        );
      }
      await db.query(
        `INSERT INTO tracking_events (tracking_event, page_uid, user_uid, campaign_uid, event_uid, payload)
         VALUES ${rows.join(', ')}`,
        params,
      );
      return events.length;
    },
  };
}

export type TrackingService = ReturnType<typeof createTrackingService>;
