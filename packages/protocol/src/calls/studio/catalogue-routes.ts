import { type CallRoute, route } from '../player-routes.ts';

const HOST = { staff: 'host' } as const;

/** The studio's catalogue calls (studio/catalogue-calls.ts): products, images, CSV import/export. */
export const CATALOGUE_ROUTES = {
  uploadProductImage: route({ method: 'POST', path: '/staff/stores/:pageUid/product-images', auth: HOST }),
} as const satisfies Record<string, CallRoute>;
