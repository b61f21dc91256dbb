import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { registerCall } from '../../http/register-call.ts';
import type { EventService } from '../events/event-service.ts';
import type { StoreService } from '../stores/store-service.ts';
import type { CatalogService } from './catalog-service.ts';

export function registerCatalogRoutes(
  app: FastifyInstance,
  catalog: CatalogService,
  stores: StoreService,
  events: EventService,
  requireAdmin: onRequestHookHandler,
): void {
  registerCall(
    app,
    'putProduct',
    async (input, { params: { pageUid, productUid } }) => {
      await stores.pageSummary(pageUid);
      await catalog.upsertProduct(pageUid, productUid, input);
      // Viewers of shows presenting this product see the new data.
      await events.republishProduct(productUid);
      return { uid: productUid };
    },
    { requireAdmin },
  );
}
