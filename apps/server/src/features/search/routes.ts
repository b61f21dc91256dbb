import type { FastifyInstance } from 'fastify';
import { registerCall } from '../../http/register-call.ts';
import type { ShowSearchService } from './show-search-service.ts';

/** The public search across shows; anyone may ask, each address within its limit. */
export function registerShowSearchRoutes(app: FastifyInstance, search: ShowSearchService): void {
  registerCall(app, 'searchShows', (body, { request }) => search.search(body, request.ip));
}
