import { z } from 'zod';
import { CurrencyCode, Timestamp, Uid } from './common.ts';
import { EventCurrentStatus } from './events.ts';
import { PLAYBACKS, WATCH_HEARTBEAT_EVENT } from './vocabulary.ts';

/** The tracking event names of spec §7, and the only ones `/shopapiv2/tracking` accepts. */
export const TRACKING_EVENT_NAMES = [
  'cart.added-to-cart',
  'cart.added-to-favorite',
  'cart.opened-cart',
  'checkout.began-checkout',
  'catalog.opened-product-url',
  'catalog.returned-to-list',
  'catalog.scrolled-to-playing-product',
  'catalog.switched-product-image',
  'catalog.viewed-product-details',
  'player.comments-hidden',
  'player.comments-shown',
  'player.ended',
  'player.jumped-to-cue',
  'player.closed',
  'player.maximized',
  'player.minimized',
  'player.muted',
  'player.paused',
  'player.play',
  'player.unmuted',
  'user.commented',
  'user.reacted',
] as const;

export const TrackingEventName = z.enum(TRACKING_EVENT_NAMES);
export type TrackingEventName = z.infer<typeof TrackingEventName>;

/** Every name `/shopapiv2/tracking` accepts: the 22 of spec §7 and the watch heartbeat. */
export const TrackedEventName = z.enum([...TRACKING_EVENT_NAMES, WATCH_HEARTBEAT_EVENT]);
export type TrackedEventName = z.infer<typeof TrackedEventName>;

/** Whether a player plays the show live or its recording. */
export const Playback = z.enum(PLAYBACKS);

/**
 * The anonymous viewer id a player keeps in its own storage (no cookie): it counts viewers and
 * ties a viewer's events together, and says nothing about who they are.
 */
export const ViewerUid = z
  .string()
  .min(8, 'must be at least 8 characters')
  .max(64, 'must be at most 64 characters')
  .regex(/^[A-Za-z0-9_-]+$/, 'may contain only letters, digits, "-" and "_"');

/** Most keys one event's `trackingInfo` may carry. */
export const TRACKING_INFO_MAX_KEYS = 50;
/** Most events one `/shopapiv2/tracking` request may carry (see TrackingBatch). */
export const TRACKING_BATCH_MAX_EVENTS = 50;

/** Free-form details of an event: flat, with short keys and scalar values. */
export const TrackingInfo = z
  .record(
    z.string().max(128, 'keys must be at most 128 characters'),
    z.union([z.string().max(2000), z.number(), z.boolean(), z.null()]),
  )
  .refine(
    (info) => Object.keys(info).length <= TRACKING_INFO_MAX_KEYS,
    `must have at most ${TRACKING_INFO_MAX_KEYS} keys`,
  );

/**
 * One tracking event (spec §3 "Tracking event"), the payload of `/shopapiv2/tracking` (spec §7).
 * Only `trackingEvent`, `timestamp` and `pageUid` are required. `userUid` is what the client
 * believes; the server trusts it only when the request carries a valid id token for that user.
 */
export const TrackingEvent = z
  .object({
    trackingEvent: TrackedEventName,
    trackingInfo: TrackingInfo.default({}),
    /** When it happened on the viewer's clock (the server also records when it arrived). */
    timestamp: Timestamp,
    pageUid: Uid,
    userUid: z.string().max(128).nullable().default(null),
    currency: CurrencyCode.nullable().default(null),
    viewerUrl: z.string().max(2048).nullable().default(null),
    checkoutUid: z.string().max(128).nullable().default(null),
    campaignUid: Uid.nullable().default(null),
    eventUid: Uid.nullable().default(null),
    /** Spec §4: live while the live player is used, else the event's current status. */
    eventStatus: EventCurrentStatus.nullable().default(null),
    /** Position in the video, in seconds. */
    videoAbsoluteTime: z.number().nonnegative().nullable().default(null),
    /** Uids of the products playing when the event happened. */
    playingProducts: z.array(z.string().max(128)).max(50).default([]),
    /** Analytics additions (not in spec §3), all optional. */
    viewerUid: ViewerUid.nullable().default(null),
    playback: Playback.nullable().default(null),
    /** Seconds played since the previous heartbeat (heartbeats only); more than a minute is refused. */
    watchedSeconds: z.number().nonnegative().max(60, 'must be at most 60').nullable().default(null),
    /** How far behind the live edge the viewer watches, when the player knows it. */
    delayMs: z
      .number()
      .int()
      .nonnegative()
      .max(3_600_000, 'must be at most 3600000')
      .nullable()
      .default(null),
  })
  .strict();
export type TrackingEvent = z.infer<typeof TrackingEvent>;
/** A TrackingEvent as a client sends it, defaulted fields left out. */
export type TrackingEventInput = z.input<typeof TrackingEvent>;

/**
 * Several events in one request. Meant for `navigator.sendBeacon` on page hide, which cannot
 * retry or set headers (so beacons are always anonymous): a player queues events and flushes
 * them in one beacon instead of losing all but the first while the page unloads.
 */
export const TrackingBatch = z
  .object({
    events: z
      .array(TrackingEvent)
      .min(1, 'must hold at least one event')
      .max(TRACKING_BATCH_MAX_EVENTS, `must hold at most ${TRACKING_BATCH_MAX_EVENTS} events`),
  })
  .strict();
export type TrackingBatch = z.infer<typeof TrackingBatch>;

/** The body of `/shopapiv2/tracking`: one event, or a batch. */
export const TrackingRequest = z.union([TrackingBatch, TrackingEvent]);
export type TrackingRequest = z.input<typeof TrackingRequest>;

/**
 * Whether a tracking request body is meant as a batch (an object with `events`; a single event
 * never has that key). Servers parse with TrackingBatch or TrackingEvent accordingly, so a bad
 * field is named in the error instead of a union's bare "Invalid input".
 */
export function isTrackingBatchBody(body: unknown): boolean {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && Object.hasOwn(body, 'events');
}
