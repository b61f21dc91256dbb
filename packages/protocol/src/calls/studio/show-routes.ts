import { route } from '../player-routes.ts';

const SHOWS = '/staff/stores/:pageUid/shows';
const SHOW = `${SHOWS}/:showUid`;

/**
 * The studio's show calls (studio/show-calls.ts): hosts schedule shows; moderators, who run
 * competitions, prepare the shows' raffles, quizzes and polls, so they may list the shows too
 * (names and times; nothing about money).
 */
export const SHOW_ROUTES = {
  listShows: route({ method: 'GET', path: SHOWS, auth: { staff: 'moderator' } }),
  getShow: route({ method: 'GET', path: SHOW, auth: { staff: 'host' } }),
  createShow: route({ method: 'POST', path: SHOWS, auth: { staff: 'host' } }),
  updateShow: route({ method: 'PATCH', path: SHOW, auth: { staff: 'host' } }),
  deleteShow: route({ method: 'DELETE', path: SHOW, auth: { staff: 'host' } }),
  setShowLineup: route({ method: 'PUT', path: `${SHOW}/lineup`, auth: { staff: 'host' } }),
  uploadShowCover: route({ method: 'POST', path: `${SHOW}/cover`, auth: { staff: 'host' } }),
  previewShow: route({ method: 'GET', path: `${SHOW}/preview`, auth: { staff: 'host' } }),
  listShowCompetitions: route({ method: 'GET', path: `${SHOW}/competitions`, auth: { staff: 'moderator' } }),
  createShowCompetition: route({
    method: 'POST',
    path: `${SHOW}/competitions`,
    auth: { staff: 'moderator' },
  }),
  updateShowCompetition: route({
    method: 'PATCH',
    path: `${SHOW}/competitions/:competitionUid`,
    auth: { staff: 'moderator' },
  }),
  deleteShowCompetition: route({
    method: 'DELETE',
    path: `${SHOW}/competitions/:competitionUid`,
    auth: { staff: 'moderator' },
  }),
} as const;
