import { PlayerCommentRequest } from '@vitrine/protocol';
import type { FastifyInstance } from 'fastify';
import { HttpError, parseInput } from '../../http/errors.ts';
import type { AuthService } from '../auth/auth-service.ts';
import type { CommentService } from './comment-service.ts';

export function registerCommentRoutes(
  app: FastifyInstance,
  comments: CommentService,
  auth: AuthService,
): void {
  app.post('/shopapiv2/comment/playerComment', async (request) => {
    const caller = await auth.authenticateRequest(request);
    if (!caller)
      throw new HttpError(401, 'unauthenticated', 'Sign in to comment (Authorization: Bearer <id token>).');
    return comments.postPlayerComment(caller.userUid, parseInput(PlayerCommentRequest, request.body));
  });
}
