import { ProductInput, Uid } from '@vitrine/protocol';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { z } from 'zod';
import { parseInput } from '../../http/errors.ts';
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
  app.put('/admin/pages/:pageUid/products/:productUid', { onRequest: requireAdmin }, async (request) => {
    const { pageUid, productUid } = parseInput(z.object({ pageUid: Uid, productUid: Uid }), request.params);
    const input = parseInput(ProductInput, request.body);
    await stores.pageSummary(pageUid);
    await catalog.upsertProduct(pageUid, productUid, input);
    // Viewers of shows presenting this product see the new data.
    await republishProduct(productUid);
    return { uid: productUid };
  });
}
