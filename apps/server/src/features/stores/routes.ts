import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { registerCall } from '../../http/register-call.ts';
import type { StoreService } from './store-service.ts';

export function registerStoreRoutes(
  app: FastifyInstance,
  stores: StoreService,
  requireAdmin: onRequestHookHandler,
): void {
  registerCall(app, 'storeInfo', ({ pageUid }) => stores.storeInfo(pageUid));

  registerCall(
    app,
    'putPage',
    async (input, { params: { pageUid } }) => {
      await stores.upsertPage(pageUid, input);
      return { uid: pageUid };
    },
    { requireAdmin },
  );
}
