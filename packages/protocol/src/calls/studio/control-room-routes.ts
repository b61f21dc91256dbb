import { route } from '../player-routes.ts';

const ROOM = '/staff/stores/:pageUid/shows/:showUid/control-room';

/**
 * The control room's calls (studio/control-room-calls.ts): hosts and moderators work a live show
 * together. Moderators see the room and run competitions; presenting products and the line-up
 * are the host's (as the show's stream is: goLive and endLive in live-routes.ts).
 */
export const CONTROL_ROOM_ROUTES = {
  getControlRoom: route({ method: 'GET', path: ROOM, auth: { staff: 'moderator' } }),
  getControlRoomStats: route({ method: 'GET', path: `${ROOM}/stats`, auth: { staff: 'moderator' } }),
  presentProduct: route({ method: 'POST', path: `${ROOM}/presented`, auth: { staff: 'host' } }),
  stopPresenting: route({ method: 'DELETE', path: `${ROOM}/presented/:productUid`, auth: { staff: 'host' } }),
  markProductSoldOut: route({
    method: 'POST',
    path: `${ROOM}/lineup/:productUid/sold-out`,
    auth: { staff: 'host' },
  }),
  drawShowCompetitionWinners: route({
    method: 'POST',
    path: `${ROOM}/competitions/:competitionUid/draw`,
    auth: { staff: 'moderator' },
  }),
  announceShowCompetition: route({
    method: 'POST',
    path: `${ROOM}/competitions/:competitionUid/announce`,
    auth: { staff: 'moderator' },
  }),
} as const;
