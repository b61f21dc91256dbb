import type { FastifyInstance } from 'fastify';
import type { StaffGate } from '../../http/caller.ts';
import { registerCall } from '../../http/register-call.ts';
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
    staffGate: StaffGate;
    campaignOf: (pageUid: string, showUid: string) => Promise<string>;
  },
): void {
  const { moderation, campaignOf } = deps;
  const staff = { staffGate: deps.staffGate };
  registerCall(
    app,
    'getModerationBoard',
    async (_body, { params }) =>
      moderation.board(params.pageUid, await campaignOf(params.pageUid, params.showUid)),
    staff,
  );
  registerCall(
    app,
    'moderateComment',
    async (input, { params, caller }) =>
      moderation.moderateComment(
        caller,
        await campaignOf(params.pageUid, params.showUid),
        params.commentUid,
        input,
      ),
    staff,
  );
  registerCall(
    app,
    'answerQuestion',
    async (input, { params, caller }) =>
      moderation.answerQuestion(
        caller,
        await campaignOf(params.pageUid, params.showUid),
        params.commentUid,
        input,
      ),
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
      moderation.setShowChat(caller, await campaignOf(params.pageUid, params.showUid), {
        slowModeSeconds: input.seconds,
      }),
    staff,
  );
  registerCall(
    app,
    'pinAnnouncement',
    async (input, { params, caller }) =>
      moderation.setShowChat(caller, await campaignOf(params.pageUid, params.showUid), {
        announcement: input.text,
      }),
    staff,
  );
  registerCall(
    app,
    'setChatModerationSettings',
    (input, { caller }) => moderation.setSettings(caller, input),
    staff,
  );
}
