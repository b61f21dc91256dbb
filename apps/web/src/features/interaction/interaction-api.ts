import {
  type CreateReactionRequest,
  type DismissCompetitionRequest,
  type EditCommentRequest,
  type ParticipateRequest,
  type PlayerCommentRequest,
  type UpdateUserRequest,
  type UserDoc,
  VIEWER_ID_HEADER,
} from '@vitrine/protocol';
import { ApiError } from '../../lib/api.ts';
import { callAsViewer, updateSessionUser } from '../../lib/session.ts';
import { viewerUid } from '../../lib/tracking.ts';

/** The viewer's calls of live interaction (spec §7), each with the viewer's bearer id token. */

/**
 * This browser's viewer id goes with what a ban must cover (comments, reactions, entries): a
 * banned viewer who makes a new anonymous account in the same browser stays banned (issue 33 §4).
 */
const device = () => ({ [VIEWER_ID_HEADER]: viewerUid() });

export const postComment = (request: PlayerCommentRequest) =>
  callAsViewer('playerComment', request, device());

export const editComment = (request: EditCommentRequest) => callAsViewer('editComment', request);

export const sendReaction = (request: CreateReactionRequest) =>
  callAsViewer('createReaction', request, device());

export const participate = (request: ParticipateRequest) => callAsViewer('participate', request, device());

export const dismissCompetition = (request: DismissCompetitionRequest) =>
  callAsViewer('dismissCompetition', request);

/** Sets the viewer's name (spec §7 updateUser): an anonymous participant's "just a name", or a rename. */
export async function setUserName(
  customerUid: string,
  name: string,
  where: Pick<UpdateUserRequest, 'pageUid' | 'campaignUid'> = {},
): Promise<UserDoc> {
  const user = await callAsViewer('updateUser', {
    ...where,
    customerUid,
    updates: { name },
  } satisfies UpdateUserRequest);
  updateSessionUser({ name: user.name });
  return user;
}

/** What went wrong with a viewer's call, for the message shown next to the control. */
export type CallProblem =
  | { kind: 'rateLimited'; retryAfterSeconds: number }
  | { kind: 'closed' }
  /** The store's moderators banned the viewer from its chat. */
  | { kind: 'banned' }
  /** Slow mode: one comment per `slowModeSeconds`; the next one in `retryAfterSeconds`. */
  | { kind: 'slowMode'; slowModeSeconds: number; retryAfterSeconds: number }
  | { kind: 'invalid'; message: string }
  | { kind: 'failed' };

export function describeProblem(error: unknown): CallProblem {
  if (!(error instanceof ApiError)) return { kind: 'failed' };
  if (error.code === 'banned') return { kind: 'banned' };
  if (error.status === 429 && error.code === 'slow_mode') {
    const body = error.body as { retryAfterMs?: unknown; slowModeSeconds?: unknown } | null;
    return {
      kind: 'slowMode',
      slowModeSeconds: typeof body?.slowModeSeconds === 'number' ? body.slowModeSeconds : 0,
      retryAfterSeconds:
        typeof body?.retryAfterMs === 'number' ? Math.max(1, Math.ceil(body.retryAfterMs / 1000)) : 1,
    };
  }
  if (error.status === 429) {
    const retryAfterMs = (error.body as { retryAfterMs?: unknown } | null)?.retryAfterMs;
    return {
      kind: 'rateLimited',
      retryAfterSeconds: typeof retryAfterMs === 'number' ? Math.max(1, Math.ceil(retryAfterMs / 1000)) : 1,
    };
  }
  if (error.code === 'comments_closed' || error.code === 'competition_closed') return { kind: 'closed' };
  if (error.status === 400) return { kind: 'invalid', message: error.message };
  return { kind: 'failed' };
}
