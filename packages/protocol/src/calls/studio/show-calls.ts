import {
  IMAGE_UPLOAD_MEDIA_TYPES,
  LOCAL_DATE_TIME_PATTERN,
  MAX_IMAGE_UPLOAD_BYTES,
  SHOW_GROUPS,
} from '@vitrine/domain';
import { z } from 'zod';
import { PriceList, Timestamp, Uid } from '../../common.ts';
import { EventCurrentStatus, EventProduct, EventStatus, LiveEvent } from '../../events.ts';
import {
  CompetitionAdminView,
  CompetitionListResponse,
  CreateCompetitionRequest,
  UpdateCompetitionRequest,
} from '../../interaction.ts';
import { TimeZone } from '../../store-settings.ts';
import { call } from '../define-call.ts';

/** A wall-clock date and time to the minute, as `<input type="datetime-local">` gives it. */
export const LocalDateTime = z
  .string()
  .regex(LOCAL_DATE_TIME_PATTERN, 'must be a date and time like 2026-05-01T19:00');

/** Who sees a show: a draft only the studio; a public one everyone; a private one whoever has its link. */
export const ShowVisibility = EventStatus;
export type ShowVisibility = z.infer<typeof ShowVisibility>;

export const ShowGroup = z.enum(SHOW_GROUPS);
export type ShowGroup = z.infer<typeof ShowGroup>;

/**
 * What the studio's show form edits. Times are wall-clock times in `timeZone` (the store's), so a
 * show set for 19:00 in Copenhagen starts at 19:00 there whatever the editor's browser thinks.
 */
export const ShowFields = z.object({
  name: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  startsAt: LocalDateTime,
  timeZone: TimeZone,
  visibility: ShowVisibility,
  /** The last moment to order from the show; null for no deadline. */
  deadline: LocalDateTime.nullable(),
});

const deadlineNotBeforeStart = (show: { startsAt?: string; deadline?: string | null }) =>
  // Same format and zone, so the strings compare as the times do.
  !show.startsAt || !show.deadline || show.deadline >= show.startsAt;
const DEADLINE_BEFORE_START = { message: 'must not be before the start', path: ['deadline'] };

/** A new show: the form's fields; a show starts as a draft unless told otherwise. */
export const ShowInput = ShowFields.extend({
  visibility: ShowVisibility.default('draft'),
  deadline: LocalDateTime.nullable().default(null),
})
  .strict()
  .refine(deadlineNotBeforeStart, DEADLINE_BEFORE_START);
export type ShowInput = z.infer<typeof ShowInput>;

/**
 * A change of a show: any of the fields. `timeZone` is required with `startsAt` or `deadline`,
 * since a wall-clock time means nothing without its zone.
 */
export const ShowUpdate = ShowFields.partial()
  .strict()
  .refine(deadlineNotBeforeStart, DEADLINE_BEFORE_START)
  .refine((show) => (show.startsAt === undefined && show.deadline === undefined) || show.timeZone, {
    message: 'is required with startsAt or deadline',
    path: ['timeZone'],
  });
export type ShowUpdate = z.infer<typeof ShowUpdate>;

/** A product of the show's line-up, in the order the host presents them. */
export const ShowLineupItem = z.object({
  /** The event product's uid (cues and presentation times hang on it). */
  uid: Uid,
  productUid: Uid,
  name: z.string(),
  sku: z.string(),
  image: z.string().nullable(),
  prices: PriceList,
});
export type ShowLineupItem = z.infer<typeof ShowLineupItem>;

/** A show in the studio's list. */
export const ShowSummary = z.object({
  /** The live event's id (the show's id in studio paths). */
  uid: Uid,
  campaignUid: Uid,
  name: z.string(),
  startsAt: Timestamp,
  /** The zone the show was scheduled in; the studio shows its times there. */
  timeZone: z.string(),
  visibility: ShowVisibility,
  currentStatus: EventCurrentStatus,
  group: ShowGroup,
  deadline: Timestamp.nullable(),
  coverUrl: z.string().nullable(),
  productCount: z.number().int().nonnegative(),
});
export type ShowSummary = z.infer<typeof ShowSummary>;

/** A show as the studio edits it, with its line-up and the links to share it. */
export const Show = ShowSummary.extend({
  lineup: z.array(ShowLineupItem),
  links: z.object({
    /** The show on the storefront: it plays once published (a draft is seen through previewShow). */
    storefrontUrl: z.string(),
    /** HTML for the retailer's own pages (docs/embedding.md). */
    embedSnippet: z.string(),
    /** The public calendar file; null while a draft (drafts have none). */
    calendarUrl: z.string().nullable(),
  }),
  /** Whether the show can be deleted: a draft that was never published. */
  deletable: z.boolean(),
  /** Whether it can go back to being a draft: published, never live. */
  unpublishable: z.boolean(),
});
export type Show = z.infer<typeof Show>;

export const ShowListQuery = z.object({
  group: ShowGroup.optional(),
  /** Words of the show's name. */
  search: z.string().trim().max(200).optional(),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});

export const ShowList = z.object({
  shows: z.array(ShowSummary),
  /** How many shows match, on all pages. */
  total: z.number().int().nonnegative(),
  /** Shows per group in the store (for the tabs' counts), whatever the filter. */
  counts: z.record(ShowGroup, z.number().int().nonnegative()),
  /** The store's time zone: where a new show is scheduled unless the form says otherwise. */
  timeZone: z.string(),
});
export type ShowList = z.infer<typeof ShowList>;

/** The most products one show presents. */
export const SHOW_LINEUP_MAX = 200;

export const ShowLineupInput = z
  .object({
    productUids: z
      .array(Uid)
      .max(SHOW_LINEUP_MAX, `must be at most ${SHOW_LINEUP_MAX} products`)
      .refine((uids) => new Set(uids).size === uids.length, 'must not name a product twice'),
  })
  .strict();
export type ShowLineupInput = z.infer<typeof ShowLineupInput>;

const StorePath = z.object({ pageUid: Uid });
const ShowPath = z.object({ pageUid: Uid, showUid: Uid });
const CompetitionPath = z.object({ pageUid: Uid, showUid: Uid, competitionUid: z.string().min(1).max(128) });

const SHOWS = '/staff/stores/:pageUid/shows';
const SHOW = `${SHOWS}/:showUid`;

/**
 * The studio's show calls: hosts schedule shows; moderators, who run competitions, prepare the
 * shows' raffles, quizzes and polls, so they may list the shows too (names and times; nothing
 * about money).
 */
export const showCalls = {
  // By path, then method in the order of CALL_METHODS (call-types.ts); api-docs.test.ts checks it.
  listShows: call({
    method: 'GET',
    path: SHOWS,
    auth: { staff: 'moderator' },
    summary:
      "The store's shows, drafts included, newest start first (upcoming, live and drafts soonest first), with paging; moderators too, to find a show's competitions.",
    params: StorePath,
    query: ShowListQuery,
    response: ShowList,
  }),
  createShow: call({
    method: 'POST',
    path: SHOWS,
    auth: { staff: 'host' },
    summary: 'Schedules a show (a campaign and its live event); a draft unless `visibility` says otherwise.',
    params: StorePath,
    request: ShowInput,
    response: Show,
    status: 201,
  }),
  getShow: call({
    method: 'GET',
    path: SHOW,
    auth: { staff: 'host' },
    summary: 'One show with its line-up and share links.',
    params: ShowPath,
    response: Show,
  }),
  updateShow: call({
    method: 'PATCH',
    path: SHOW,
    auth: { staff: 'host' },
    summary:
      'Changes a show: name, start, deadline, visibility (publishing; back to draft only before it has been live).',
    params: ShowPath,
    request: ShowUpdate,
    response: Show,
  }),
  deleteShow: call({
    method: 'DELETE',
    path: SHOW,
    auth: { staff: 'host' },
    summary:
      'Deletes a draft that was never published; a published show is made a draft (cancelled) instead, 409 otherwise.',
    params: ShowPath,
    response: null,
    status: 204,
  }),
  listShowCompetitions: call({
    method: 'GET',
    path: `${SHOW}/competitions`,
    auth: { staff: 'moderator' },
    summary: 'The raffles, quizzes and polls prepared for a show, with counts and winners (moderators too).',
    params: ShowPath,
    response: CompetitionListResponse,
  }),
  createShowCompetition: call({
    method: 'POST',
    path: `${SHOW}/competitions`,
    auth: { staff: 'moderator' },
    summary: 'Prepares a raffle, quiz or poll for a show (closed until opened during the show).',
    params: ShowPath,
    request: CreateCompetitionRequest,
    response: CompetitionAdminView,
    status: 201,
  }),
  updateShowCompetition: call({
    method: 'PATCH',
    path: `${SHOW}/competitions/:competitionUid`,
    auth: { staff: 'moderator' },
    summary: "Changes a prepared competition's texts, cues or state.",
    params: CompetitionPath,
    request: UpdateCompetitionRequest,
    response: CompetitionAdminView,
  }),
  deleteShowCompetition: call({
    method: 'DELETE',
    path: `${SHOW}/competitions/:competitionUid`,
    auth: { staff: 'moderator' },
    summary: 'Deletes a prepared competition nobody has taken part in yet (409 otherwise).',
    params: CompetitionPath,
    response: null,
    status: 204,
  }),
  uploadShowCover: call({
    method: 'POST',
    path: `${SHOW}/cover`,
    auth: { staff: 'host' },
    summary:
      "Uploads the show's cover image (JPEG, PNG, WebP, GIF or AVIF; at most 10 MB and 40 megapixels), resized for the player; answers the show.",
    params: ShowPath,
    binaryBody: { mediaTypes: IMAGE_UPLOAD_MEDIA_TYPES, maxBytes: MAX_IMAGE_UPLOAD_BYTES },
    response: Show,
  }),
  setShowLineup: call({
    method: 'PUT',
    path: `${SHOW}/lineup`,
    auth: { staff: 'host' },
    summary:
      "Sets the show's products in order (each from the store's catalogue); products kept keep their cues.",
    params: ShowPath,
    request: ShowLineupInput,
    response: Show,
  }),
  previewShow: call({
    method: 'GET',
    path: `${SHOW}/preview`,
    auth: { staff: 'host' },
    summary: 'The show as the player would get it, drafts included, for staff to preview before publishing.',
    params: ShowPath,
    response: z.object({ event: LiveEvent, products: z.array(EventProduct) }),
  }),
};
