import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { PublicPagesService } from './public-pages-service.ts';
import { renderRobots } from './robots.ts';
import { renderSitemap } from './sitemap.ts';

/** /robots.txt and /sitemap.xml, with the addresses on the site's public origin. */
export function registerPublicPageRoutes(
  app: FastifyInstance,
  publicPages: PublicPagesService,
  publicOrigin: (request: FastifyRequest) => string,
): void {
  app.get('/robots.txt', async (request, reply) =>
    reply
      .type('text/plain; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(renderRobots(publicOrigin(request))),
  );

  app.get('/sitemap.xml', async (request, reply) =>
    reply
      .type('application/xml; charset=utf-8')
      // Shows go live and end: crawlers that come back within minutes see the change.
      .header('cache-control', 'public, max-age=300')
      .send(renderSitemap(await publicPages.sitemapEntries(), publicOrigin(request))),
  );
}
