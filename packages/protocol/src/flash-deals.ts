import { z } from 'zod';
import { CurrencyCode, PriceList, Timestamp, Uid } from './common.ts';

/**
 * Flash deals (issue 30 §3; domain flash-deals.ts): a deal price for one product or variant of a
 * live show, started by the host from the control room, stamped on the stream clock like a cue.
 */

/** What the host prepares (the domain checks the bounds and the prices against the product's). */
export const CreateFlashDealRequest = z
  .object({
    productUid: Uid,
    variantUid: Uid.nullable().default(null),
    /** The deal price per currency (minor units), each below the regular price. */
    prices: PriceList,
    countdownSec: z.number().int(),
    durationSec: z.number().int(),
    totalUnits: z.number().int(),
    perShopperLimit: z.number().int(),
  })
  .strict();
export type CreateFlashDealRequest = z.infer<typeof CreateFlashDealRequest>;
export type CreateFlashDealInput = z.input<typeof CreateFlashDealRequest>;

/** A deal as viewers get it in the campaign presentation document. */
export const FlashDealPresentation = z.object({
  uid: Uid,
  productUid: Uid,
  variantUid: Uid.nullable(),
  prices: PriceList,
  /** The product's (or variant's) regular prices, shown struck through. */
  regularPrices: PriceList,
  countdownSec: z.number().int(),
  durationSec: z.number().int(),
  /** Server stamps (ms): the host's start and early end; null until then. */
  startedAt: Timestamp.nullable(),
  endedAt: Timestamp.nullable(),
  totalUnits: z.number().int(),
  perShopperLimit: z.number().int(),
  unitsLeft: z.number().int().nonnegative(),
  /** No deal unit left: shown at once (not on the stream clock). */
  soldOut: z.boolean(),
});
export type FlashDealPresentation = z.infer<typeof FlashDealPresentation>;

export const FlashDealStatus = z.enum(['prepared', 'started', 'ended']);
export type FlashDealStatus = z.infer<typeof FlashDealStatus>;

/** A deal as the studio sees it: with its state and its figures. */
export const FlashDealAdminView = FlashDealPresentation.extend({
  status: FlashDealStatus,
  productName: z.string(),
  createdAt: Timestamp,
  stats: z.object({
    /** Viewers who saw the deal open. */
    views: z.number().int().nonnegative(),
    /** Adds at the deal price, and their units. */
    adds: z.number().int().nonnegative(),
    units: z.number().int().nonnegative(),
    /** Of those, the ones in orders (checked out), and what they brought per currency. */
    orders: z.number().int().nonnegative(),
    revenue: z.array(z.object({ currency: CurrencyCode, amount: z.number().int() })),
  }),
});
export type FlashDealAdminView = z.infer<typeof FlashDealAdminView>;

export const FlashDealList = z.object({ deals: z.array(FlashDealAdminView) });
export type FlashDealList = z.infer<typeof FlashDealList>;

/**
 * An add at the deal price: the viewer's stamped playback position is the program date time (ms)
 * of the frame on her screen (null without a stream clock); the server keeps it plausible.
 */
export const FlashDealAddRequest = z
  .object({
    pageUid: Uid,
    campaignUid: Uid,
    dealUid: Uid,
    quantity: z.number().int().min(1).max(100).default(1),
    streamPositionMs: Timestamp.nullable(),
    currency: CurrencyCode.optional(),
  })
  .strict();
export type FlashDealAddRequest = z.infer<typeof FlashDealAddRequest>;
export type FlashDealAddInput = z.input<typeof FlashDealAddRequest>;

/** A viewer saw a deal open (counted once per viewer). */
export const FlashDealViewedRequest = z.object({ pageUid: Uid, campaignUid: Uid, dealUid: Uid }).strict();
export type FlashDealViewedRequest = z.infer<typeof FlashDealViewedRequest>;

/** The error codes of a refused deal add (409s). */
export const FLASH_DEAL_ERROR_CODES = {
  ended: 'deal_ended',
  notStarted: 'deal_not_started',
  soldOut: 'deal_sold_out',
  limit: 'deal_limit',
} as const;
