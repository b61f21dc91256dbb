import type { FastifyInstance } from 'fastify';
import { HttpError } from '../../http/errors.ts';
import { registerCall } from '../../http/register-call.ts';
import type { AuthService } from '../auth/auth-service.ts';
import type { CommentService } from './comment-service.ts';
import type { ViewerBans } from './viewer-bans.ts';

export function registerCommentRoutes(
  app: FastifyInstance,
  comments: CommentService,
  auth: AuthService,
  /** Bans by device and address beside the account (issue 33 §4). */
  bans?: ViewerBans,
): void {
  const viewer = { auth, signInMessage: 'Sign in to comment (Authorization: Bearer <id token>).' };
  registerCall(
    app,
    'playerComment',
    async (input, { caller, request }) => {
      await bans?.requireNotBanned(request, input.pageUid, caller.userUid, 'comment');
      if (!input.toHost) return comments.postPlayerComment(caller.userUid, input, {}, request.ip);
      // A private line to the shop needs an account the host can answer and the shop can trust.
      if (caller.isAnonymous) {
        throw new HttpError(403, 'account_required', 'Sign in with an account to ask the host privately.');
      }
      if (input.threadId !== null) {
        throw new HttpError(
          400,
          'invalid_request',
          'A private question to the host starts a conversation; it is not an answer.',
        );
      }
      return comments.postPlayerComment(caller.userUid, input, {}, request.ip, 'authorAndHost');
    },
    viewer,
  );
  registerCall(
    app,
    'editComment',
    (input, { caller, request }) => comments.editComment(caller.userUid, input, request.ip),
    viewer,
  );
}
