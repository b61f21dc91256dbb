import { z } from 'zod';
import { COMMENT_MAX_LENGTH } from './comments.ts';
import { Timestamp, Uid } from './common.ts';
import {
  COMMENT_RATE_LIMIT,
  COMMENT_RATE_WINDOW_MS,
  NOTIFICATION_SUB_TYPE,
  NOTIFICATION_TYPE,
} from './interaction-values.ts';
import { CONTACT_PROBLEMS } from './vocabulary.ts';

/**
 * Live interaction (spec §3 comment, bulk comments, reaction, notification, competition
 * presentation; §4 "Comments", "Competitions"; §7). Viewer calls are POSTs with the viewer's
 * bearer id token; host calls are under /admin with the admin key (`Authorization: Bearer <key>`).
 *
 * Viewer comment calls (`/shopapiv2/comment/*`) answer the stored `CommentDoc`. Errors:
 * - 403 `comments_closed` — comments are not allowed for the event's status (vod never;
 *   planned/live per the page's allowCommentsOnPrelive/allowCommentsOnLive, default allowed).
 * - 429 `rate_limited` — `RateLimitedError` (accounts.ts), e.g. "You are commenting too fast.
 *   Please wait 4 seconds before commenting again."
 * - 404 `not_found` — unknown campaign / comment; 403 `forbidden` — editing someone else's.
 *
 * Reading: public comments via the `comments` live query; a user's own comments plus private
 * host replies to them via `userComments` (only that user); replies are comments whose
 * `threadId` is the uid of the comment they answer, and they are also summarised in the
 * parent's `replies` (a `CommentReply`), so the parent arrives `modified`.
 */

export { COMMENT_RATE_LIMIT, COMMENT_RATE_WINDOW_MS, NOTIFICATION_SUB_TYPE, NOTIFICATION_TYPE };

const CommentText = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(COMMENT_MAX_LENGTH, `must be at most ${COMMENT_MAX_LENGTH} characters`);

/** An entry of a comment's `replies` (CommentDoc.replies). */
export const CommentReply = z.object({
  uid: z.string(),
  text: z.string(),
  time: Timestamp,
  user: z.object({ uid: z.string(), name: z.string() }),
  /** False for a private host reply (then only its recipient receives it, see userComments). */
  public: z.boolean(),
  verified: z.boolean(),
});
export type CommentReply = z.infer<typeof CommentReply>;

/** `/shopapiv2/comment/editComment`: the author changes the text of their comment. */
export const EditCommentRequest = z
  .object({ pageUid: Uid, campaignUid: Uid, commentUid: z.string().min(1).max(128), text: CommentText })
  .strict();
export type EditCommentRequest = z.infer<typeof EditCommentRequest>;

/** A show's prepared questions from other channels, replayed on VOD (the studio's putShowBulkComments). */
export const BulkCommentQuestionInput = z
  .object({
    commentUid: z.string().min(1).max(128),
    question: CommentText,
    /** When it was asked (ms since epoch); compare with the event's live start (spec §4). */
    time: Timestamp,
    source: z.string().min(1).max(40).default('external'),
    customerId: z.string().max(128).default(''),
    customerName: z.string().max(60).default(''),
    replies: z.array(z.object({ text: CommentText, time: Timestamp, name: z.string().max(60) })).default([]),
  })
  .strict();
/** The most questions one bulk comments document holds (a show's own chat replayed is cut there too). */
export const BULK_COMMENTS_MAX = 5000;
export const PutBulkCommentsRequest = z
  .object({ questions: z.array(BulkCommentQuestionInput).max(BULK_COMMENTS_MAX) })
  .strict();
export type PutBulkCommentsRequest = z.infer<typeof PutBulkCommentsRequest>;

// ---------------------------------------------------------------------------------------------
// Reactions

export const REACTION_TYPES = ['love', 'like', 'laugh', 'wow', 'clap', 'fire'] as const;
export const ReactionType = z.enum(REACTION_TYPES);
export type ReactionType = z.infer<typeof ReactionType>;

/** The viewer id the player sends in VIEWER_ID_HEADER (interaction-values.ts). */
export const ViewerId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/);

/**
 * `/shopapiv2/reaction/createReaction` (spec §7). One per REACTION_THROTTLE_MS (2 s) per viewer,
 * else 429 `rate_limited` "One reaction every 2 seconds, please." The server's clock decides
 * `time`; a client `time` is accepted and ignored. `uid` lets a client recognise its own.
 * Viewers receive reactions through the `reactions` live query as ReactionDocs; under load one
 * doc per type per tick carries `count` (absent means 1).
 */
export const CreateReactionRequest = z
  .object({
    pageUid: Uid,
    campaignUid: Uid,
    type: ReactionType.default('love'),
    source: z.string().min(1).max(40).default('player'),
    time: Timestamp.optional(),
    uid: Uid.optional(),
  })
  .strict();
export type CreateReactionRequest = z.infer<typeof CreateReactionRequest>;
export const CreateReactionResponse = z.object({ uid: z.string(), type: ReactionType, time: Timestamp });
export type CreateReactionResponse = z.infer<typeof CreateReactionResponse>;

// ---------------------------------------------------------------------------------------------
// Notifications (NotificationDoc in live-documents.ts, `notifications` live query)

// notificationType / notificationSubType values: NOTIFICATION_TYPE, NOTIFICATION_SUB_TYPE (interaction-values.ts).

// ---------------------------------------------------------------------------------------------
// Competitions

export const CompetitionType = z.enum(['raffle', 'quiz', 'poll']);
export type CompetitionType = z.infer<typeof CompetitionType>;

/** When a competition is presented, relative to the video (like product cues). */
export const CompetitionCue = z
  .object({
    /** ms since the epoch the presentation starts (live) — recorded shows map it via the video start. */
    start: Timestamp,
    end: Timestamp.nullable().default(null),
  })
  .strict();
export type CompetitionCue = z.infer<typeof CompetitionCue>;

/** A stamped change of a competition's state (ms since the epoch on the server's clock). */
export const CompetitionStateChange = z.object({
  at: Timestamp,
  openForParticipation: z.boolean(),
  playing: z.boolean(),
});
export type CompetitionStateChange = z.infer<typeof CompetitionStateChange>;

export const CompetitionOption = z.object({
  id: z.string().min(1).max(40),
  text: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
});
export type CompetitionOption = z.infer<typeof CompetitionOption>;

/**
 * A competition presentation as viewers receive it: the `competitions` array of the
 * campaignPresentations live document (pages/{page}/campaignPresentations/{campaign}).
 * The viewer's own `participated` / `dismissed` come from the user document
 * (competitionsParticipated / competitionsDismissed); see packages/domain competitions.ts.
 */
export const CompetitionPresentation = z.object({
  uid: z.string(),
  type: CompetitionType,
  name: z.string(),
  /** May contain simple markup from the host tool; render as text after stripping it. */
  presentationPrimaryText: z.string(),
  showOnsite: z.boolean(),
  cues: z.array(z.object({ start: Timestamp, end: Timestamp.nullable() })),
  openForParticipation: z.boolean(),
  playing: z.boolean(),
  /** Quiz answers / poll choices (empty for a raffle). */
  options: z.array(CompetitionOption),
  /** Poll: votes per option id, live. Empty for raffles and quizzes. */
  tally: z.record(z.string(), z.number().int().nonnegative()),
  participantCount: z.number().int().nonnegative(),
  /**
   * Names of drawn winners (uids are only told to the winners, by notification), with when they
   * were drawn: a viewer learns a name when the video reaches that moment.
   */
  winners: z.array(z.object({ name: z.string(), drawnAt: Timestamp.optional() })),
  createdAt: Timestamp,
  /**
   * Every change of openForParticipation / playing, stamped with the server's clock as it happened
   * (the clock of the stream's program date times): a viewer sees each change when the video
   * reaches it (packages/domain competition-timing.ts). Empty for competitions from before stamps.
   */
  stateChanges: z.array(CompetitionStateChange).max(50).default([]),
});
export type CompetitionPresentation = z.infer<typeof CompetitionPresentation>;

/**
 * `/shopapiv2/competition/participate`: posts `text` as a comment (metaData.competitionUid; for a
 * poll, a private one that only its author and the host see),
 * then records the participation (users.competitionsParticipated). Empty text (after trimming)
 * is ignored: answers `{ status: 'ignored' }` and records nothing (spec §5). A poll or quiz
 * needs `optionId`. 409 `competition_closed` (never opened, or closed more than
 * COMPETITION_LATE_ENTRY_GRACE_MS ago: viewers see the closing only when their video reaches it)
 * / `already_participated` (also when another
 * account of the same person took part, where the store counts persons); 403
 * `contact_required` for a poll that takes one vote per person from an anonymous viewer who left
 * no contact details in the store; 429 as for comments, and past the per-user or
 * per-address limit of entries.
 */
export const ParticipateRequest = z
  .object({
    pageUid: Uid,
    campaignUid: Uid,
    competitionUid: z.string().min(1).max(128),
    text: z.string().max(COMMENT_MAX_LENGTH, `must be at most ${COMMENT_MAX_LENGTH} characters`),
    optionId: z.string().min(1).max(40).optional(),
  })
  .strict();
export type ParticipateRequest = z.infer<typeof ParticipateRequest>;
export const ParticipateResponse = z.discriminatedUnion('status', [
  z.object({ status: z.literal('ignored') }),
  z.object({ status: z.literal('participated'), commentUid: z.string() }),
]);
export type ParticipateResponse = z.infer<typeof ParticipateResponse>;

/** `/shopapiv2/competition/dismiss`: records the dismissal (users.competitionsDismissed); answers `{ ok: true }`. */
export const DismissCompetitionRequest = z
  .object({ pageUid: Uid, campaignUid: Uid, competitionUid: z.string().min(1).max(128) })
  .strict();
export type DismissCompetitionRequest = z.infer<typeof DismissCompetitionRequest>;

/** The studio's createShowCompetition → CompetitionAdminView. */
export const CreateCompetitionRequest = z
  .object({
    type: CompetitionType,
    name: z.string().trim().min(1).max(120),
    presentationPrimaryText: z.string().max(2000).default(''),
    showOnsite: z.boolean().default(true),
    cues: z.array(CompetitionCue).max(50).default([]),
    options: z.array(CompetitionOption).max(20).default([]),
    openForParticipation: z.boolean().default(false),
    playing: z.boolean().default(false),
    /** Quiz: the id of the right option (never sent to viewers). */
    correctOptionId: z.string().min(1).max(40).nullable().default(null),
  })
  .strict()
  .refine((c) => c.type === 'raffle' || c.options.length >= 2, {
    message: 'a poll or quiz needs at least 2 options',
    path: ['options'],
  });
export type CreateCompetitionRequest = z.infer<typeof CreateCompetitionRequest>;

/** The studio's updateShowCompetition → CompetitionAdminView. */
export const UpdateCompetitionRequest = z
  .object({
    name: z.string().trim().min(1).max(120),
    presentationPrimaryText: z.string().max(2000),
    showOnsite: z.boolean(),
    cues: z.array(CompetitionCue).max(50),
    openForParticipation: z.boolean(),
    playing: z.boolean(),
  })
  .partial()
  .strict();
export type UpdateCompetitionRequest = z.infer<typeof UpdateCompetitionRequest>;

/**
 * The control room's drawShowCompetitionWinners draws `count` winners uniformly
 * at random among participants who have not won yet (quiz: among right answers). Each winner
 * gets a notification (metaData.isCompetitionWinner) and a winner comment. 409 `no_participants`.
 */
export const DrawWinnersRequest = z.object({ count: z.number().int().min(1).max(100).default(1) }).strict();
export type DrawWinnersRequest = z.infer<typeof DrawWinnersRequest>;

/** The control room's announceShowCompetition: a notification to every participant. */
export const CompetitionNoticeRequest = z
  .object({ title: z.string().trim().min(1).max(120), body: z.string().trim().max(1000).default('') })
  .strict();
export type CompetitionNoticeRequest = z.infer<typeof CompetitionNoticeRequest>;

export const CompetitionWinner = z.object({ userUid: z.string(), name: z.string(), drawnAt: Timestamp });

/** What the host console sees: the viewer shape plus the secrets and the winners' uids. */
export const CompetitionAdminView = CompetitionPresentation.extend({
  pageUid: Uid,
  campaignUid: Uid,
  correctOptionId: z.string().nullable(),
  winnerDetails: z.array(CompetitionWinner),
});
export type CompetitionAdminView = z.infer<typeof CompetitionAdminView>;

/** `GET /admin/pages/:pageUid/campaigns/:campaignUid/competitions` → { competitions }. */
export const CompetitionListResponse = z.object({ competitions: z.array(CompetitionAdminView) });
export const DrawWinnersResponse = z.object({ winners: z.array(CompetitionWinner) });

// ---------------------------------------------------------------------------------------------
// Contact capture (spec §2 social-live routes, §5 "Contact step")

/**
 * `/shopapiv2/contact/capture`, bearer: a social-live viewer leaves a phone number or e-mail.
 * Fields are shape-checked here; the §5 rules (phone or e-mail, consent, a name when the viewer
 * is anonymous) answer 400 `contact_incomplete` with `problems` (keys of the domain's
 * CONTACT_MESSAGES) and the messages joined in `message`. Answers `{ uid }` of the stored contact.
 */
export const ContactCaptureRequest = z
  .object({
    pageUid: Uid,
    campaignUid: Uid.optional(),
    name: z.string().trim().max(60, 'must be at most 60 characters').optional(),
    phone: z
      .string()
      .trim()
      .max(32, 'must be at most 32 characters')
      .regex(/^(\+?[0-9 ()-]{6,32})?$/, 'must be a phone number')
      .optional(),
    email: z
      .string()
      .trim()
      .toLowerCase()
      .max(254, 'must be at most 254 characters')
      .pipe(z.union([z.literal(''), z.email('must be an e-mail address')]))
      .optional(),
    consent: z.boolean(),
    source: z.string().min(1).max(40).default('tiktok'),
  })
  .strict();
export type ContactCaptureRequest = z.infer<typeof ContactCaptureRequest>;
export const ContactIncompleteError = z.object({
  error: z.literal('contact_incomplete'),
  message: z.string(),
  problems: z.array(z.enum(CONTACT_PROBLEMS)),
});
export type ContactIncompleteError = z.infer<typeof ContactIncompleteError>;
