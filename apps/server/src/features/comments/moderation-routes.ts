import type { FastifyInstance } from 'fastify';
import type { StaffGate } from '../../http/caller.ts';
import { registerCall } from '../../http/register-call.ts';
import type { CommentService } from './comment-service.ts';
import type { ModerationService } from './moderation-service.ts';

/**
 * The studio's chat moderation calls (moderators and up). A show's calls first find the show's
 * campaign in the caller's store (404 for another store's show), so nothing of another store is
 * ever read or changed; the staff gate has already refused callers who are not staff here.
 */
export function registerModerationRoutes(
  app: FastifyInstance,
  deps: {
    moderation: ModerationService;
    comments: Pick<CommentService, 'listForHost' | 'setVerified' | 'putBulkComments'>;
    staffGate: StaffGate;
    campaignOf: (pageUid: string, showUid: string) => Promise<string>;
  },
): void {
  const { moderation, comments, campaignOf } = deps;
  const staff = { staffGate: deps.staffGate };
  /** The campaign of the show the path names, found in the caller's store (404 for another's). */
  const showCampaign = (params: { pageUid: string; showUid: string }) =>
    campaignOf(params.pageUid, params.showUid);
  registerCall(
    app,
    'getModerationBoard',
    async (_body, { params }) => moderation.board(params.pageUid, await showCampaign(params)),
    staff,
  );
  registerCall(
    app,
    'moderateComment',
    async (input, { params, caller }) =>
      moderation.moderateComment(caller, await showCampaign(params), params.commentUid, input),
    staff,
  );
  registerCall(
    app,
    'answerQuestion',
    async (input, { params, caller }) =>
      moderation.answerQuestion(caller, await showCampaign(params), params.commentUid, input),
    staff,
  );
  registerCall(app, 'banViewer', (input, { caller }) => moderation.ban(caller, input), staff);
  registerCall(
    app,
    'unbanViewer',
    (_body, { params, caller }) => moderation.unban(caller, params.userUid),
    staff,
  );
  registerCall(
    app,
    'listChatBans',
    async (_body, { params }) => ({ bans: await moderation.listBans(params.pageUid) }),
    staff,
  );
  registerCall(
    app,
    'setSlowMode',
    async (input, { params, caller }) =>
      moderation.setShowChat(caller, await showCampaign(params), {
        slowModeSeconds: input.seconds,
      }),
    staff,
  );
  registerCall(
    app,
    'pinAnnouncement',
    async (input, { params, caller }) =>
      moderation.setShowChat(caller, await showCampaign(params), {
        announcement: input.text,
      }),
    staff,
  );
  registerCall(
    app,
    'listShowComments',
    async (_body, { params, query }) => ({
      comments: await comments.listForHost(params.pageUid, await showCampaign(params), query.limit),
    }),
    staff,
  );
  registerCall(
    app,
    'verifyShowComment',
    async (input, { params }) =>
      comments.setVerified(params.pageUid, await showCampaign(params), params.commentUid, input.verified),
    staff,
  );
  registerCall(
    app,
    'putShowBulkComments',
    async (input, { params }) => comments.putBulkComments(params.pageUid, await showCampaign(params), input),
    staff,
  );
  registerCall(
    app,
    'setChatModerationSettings',
    (input, { caller }) => moderation.setSettings(caller, input),
    staff,
  );
}
