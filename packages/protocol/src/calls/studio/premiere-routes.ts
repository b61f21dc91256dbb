import { route } from '../player-routes.ts';

const PREMIERE = '/staff/stores/:pageUid/shows/:showUid/premiere';

/** The studio's premiere calls (studio/premiere-calls.ts): hosts upload and schedule a show's video. */
export const PREMIERE_ROUTES = {
  getPremiere: route({ method: 'GET', path: PREMIERE, auth: { staff: 'host' } }),
  uploadPremiere: route({ method: 'PUT', path: `${PREMIERE}/video`, auth: { staff: 'host' } }),
  schedulePremiere: route({ method: 'POST', path: `${PREMIERE}/schedule`, auth: { staff: 'host' } }),
} as const;
