import { z } from 'zod';
import { Product } from './catalog.ts';
import { CurrencyCode, Int32, LocaleCode, MediaUrl, Timestamp, Uid } from './common.ts';
import { EVENT_CURRENT_STATUSES, EVENT_STATUSES } from './vocabulary.ts';

export const EventStatus = z.enum(EVENT_STATUSES);
export const EventCurrentStatus = z.enum(EVENT_CURRENT_STATUSES);
export type EventCurrentStatus = z.infer<typeof EventCurrentStatus>;
export const OnsiteCartMode = z.enum(['cart', 'product']);

export const VideoFormat = z.object({
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  picture: MediaUrl.nullable(),
});

/** A campaign groups the events of one show and carries its ordering deadline. */
export const Campaign = z.object({
  uid: Uid,
  pageUid: Uid,
  name: z.string().min(1).max(200),
  deadline: Timestamp.nullable(),
  usingCheckout: z.boolean(),
});
export type Campaign = z.infer<typeof Campaign>;

export const CampaignInput = Campaign.omit({ uid: true, pageUid: true })
  .extend({ deadline: Timestamp.nullable().default(null), usingCheckout: z.boolean().default(false) })
  .strict();
export type CampaignInput = z.infer<typeof CampaignInput>;

/** The `event` part of a live event record (spec §3). */
export const LiveEventDetails = z.object({
  status: EventStatus,
  currentStatus: EventCurrentStatus,
  eventName: z.string().min(1).max(300),
  eventStartTimestamp: Timestamp,
  storeInfo: z.object({ id: Uid, language: LocaleCode, currency: CurrencyCode }),
  liveStartTime: Timestamp.nullable(),
  liveEndTime: Timestamp.nullable(),
  cdn: z.string().max(50).nullable(),
  cdnLiveVideoId: z.string().max(300).nullable(),
  cdnVideoId: z.string().max(300).nullable(),
  cdnVideoStartTime: Timestamp.nullable(),
  cdnMp4VideoUrl: MediaUrl.nullable(),
  liveVideoFormat: VideoFormat.nullable(),
  liveVideoCover: MediaUrl.nullable(),
  coverPhotoPath: MediaUrl.nullable(),
  videoHasOverlay: z.boolean(),
  campaignId: Uid,
  onsiteCartMode: OnsiteCartMode.nullable(),
  leadModeAfterDeadline: z.boolean(),
  useOnsiteCart: z.boolean(),
  /** Host-to-server delay; null means the default of spec §9. */
  broadcastDelayMs: z.number().int().min(0).max(120_000).nullable(),
  /** CDN delay; null means the provider's default of spec §9. */
  cdnDelayMs: z.number().int().min(0).max(120_000).nullable(),
});
export type LiveEventDetails = z.infer<typeof LiveEventDetails>;

/** A live event record of the liveEvents collection (spec §3). */
export const LiveEvent = z.object({
  id: Uid,
  event: LiveEventDetails,
  campaign: z.object({ deadline: Timestamp.nullable(), usingCheckout: z.boolean() }),
  video: z.object({ cdn: z.string().nullable(), currentStatus: EventCurrentStatus }),
});
export type LiveEvent = z.infer<typeof LiveEvent>;

/** Admin upsert of an event; store language/currency and campaign fields are derived. */
export const LiveEventInput = LiveEventDetails.omit({ storeInfo: true })
  .extend({
    pageUid: Uid,
    status: EventStatus.default('public'),
    liveStartTime: Timestamp.nullable().default(null),
    liveEndTime: Timestamp.nullable().default(null),
    cdn: z.string().max(50).nullable().default(null),
    cdnLiveVideoId: z.string().max(300).nullable().default(null),
    cdnVideoId: z.string().max(300).nullable().default(null),
    cdnVideoStartTime: Timestamp.nullable().default(null),
    cdnMp4VideoUrl: MediaUrl.nullable().default(null),
    liveVideoFormat: VideoFormat.nullable().default(null),
    liveVideoCover: MediaUrl.nullable().default(null),
    coverPhotoPath: MediaUrl.nullable().default(null),
    videoHasOverlay: z.boolean().default(false),
    onsiteCartMode: OnsiteCartMode.nullable().default(null),
    leadModeAfterDeadline: z.boolean().default(false),
    useOnsiteCart: z.boolean().default(false),
    broadcastDelayMs: z.number().int().min(0).max(120_000).nullable().default(null),
    cdnDelayMs: z.number().int().min(0).max(120_000).nullable().default(null),
    /** Status of the video itself; defaults to the event's current status. */
    videoCurrentStatus: EventCurrentStatus.nullable().default(null),
  })
  .strict();
export type LiveEventInput = z.infer<typeof LiveEventInput>;

export const PresentationWindow = z.object({
  presentationTime: z.number().int().nonnegative(),
  presentationEndTime: z.number().int().nonnegative().nullable(),
});

/** A moment a product is presented in the show, set by the host console or the studio. */
export const Cue = z.object({
  source: z.string().min(1).max(50),
  presentationStartTimestamp: Timestamp,
  presentationEndTimestamp: Timestamp.nullable(),
  deleted: z.boolean(),
});
export type Cue = z.infer<typeof Cue>;

/** An event product (spec §3 sub-collection liveEventProducts) with the product it shows. */
export const EventProduct = z.object({
  uid: Uid,
  eventId: Uid,
  productUid: Uid,
  externalId: z.string(),
  sku: z.string(),
  url: MediaUrl.nullable(),
  relativeCues: z.array(PresentationWindow),
  absoluteCues: z.array(PresentationWindow),
  cues: z.array(Cue),
  presentationTime: z.number().int().nonnegative().nullable(),
  presentationEndTime: z.number().int().nonnegative().nullable(),
  sorting: Int32,
  studioControlled: z.boolean(),
  showAllProductsWhenEventStarts: z.boolean(),
  product: Product,
});
export type EventProduct = z.infer<typeof EventProduct>;

/** A cue appended live by the host console. */
export const CueInput = Cue.extend({
  presentationEndTimestamp: Timestamp.nullable().default(null),
  deleted: z.boolean().default(false),
})
  .strict()
  .refine(
    (cue) =>
      cue.presentationEndTimestamp === null || cue.presentationEndTimestamp >= cue.presentationStartTimestamp,
    { path: ['presentationEndTimestamp'], message: 'must not be before presentationStartTimestamp' },
  );
export type CueInput = z.infer<typeof CueInput>;

export const EventProductInput = z
  .object({
    productUid: Uid,
    relativeCues: z.array(PresentationWindow).max(200).default([]),
    absoluteCues: z.array(PresentationWindow).max(200).default([]),
    cues: z
      .array(
        Cue.extend({
          presentationEndTimestamp: Timestamp.nullable().default(null),
          deleted: z.boolean().default(false),
        }),
      )
      .max(500)
      .default([]),
    presentationTime: z.number().int().nonnegative().nullable().default(null),
    presentationEndTime: z.number().int().nonnegative().nullable().default(null),
    sorting: Int32.default(0),
    studioControlled: z.boolean().default(false),
    showAllProductsWhenEventStarts: z.boolean().default(false),
  })
  .strict();
export type EventProductInput = z.infer<typeof EventProductInput>;
