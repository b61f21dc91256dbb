import type { FastifyInstance } from 'fastify';
import { MEDIA_PATH_PREFIX, type MediaService } from './media-service.ts';
import { isMediaKey } from './media-store.ts';

/** A year: the longest max-age caches honour; a file's name changes whenever its bytes would. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Serves stored media (`GET /media/<store>/<file>`): content-addressed, so cached forever. */
export function registerMediaRoutes(app: FastifyInstance, media: MediaService): void {
  app.get<{ Params: { store: string; file: string } }>(
    `${MEDIA_PATH_PREFIX}:store/:file`,
    async (request, reply) => {
      const key = `${request.params.store}/${request.params.file}`;
      const found = isMediaKey(key) ? await media.read(key) : null;
      if (!found) {
        reply.header('cache-control', 'no-store');
        return reply.status(404).send({ error: 'not_found', message: 'No such image.' });
      }
      return reply
        .header('content-type', found.contentType)
        .header('cache-control', IMMUTABLE)
        .header('x-content-type-options', 'nosniff')
        .header('cross-origin-resource-policy', 'cross-origin')
        .send(found.bytes);
    },
  );
}
