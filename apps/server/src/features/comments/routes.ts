import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { registerCall } from '../../http/register-call.ts';
import type { AuthService } from '../auth/auth-service.ts';
import type { CommentService } from './comment-service.ts';

export function registerCommentRoutes(
  app: FastifyInstance,
  comments: CommentService,
  auth: AuthService,
  requireAdmin: onRequestHookHandler,
): void {
  const viewer = { auth, signInMessage: 'Sign in to comment (Authorization: Bearer <id token>).' };
  registerCall(
    app,
    'playerComment',
    (input, { caller, request }) => comments.postPlayerComment(caller.userUid, input, {}, request.ip),
    viewer,
  );
  registerCall(
    app,
    'editComment',
    (input, { caller, request }) => comments.editComment(caller.userUid, input, request.ip),
    viewer,
  );

  // Host console (admin key).
  const admin = { requireAdmin };
  registerCall(app, 'hostReply', (input) => comments.hostReply(input), admin);
  registerCall(app, 'verifyComment', (input) => comments.setVerified(input), admin);
  registerCall(
    app,
    'listHostComments',
    async (_body, { params, query }) => ({
      comments: await comments.listForHost(params.pageUid, params.campaignUid, query.limit),
    }),
    admin,
  );
  registerCall(
    app,
    'putBulkComments',
    (input, { params }) => comments.putBulkComments(params.pageUid, params.campaignUid, input),
    admin,
  );
}
