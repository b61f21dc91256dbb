import { route } from '../player-routes.ts';

const STREAM = '/staff/stores/:pageUid/shows/:showUid/stream';

/** The studio's live stream calls (studio/live-calls.ts): hosts run the show's stream. */
export const LIVE_ROUTES = {
  getLiveStream: route({ method: 'GET', path: STREAM, auth: { staff: 'host' } }),
  rotateStreamKey: route({ method: 'POST', path: `${STREAM}/key`, auth: { staff: 'host' } }),
  goLive: route({ method: 'POST', path: `${STREAM}/go-live`, auth: { staff: 'host' } }),
  endLive: route({ method: 'POST', path: `${STREAM}/end`, auth: { staff: 'host' } }),
} as const;
