import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { registerCall } from '../../http/register-call.ts';
import type { StoreService } from '../stores/store-service.ts';
import type { CatalogService } from './catalog-service.ts';

/**
 * `republishProduct` tells the shows presenting a product that its data changed (the events
 * feature, wired by the composition root: events reads the catalog, so catalog does not import it).
 */
export function registerCatalogRoutes(
  app: FastifyInstance,
  catalog: CatalogService,
  stores: StoreService,
  republishProduct: (productUid: string) => Promise<void>,
  requireAdmin: onRequestHookHandler,
): void {
  registerCall(
    app,
    'putProduct',
    async (input, { params: { pageUid, productUid } }) => {
      await stores.pageSummary(pageUid);
      await catalog.upsertProduct(pageUid, productUid, input);
      // Viewers of shows presenting this product see the new data.
      await republishProduct(productUid);
      return { uid: productUid };
    },
    { requireAdmin },
  );
}
