import { z } from 'zod';
import { PlayerCommentRequest } from '../comments.ts';
import { Uid } from '../common.ts';
import {
  CompetitionAdminView,
  CompetitionListResponse,
  CompetitionNoticeRequest,
  ContactCaptureRequest,
  CreateCompetitionRequest,
  CreateReactionRequest,
  CreateReactionResponse,
  DismissCompetitionRequest,
  DrawWinnersRequest,
  DrawWinnersResponse,
  EditCommentRequest,
  HostReplyRequest,
  ParticipateRequest,
  ParticipateResponse,
  PutBulkCommentsRequest,
  UpdateCompetitionRequest,
  VerifyCommentRequest,
} from '../interaction.ts';
import { BulkCommentsDoc, CommentDoc } from '../live-documents.ts';
import type { CallSchemas } from './define-call.ts';

const CampaignParams = z.object({ pageUid: Uid, campaignUid: Uid });
const CompetitionParams = z.object({ competitionUid: z.string().min(1).max(128) });

/** What dismissing a competition answers. */
export const DismissCompetitionResponse = z.object({ ok: z.literal(true) });
/** What a competition notice answers: how many participants were notified. */
export const CompetitionNoticeResponse = z.object({ notified: z.number().int().nonnegative() });
export type CompetitionNoticeResponse = z.infer<typeof CompetitionNoticeResponse>;
/** What a stored contact answers. */
export const ContactCaptureResponse = z.object({ uid: z.string() });
export type ContactCaptureResponse = z.infer<typeof ContactCaptureResponse>;
/** The host console's comment list: newest first, private ones included. */
export const HostCommentsResponse = z.object({ comments: z.array(CommentDoc) });

/** Comments, reactions, competitions and contacts: the viewer's calls and the host console's. */
export const interactionCalls = {
  playerComment: {
    summary:
      "Posts a comment, or a reply when threadId is a comment's uid. 403 comments_closed, 429 rate_limited {retryAfterMs}.",
    request: PlayerCommentRequest,
    response: CommentDoc,
  },
  editComment: {
    summary: "Changes the text of the caller's own comment (editedAt); 403 unless the author.",
    request: EditCommentRequest,
    response: CommentDoc,
  },
  createReaction: {
    summary:
      'A reaction; 429 beyond one every 2 seconds. Viewers get them on the reactions live query, one doc per type per tick.',
    request: CreateReactionRequest,
    response: CreateReactionResponse,
  },
  participate: {
    summary:
      'Enters a competition: posts the comment, then records the entry (a poll vote is private). 409 competition_closed / already_participated.',
    request: ParticipateRequest,
    response: ParticipateResponse,
  },
  dismissCompetition: {
    summary: "Hides a competition for the caller (the user's competitionsDismissed).",
    request: DismissCompetitionRequest,
    response: DismissCompetitionResponse,
  },
  captureContact: {
    summary:
      'A social-live viewer leaves a phone number or e-mail; 400 contact_incomplete with problems and the spec §5 messages.',
    request: ContactCaptureRequest,
    response: ContactCaptureResponse,
  },
  hostReply: {
    summary:
      'A verified reply as the page; private: true reaches only the author (with a host reply notification).',
    request: HostReplyRequest,
    response: CommentDoc,
  },
  verifyComment: {
    summary: 'Marks a comment verified or not.',
    request: VerifyCommentRequest,
    response: CommentDoc,
  },
  listHostComments: {
    summary: "A show's comments, newest first, private ones included.",
    params: CampaignParams,
    query: z.object({ limit: z.coerce.number().int().min(1).max(500).default(200) }).strict(),
    response: HostCommentsResponse,
  },
  putBulkComments: {
    summary: "Replaces a show's prepared questions (the BulkCommentsDoc).",
    params: CampaignParams,
    request: PutBulkCommentsRequest,
    response: BulkCommentsDoc,
  },
  listCompetitions: {
    summary: "A show's competitions with counts, tallies and winners.",
    params: CampaignParams,
    response: CompetitionListResponse,
  },
  createCompetition: {
    summary: 'A raffle, quiz or poll in a show.',
    params: CampaignParams,
    request: CreateCompetitionRequest,
    response: CompetitionAdminView,
    status: 201,
  },
  updateCompetition: {
    summary: "Changes a competition's texts, cues or state.",
    params: CompetitionParams,
    request: UpdateCompetitionRequest,
    response: CompetitionAdminView,
  },
  drawWinners: {
    bodyOptional: true,
    summary:
      'Draws winners uniformly at random among participants not yet drawn (quiz: right answers); 409 no_participants.',
    params: CompetitionParams,
    request: DrawWinnersRequest,
    response: DrawWinnersResponse,
  },
  competitionNotice: {
    summary: 'A competition notification to every participant.',
    params: CompetitionParams,
    request: CompetitionNoticeRequest,
    response: CompetitionNoticeResponse,
  },
} satisfies Record<string, CallSchemas>;
