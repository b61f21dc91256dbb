import type { FastifyInstance } from 'fastify';
import type { StaffGate } from '../../http/caller.ts';
import { registerCall } from '../../http/register-call.ts';
import type { StoreService } from './store-service.ts';

/** Stores the uploaded logo (the media feature) and answers its URL. */
export type LogoStorage = (pageUid: string, image: Uint8Array) => Promise<string>;

/** The studio's store settings calls; each is scoped to the store in its path by the staff gate. */
export function registerStoreSettingsRoutes(
  app: FastifyInstance,
  deps: { stores: StoreService; staffGate: StaffGate; storeLogo?: LogoStorage },
): void {
  const { stores, staffGate } = deps;
  registerCall(app, 'getStoreSettings', (_body, { params }) => stores.settings(params.pageUid), {
    staffGate,
  });
  registerCall(app, 'putStoreInfo', (input, { params }) => stores.updateInfo(params.pageUid, input), {
    staffGate,
  });
  registerCall(app, 'putStoreTerms', ({ terms }, { params }) => stores.updateTerms(params.pageUid, terms), {
    staffGate,
  });
  registerCall(
    app,
    'putStorePlayerSettings',
    (input, { params }) => stores.updatePlayerSettings(params.pageUid, input),
    { staffGate },
  );
  registerCall(
    app,
    'putStoreLogo',
    async (image, { params }) => {
      if (!deps.storeLogo) throw new Error('putStoreLogo: no logo storage configured');
      const url = await deps.storeLogo(params.pageUid, image);
      return stores.updateLogo(params.pageUid, url);
    },
    { staffGate },
  );
  registerCall(app, 'deleteStoreLogo', (_body, { params }) => stores.updateLogo(params.pageUid, null), {
    staffGate,
  });
  registerCall(
    app,
    'putStoreEmbedding',
    (input, { params }) => stores.updateEmbedding(params.pageUid, input),
    { staffGate },
  );
  registerCall(app, 'putStoreSales', (input, { params }) => stores.updateSales(params.pageUid, input), {
    staffGate,
  });
  registerCall(app, 'putStoreShipping', (input, { params }) => stores.updateShipping(params.pageUid, input), {
    staffGate,
  });
  registerCall(
    app,
    'putStorePickupStores',
    ({ pickupStores }, { params }) => stores.updatePickupStores(params.pageUid, pickupStores),
    { staffGate },
  );
}
