import { type CallRoute, route } from '../player-routes.ts';

const SETTINGS = '/staff/stores/:pageUid/settings';

/**
 * The studio's store settings calls (studio/settings-calls.ts). Hosts run the store's face (info,
 * terms, logo, player); what touches money or who may frame the checkout (currencies, freight,
 * pickup, embedding origins) is the owner's.
 */
export const SETTINGS_ROUTES = {
  getStoreSettings: route({ method: 'GET', path: SETTINGS, auth: { staff: 'host' } }),
  putStoreInfo: route({ method: 'PUT', path: `${SETTINGS}/info`, auth: { staff: 'host' } }),
  putStoreTerms: route({ method: 'PUT', path: `${SETTINGS}/terms`, auth: { staff: 'host' } }),
  putStorePlayerSettings: route({ method: 'PUT', path: `${SETTINGS}/player`, auth: { staff: 'host' } }),
  putStoreLogo: route({ method: 'PUT', path: `${SETTINGS}/logo`, auth: { staff: 'host' } }),
  deleteStoreLogo: route({ method: 'DELETE', path: `${SETTINGS}/logo`, auth: { staff: 'host' } }),
  putStoreEmbedding: route({ method: 'PUT', path: `${SETTINGS}/embedding`, auth: { staff: 'owner' } }),
  putStoreSales: route({ method: 'PUT', path: `${SETTINGS}/sales`, auth: { staff: 'owner' } }),
  putStoreShipping: route({ method: 'PUT', path: `${SETTINGS}/shipping`, auth: { staff: 'owner' } }),
  putStorePickupStores: route({
    method: 'PUT',
    path: `${SETTINGS}/pickup-stores`,
    auth: { staff: 'owner' },
  }),
} as const satisfies Record<string, CallRoute>;
