import { PageInput, StoreInfoRequest, Uid } from '@vitrine/protocol';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { z } from 'zod';
import { parseInput } from '../../http/errors.ts';
import type { StoreService } from './store-service.ts';

export function registerStoreRoutes(
  app: FastifyInstance,
  stores: StoreService,
  requireAdmin: onRequestHookHandler,
): void {
  app.post('/functions/customerpage/storeInfo', async (request) => {
    const { pageUid } = parseInput(StoreInfoRequest, request.body);
    return stores.storeInfo(pageUid);
  });

  app.put('/admin/pages/:pageUid', { onRequest: requireAdmin }, async (request, reply) => {
    const { pageUid } = parseInput(z.object({ pageUid: Uid }), request.params);
    await stores.upsertPage(pageUid, parseInput(PageInput, request.body));
    return reply.status(200).send({ uid: pageUid });
  });
}
