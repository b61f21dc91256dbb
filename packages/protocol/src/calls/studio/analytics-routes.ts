import { type CallRoute, route } from '../player-routes.ts';

const ANALYTICS = '/staff/stores/:pageUid/analytics';
const SHOW = `${ANALYTICS}/shows/:showUid`;

/**
 * The studio's analytics (studio/analytics-calls.ts). Hosts run shows, so they read how a show
 * went; revenue and order values are the owner's (as the orders are): a host's report has them
 * null. The raw events export is the owner's too. Moderators see none of it.
 */
export const ANALYTICS_ROUTES = {
  getStoreAnalytics: route({ method: 'GET', path: ANALYTICS, auth: { staff: 'host' } }),
  getShowAnalytics: route({ method: 'GET', path: SHOW, auth: { staff: 'host' } }),
  exportShowAnalytics: route({ method: 'GET', path: `${SHOW}/export`, auth: { staff: 'host' } }),
  exportShowEvents: route({ method: 'GET', path: `${SHOW}/events`, auth: { staff: 'owner' } }),
  refreshAnalytics: route({ method: 'POST', path: `${ANALYTICS}/refresh`, auth: { staff: 'host' } }),
} as const satisfies Record<string, CallRoute>;
