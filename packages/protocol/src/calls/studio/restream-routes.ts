import { route } from '../player-routes.ts';

const RESTREAMS = '/staff/stores/:pageUid/shows/:showUid/restreams';
const DESTINATION = `${RESTREAMS}/:destinationId`;

/**
 * The studio's restream calls (studio/restream-calls.ts): hosts (and owners) send a show on to
 * other platforms; the stream keys they save are theirs to keep secret.
 */
export const RESTREAM_ROUTES = {
  listRestreams: route({ method: 'GET', path: RESTREAMS, auth: { staff: 'host' } }),
  addRestream: route({ method: 'POST', path: RESTREAMS, auth: { staff: 'host' } }),
  removeRestream: route({ method: 'DELETE', path: DESTINATION, auth: { staff: 'host' } }),
  startRestream: route({ method: 'POST', path: `${DESTINATION}/start`, auth: { staff: 'host' } }),
  stopRestream: route({ method: 'POST', path: `${DESTINATION}/stop`, auth: { staff: 'host' } }),
} as const;
