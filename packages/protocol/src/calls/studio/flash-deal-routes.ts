import { route } from '../player-routes.ts';

const SHOW = '/staff/stores/:pageUid/shows/:showUid';
const ROOM = `${SHOW}/control-room`;

/**
 * The studio's flash deal calls (studio/flash-deal-calls.ts): a deal sells at a price, so it is
 * the host's (and owner's), like presenting products; moderators neither prepare nor start one.
 */
export const FLASH_DEAL_ROUTES = {
  listShowFlashDeals: route({ method: 'GET', path: `${SHOW}/flash-deals`, auth: { staff: 'host' } }),
  createShowFlashDeal: route({ method: 'POST', path: `${SHOW}/flash-deals`, auth: { staff: 'host' } }),
  startShowFlashDeal: route({
    method: 'POST',
    path: `${ROOM}/flash-deals/:dealUid/start`,
    auth: { staff: 'host' },
  }),
  endShowFlashDeal: route({
    method: 'POST',
    path: `${ROOM}/flash-deals/:dealUid/end`,
    auth: { staff: 'host' },
  }),
} as const;
