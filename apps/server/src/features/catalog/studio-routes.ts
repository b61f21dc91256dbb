import type { FastifyInstance } from 'fastify';
import type { StaffGate } from '../../http/caller.ts';
import { registerCall } from '../../http/register-call.ts';
import type { MediaService } from '../media/media-service.ts';

/** The studio's catalogue calls (protocol studio/catalogue-calls.ts): products, images, CSV. */
export function registerStudioCatalogueRoutes(
  app: FastifyInstance,
  deps: { media: MediaService; staffGate: StaffGate },
): void {
  const { media, staffGate } = deps;
  registerCall(
    app,
    'uploadProductImage',
    (bytes, { params }) => media.storeImage(params.pageUid, bytes, 'product'),
    { staffGate },
  );
}
