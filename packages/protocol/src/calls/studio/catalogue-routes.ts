import { type CallRoute, route } from '../player-routes.ts';

const HOST = { staff: 'host' } as const;

/** The studio's catalogue calls (studio/catalogue-calls.ts): products, images, CSV import/export. */
export const CATALOGUE_ROUTES = {
  getCatalogueInfo: route({ method: 'GET', path: '/staff/stores/:pageUid/catalogue-info', auth: HOST }),
  listStudioProducts: route({ method: 'GET', path: '/staff/stores/:pageUid/products', auth: HOST }),
  getStudioProduct: route({ method: 'GET', path: '/staff/stores/:pageUid/products/:productUid', auth: HOST }),
  createStudioProduct: route({ method: 'POST', path: '/staff/stores/:pageUid/products', auth: HOST }),
  updateStudioProduct: route({
    method: 'PUT',
    path: '/staff/stores/:pageUid/products/:productUid',
    auth: HOST,
  }),
  duplicateStudioProduct: route({
    method: 'POST',
    path: '/staff/stores/:pageUid/products/:productUid/duplicate',
    auth: HOST,
  }),
  setStudioProductArchived: route({
    method: 'PUT',
    path: '/staff/stores/:pageUid/products/:productUid/archived',
    auth: HOST,
  }),
  uploadProductImage: route({ method: 'POST', path: '/staff/stores/:pageUid/product-images', auth: HOST }),
  previewProductImport: route({
    method: 'POST',
    path: '/staff/stores/:pageUid/product-import/preview',
    auth: HOST,
  }),
  importProducts: route({ method: 'POST', path: '/staff/stores/:pageUid/product-import', auth: HOST }),
  exportProducts: route({ method: 'GET', path: '/staff/stores/:pageUid/product-export', auth: HOST }),
} as const satisfies Record<string, CallRoute>;
