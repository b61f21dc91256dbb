import { route } from '../player-routes.ts';

const SHOW = '/staff/stores/:pageUid/shows/:showUid';
const COMMENT = `${SHOW}/moderation/comments/:commentUid`;

/** The studio's chat moderation calls (studio/moderation-calls.ts): moderators keep the chat clean. */
export const MODERATION_ROUTES = {
  getModerationBoard: route({ method: 'GET', path: `${SHOW}/moderation`, auth: { staff: 'moderator' } }),
  moderateComment: route({ method: 'POST', path: COMMENT, auth: { staff: 'moderator' } }),
  answerQuestion: route({ method: 'POST', path: `${COMMENT}/answer`, auth: { staff: 'moderator' } }),
  banViewer: route({
    method: 'POST',
    path: '/staff/stores/:pageUid/chat-bans',
    auth: { staff: 'moderator' },
  }),
  unbanViewer: route({
    method: 'DELETE',
    path: '/staff/stores/:pageUid/chat-bans/:userUid',
    auth: { staff: 'moderator' },
  }),
  listChatBans: route({
    method: 'GET',
    path: '/staff/stores/:pageUid/chat-bans',
    auth: { staff: 'moderator' },
  }),
  setSlowMode: route({ method: 'PUT', path: `${SHOW}/moderation/slow-mode`, auth: { staff: 'moderator' } }),
  pinAnnouncement: route({
    method: 'PUT',
    path: `${SHOW}/moderation/announcement`,
    auth: { staff: 'moderator' },
  }),
  setChatModerationSettings: route({
    method: 'PUT',
    path: '/staff/stores/:pageUid/chat-moderation',
    auth: { staff: 'moderator' },
  }),
} as const;
