import { z } from 'zod';
import { CurrencyCode, LocaleCode, Timestamp, Uid } from './common.ts';
import { LiveEvent } from './events.ts';
import { FlashDealPresentation } from './flash-deals.ts';
import { CompetitionPresentation } from './interaction.ts';
import { CHECKOUT_STATUSES, TRANSACTION_STATUSES } from './vocabulary.ts';

/** Documents that live queries deliver for entities of spec §3 whose features come later. */

export const CommentDoc = z.object({
  uid: z.string(),
  text: z.string(),
  time: Timestamp,
  threadId: z.string().nullable(),
  source: z.string(),
  public: z.boolean(),
  private: z.boolean(),
  pageUid: Uid,
  campaignUid: Uid,
  user: z.object({ uid: z.string(), name: z.string() }),
  replies: z.array(z.unknown()),
  verified: z.boolean(),
  metaData: z.object({ competitionUid: z.string().optional(), isCompetitionWinner: z.boolean().optional() }),
  /** When the author last edited the text; absent or null when never edited. */
  editedAt: Timestamp.nullable().optional(),
  /**
   * A viewer's comment was checked against the codes of the products its show sells (spec §4: a
   * product code in a comment adds that product to the cart); false for host replies, competition
   * entries and comments from before the check.
   */
  afterCheckingCheckout: z.boolean().optional(),
  /** The check found a product code of the show in the text: the comment asked for a product. */
  hasCheckoutMatch: z.boolean().optional(),
  /** True while a blocked word holds it for a moderator's review: only its author sees it. */
  held: z.boolean().optional(),
});
export type CommentDoc = z.infer<typeof CommentDoc>;

/** What viewers of a show see of its moderation: slow mode and the pinned announcement (plain text). */
export const ShowChatState = z.object({
  slowModeSeconds: z.number().int().nonnegative(),
  announcement: z.object({ text: z.string(), pinnedAt: Timestamp }).nullable(),
});
export type ShowChatState = z.infer<typeof ShowChatState>;

/** The `showChat` live query's document: one per show. */
export const ShowChatDoc = ShowChatState.extend({ pageUid: Uid, campaignUid: Uid });
export type ShowChatDoc = z.infer<typeof ShowChatDoc>;

/** The `chatStanding` live query's document: whether the viewer is banned from the store's chat. */
export const ChatStandingDoc = z.object({
  pageUid: Uid,
  userUid: z.string(),
  banned: z.boolean(),
  reason: z.string().nullable(),
});
export type ChatStandingDoc = z.infer<typeof ChatStandingDoc>;

export const BulkCommentsDoc = z.object({
  pageUid: Uid,
  campaignUid: Uid,
  questions: z.array(
    z.object({
      commentUid: z.string(),
      question: z.string(),
      time: Timestamp,
      source: z.string(),
      customerId: z.string(),
      customerName: z.string(),
      replies: z.array(z.unknown()),
    }),
  ),
});
export type BulkCommentsDoc = z.infer<typeof BulkCommentsDoc>;

export const ReactionDoc = z.object({
  uid: z.string(),
  source: z.string(),
  time: Timestamp,
  type: z.string(),
  pageUid: Uid,
  campaignUid: Uid,
  /** Reactions of this type folded into one doc during a busy tick; absent means 1. */
  count: z.number().int().positive().optional(),
});
export type ReactionDoc = z.infer<typeof ReactionDoc>;

export const NotificationDoc = z.object({
  uid: z.string(),
  notificationType: z.string(),
  notificationSubType: z.string().nullable(),
  notificationData: z.object({
    body: z.string().optional(),
    title: z.string().optional(),
    uid: z.string().optional(),
  }),
  created: Timestamp,
  pageUid: z.string(),
  campaignUid: z.string(),
  threadId: z.string().nullable(),
  metaData: z.record(z.string(), z.unknown()),
});
export type NotificationDoc = z.infer<typeof NotificationDoc>;

export const UserDoc = z.object({
  uid: z.string(),
  name: z.string(),
  isAnonymous: z.boolean(),
  email: z.string().nullable(),
  avatar: z.string().nullable(),
  localeCode: LocaleCode.nullable(),
  currencyCode: CurrencyCode.nullable(),
  tracking_id: z.string().nullable(),
  competitionsParticipated: z.array(z.string()),
  competitionsDismissed: z.array(z.string()),
});
export type UserDoc = z.infer<typeof UserDoc>;

export const ReservationLine = z.object({
  mainProduct: z.string(),
  qty: z.number().int().positive(),
  totalPrice: z.number().int().nonnegative(),
  unitPrice: z.number().int().nonnegative(),
  variantName: z.string().nullable(),
  variantUid: z.string().nullable(),
  /** Display data copied from the catalogue when the line was priced (cart feature). */
  productName: z.string().optional(),
  image: z.string().nullable().optional(),
  sku: z.string().optional(),
  /** When the stock held for this line is released unless the order is placed first. */
  reservedUntil: Timestamp.nullable().optional(),
});

/** A shopper's checkout reservation document (spec §3 "Cart reservation"). */
export const CheckoutReservationDoc = z.object({
  pageUid: Uid,
  campaignUid: Uid,
  userUid: z.string(),
  reservations: z.array(ReservationLine),
  totalPrice: z.number().int().nonnegative(),
  currency: CurrencyCode.optional(),
  language: LocaleCode.optional(),
  /** The checkout (cart) uid of the route /{campaignUid}/{checkoutUid}; null once cancelled. */
  checkoutUid: z.string().nullable().optional(),
  /** open: a cart; ordered: an order awaiting payment or packing; locked: sent to packing. */
  status: z.enum(CHECKOUT_STATUSES).optional(),
  orderNumber: z.number().int().nullable().optional(),
  /** Counted payments cover the order (spec §5 counting rules). */
  payed: z.boolean().optional(),
  /** Freight of the chosen delivery, so the player's cart shows what the order costs in all. */
  freight: z.number().int().nonnegative().optional(),
  /** What counted payments cover, and what is left to pay of lines plus freight (spec §3 Order). */
  paidAmount: z.number().int().nonnegative().optional(),
  remainingAmount: z.number().int().nonnegative().optional(),
  /** The latest payment attempt's state, so the payment-received page follows it live. */
  lastPaymentStatus: z.enum(TRANSACTION_STATUSES).nullable().optional(),
});
export type CheckoutReservationDoc = z.infer<typeof CheckoutReservationDoc>;

export const PurchaseDoc = z.object({
  uid: z.string(),
  pageUid: Uid,
  campaignUid: Uid,
  productUid: z.string(),
  buyerName: z.string(),
  time: Timestamp,
});
export type PurchaseDoc = z.infer<typeof PurchaseDoc>;

/** The presentation record of a page and campaign: its playlist and whatever the show presents. */
export const CampaignPresentationDoc = z
  .object({
    pageUid: Uid,
    campaignUid: Uid,
    playlist: z
      .object({
        items: z.array(z.object({ eventId: Uid })),
        activeItemId: z.string().nullable(),
        size: z.number().int(),
      })
      .optional(),
    /** The campaign's competitions (raffle, quiz, poll) as viewers see them; see interaction.ts. */
    competitions: z.array(CompetitionPresentation).optional(),
    /** The campaign's flash deals as viewers see them (protocol flash-deals.ts). */
    flashDeals: z.array(FlashDealPresentation).optional(),
  })
  .catchall(z.unknown());
export type CampaignPresentationDoc = z.infer<typeof CampaignPresentationDoc>;

export const OnsiteEventUpdateDoc = z.object({
  uid: z.string(),
  time: Timestamp,
  updatedEvent: LiveEvent,
});
export type OnsiteEventUpdateDoc = z.infer<typeof OnsiteEventUpdateDoc>;
