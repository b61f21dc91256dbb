import {
  EditCommentRequest,
  HostReplyRequest,
  PlayerCommentRequest,
  PutBulkCommentsRequest,
  Uid,
  VerifyCommentRequest,
} from '@vitrine/protocol';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import { z } from 'zod';
import { parseInput } from '../../http/errors.ts';
import type { AuthService } from '../auth/auth-service.ts';
import type { CommentService } from './comment-service.ts';

const CampaignParams = z.object({ pageUid: Uid, campaignUid: Uid });
const HostCommentsQuery = z.object({ limit: z.coerce.number().int().min(1).max(500).default(200) }).strict();

export function registerCommentRoutes(
  app: FastifyInstance,
  comments: CommentService,
  auth: AuthService,
  requireAdmin: onRequestHookHandler,
): void {
  const caller = (request: FastifyRequest) =>
    auth.requireUser(request, 'Sign in to comment (Authorization: Bearer <id token>).');

  app.post('/shopapiv2/comment/playerComment', async (request) => {
    const user = await caller(request);
    return comments.postPlayerComment(
      user.userUid,
      parseInput(PlayerCommentRequest, request.body),
      {},
      request.ip,
    );
  });

  app.post('/shopapiv2/comment/editComment', async (request) => {
    const user = await caller(request);
    return comments.editComment(user.userUid, parseInput(EditCommentRequest, request.body), request.ip);
  });

  // Host console (admin key).
  app.post('/admin/comments/reply', { onRequest: requireAdmin }, async (request) =>
    comments.hostReply(parseInput(HostReplyRequest, request.body)),
  );
  app.post('/admin/comments/verify', { onRequest: requireAdmin }, async (request) =>
    comments.setVerified(parseInput(VerifyCommentRequest, request.body)),
  );
  app.get(
    '/admin/pages/:pageUid/campaigns/:campaignUid/comments',
    { onRequest: requireAdmin },
    async (request) => {
      const { pageUid, campaignUid } = parseInput(CampaignParams, request.params);
      const { limit } = parseInput(HostCommentsQuery, request.query);
      return { comments: await comments.listForHost(pageUid, campaignUid, limit) };
    },
  );
  app.put(
    '/admin/pages/:pageUid/campaigns/:campaignUid/bulk-comments',
    { onRequest: requireAdmin },
    async (request) => {
      const { pageUid, campaignUid } = parseInput(CampaignParams, request.params);
      return comments.putBulkComments(pageUid, campaignUid, parseInput(PutBulkCommentsRequest, request.body));
    },
  );
}
