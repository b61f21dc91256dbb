import { CLIP_MAX_MS } from '@vitrine/domain';
import { z } from 'zod';
import { CurrencyCode, Timestamp, Uid } from './common.ts';
import { EventProduct } from './events.ts';

/** Where a clip stands: waiting for the show's end (or a re-cut), cut, or the cut failed. */
export const ClipState = z.enum(['pending', 'ready', 'failed']);
export type ClipState = z.infer<typeof ClipState>;

/** A presented product's chapter, or a moment the control room marked. */
export const ClipKind = z.enum(['chapter', 'highlight']);
export type ClipKind = z.infer<typeof ClipKind>;

/** A show's clip as the studio lists it. Times are on the stream clock (epoch ms). */
export const StudioClip = z.object({
  uid: Uid,
  eventId: Uid,
  kind: ClipKind,
  /** The show's product it sells (a highlight: the product presented then), or null. */
  eventProductUid: Uid.nullable(),
  productName: z.string().nullable(),
  /** What a trim may choose from: the chapter, or the highlight's window. */
  boundsStart: Timestamp,
  boundsEnd: Timestamp,
  /** The part chosen (the whole window until trimmed). */
  startAt: Timestamp,
  endAt: Timestamp,
  state: ClipState,
  hidden: z.boolean(),
  /** Seconds of the cut file (whole segments), once cut. */
  durationSeconds: z.number().nonnegative().nullable(),
  /** The MP4, once cut. */
  videoUrl: z.string().nullable(),
  /** Its first frame (JPEG), once cut; null for a clip cut before posters. */
  posterUrl: z.string().nullable(),
  /** The clip's public page (its path). */
  pagePath: z.string(),
  error: z.string().nullable(),
});
export type StudioClip = z.infer<typeof StudioClip>;

export const StudioClipList = z.object({ clips: z.array(StudioClip) });
export type StudioClipList = z.infer<typeof StudioClipList>;

/** A trim: the part of the clip's window to keep, in ms from the window's start. */
export const ClipTrimInput = z
  .object({
    startOffsetMs: z.number().int().min(0).max(86_400_000),
    endOffsetMs: z.number().int().min(1).max(86_400_000),
  })
  .strict()
  .refine((trim) => trim.endOffsetMs > trim.startOffsetMs, {
    path: ['endOffsetMs'],
    message: 'must be after startOffsetMs',
  })
  .refine((trim) => trim.endOffsetMs - trim.startOffsetMs <= CLIP_MAX_MS, {
    path: ['endOffsetMs'],
    message: `a clip lasts at most ${CLIP_MAX_MS / 1000} seconds`,
  });
export type ClipTrimInput = z.infer<typeof ClipTrimInput>;

export const ClipVisibilityInput = z.object({ hidden: z.boolean() }).strict();
export type ClipVisibilityInput = z.infer<typeof ClipVisibilityInput>;

/** A highlight marked now in the control room; nothing to send (the moment is the server's clock). */
export const HighlightInput = z.object({}).strict();

/** A clip as its public page and the SDK's "Seen live" player get it. */
export const PublicClip = z.object({
  uid: Uid,
  pageUid: Uid,
  eventId: Uid,
  campaignUid: Uid,
  /** The show's name. */
  showName: z.string(),
  /** The MP4 (absolute path on the server). */
  videoUrl: z.string(),
  /** Its first frame (JPEG, absolute path), null for a clip cut before posters. */
  posterUrl: z.string().nullable(),
  durationSeconds: z.number().nonnegative(),
  /** When the clip's moment was broadcast. */
  recordedAt: Timestamp,
  /** Seconds into the show's replay where the clip begins (its page links there), or null. */
  showOffsetSeconds: z.number().nonnegative().nullable(),
  /** The store's currency: a price in it when the product has none in the shopper's. */
  storeCurrency: CurrencyCode,
  /** The product beside it, as the player shows show products; null for a highlight without one. */
  product: EventProduct.nullable(),
});
export type PublicClip = z.infer<typeof PublicClip>;

export const ClipRequest = z.object({ pageUid: Uid, clipUid: Uid }).strict();
export type ClipRequest = z.infer<typeof ClipRequest>;

/**
 * The newest clip of a retailer's product (the SDK's `seenLive`): named by its SKU or its id in
 * the retailer's catalogue (externalId), as the retailer's product page knows it.
 */
export const ProductClipRequest = z
  .object({ pageUid: Uid, product: z.string().trim().min(1).max(200) })
  .strict();
export type ProductClipRequest = z.infer<typeof ProductClipRequest>;

export const ProductClipAnswer = z.object({ clip: PublicClip.nullable() });
export type ProductClipAnswer = z.infer<typeof ProductClipAnswer>;
