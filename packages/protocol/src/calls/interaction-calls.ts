import { z } from 'zod';
import { PlayerCommentRequest } from '../comments.ts';
import {
  ContactCaptureRequest,
  CreateReactionRequest,
  CreateReactionResponse,
  DismissCompetitionRequest,
  EditCommentRequest,
  ParticipateRequest,
  ParticipateResponse,
} from '../interaction.ts';
import { CommentDoc } from '../live-documents.ts';
import { call } from './define-call.ts';

/** What dismissing a competition answers. */
export const DismissCompetitionResponse = z.object({ ok: z.literal(true) });
/** What a stored contact answers. */
export const ContactCaptureResponse = z.object({ uid: z.string() });
export type ContactCaptureResponse = z.infer<typeof ContactCaptureResponse>;

/**
 * A viewer's comments, reactions, competition entries and contact details (the host console's
 * calls are in admin-calls.ts).
 */
export const interactionCalls = {
  // By path, then method in the order of CALL_METHODS (call-types.ts); api-docs.test.ts checks it.
  editComment: call({
    method: 'POST',
    path: '/shopapiv2/comment/editComment',
    auth: 'viewer',
    summary: "Changes the text of the caller's own comment (editedAt); 403 unless the author.",
    request: EditCommentRequest,
    response: CommentDoc,
  }),
  playerComment: call({
    method: 'POST',
    path: '/shopapiv2/comment/playerComment',
    auth: 'viewer',
    summary:
      "Posts a comment, or a reply when threadId is a comment's uid. 403 comments_closed, 429 rate_limited {retryAfterMs}.",
    request: PlayerCommentRequest,
    response: CommentDoc,
  }),
  dismissCompetition: call({
    method: 'POST',
    path: '/shopapiv2/competition/dismiss',
    auth: 'viewer',
    summary: "Hides a competition for the caller (the user's competitionsDismissed).",
    request: DismissCompetitionRequest,
    response: DismissCompetitionResponse,
  }),
  participate: call({
    method: 'POST',
    path: '/shopapiv2/competition/participate',
    auth: 'viewer',
    summary:
      'Enters a competition: posts the comment, then records the entry (a poll vote is private). 409 competition_closed / already_participated.',
    request: ParticipateRequest,
    response: ParticipateResponse,
  }),
  captureContact: call({
    method: 'POST',
    path: '/shopapiv2/contact/capture',
    auth: 'viewer',
    summary:
      'A social-live viewer leaves a phone number or e-mail; 400 contact_incomplete with problems and the spec §5 messages.',
    request: ContactCaptureRequest,
    response: ContactCaptureResponse,
  }),
  createReaction: call({
    method: 'POST',
    path: '/shopapiv2/reaction/createReaction',
    auth: 'viewer',
    summary:
      'A reaction; 429 beyond one every 2 seconds. Viewers get them on the reactions live query, one doc per type per tick.',
    request: CreateReactionRequest,
    response: CreateReactionResponse,
  }),
};
