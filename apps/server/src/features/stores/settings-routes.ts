import type { StaffRole, StoreSettings, StudioStoreSettings } from '@vitrine/protocol';
import type { FastifyInstance } from 'fastify';
import type { StaffGate } from '../../http/caller.ts';
import { registerCall } from '../../http/register-call.ts';
import type { StoreService } from './store-service.ts';

/**
 * The settings as the caller's role may read them: a host does not handle payment settings
 * (README), so embedding, sales, shipping and pickup stores are left out (null) for one.
 */
export function settingsForRole(settings: StoreSettings, role: StaffRole): StudioStoreSettings {
  if (role === 'owner') return settings;
  return { ...settings, embedding: null, sales: null, shipping: null, pickupStores: null };
}

/** Stores the uploaded logo (the media feature) and answers its URL. */
export type LogoStorage = (pageUid: string, image: Uint8Array) => Promise<string>;

/** The studio's store settings calls; each is scoped to the store in its path by the staff gate. */
export function registerStoreSettingsRoutes(
  app: FastifyInstance,
  deps: { stores: StoreService; staffGate: StaffGate; storeLogo?: LogoStorage },
): void {
  const { stores, staffGate } = deps;
  // A host's calls answer the settings without the owner's parts.
  registerCall(
    app,
    'getStoreSettings',
    async (_body, { params, caller }) => settingsForRole(await stores.settings(params.pageUid), caller.role),
    { staffGate },
  );
  registerCall(
    app,
    'putStoreInfo',
    async (input, { params, caller }) =>
      settingsForRole(await stores.updateInfo(params.pageUid, input), caller.role),
    { staffGate },
  );
  registerCall(
    app,
    'putStoreTerms',
    async ({ terms }, { params, caller }) =>
      settingsForRole(await stores.updateTerms(params.pageUid, terms), caller.role),
    { staffGate },
  );
  registerCall(
    app,
    'putStorePlayerSettings',
    async (input, { params, caller }) =>
      settingsForRole(await stores.updatePlayerSettings(params.pageUid, input), caller.role),
    { staffGate },
  );
  registerCall(
    app,
    'putStoreLogo',
    async (image, { params, caller }) => {
      if (!deps.storeLogo) throw new Error('putStoreLogo: no logo storage configured');
      const url = await deps.storeLogo(params.pageUid, image);
      return settingsForRole(await stores.updateLogo(params.pageUid, url), caller.role);
    },
    { staffGate },
  );
  registerCall(
    app,
    'deleteStoreLogo',
    async (_body, { params, caller }) =>
      settingsForRole(await stores.updateLogo(params.pageUid, null), caller.role),
    { staffGate },
  );
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
