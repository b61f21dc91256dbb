import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import { createCatalogService } from './features/catalog/catalog-service.ts';
import { registerCatalogRoutes } from './features/catalog/routes.ts';
import { createEventService } from './features/events/event-service.ts';
import { registerEventRoutes } from './features/events/routes.ts';
import { registerStoreRoutes } from './features/stores/routes.ts';
import { createStoreService } from './features/stores/store-service.ts';
import { requireAdminKey } from './http/admin-auth.ts';
import { registerErrorHandling } from './http/errors.ts';
import { registerWebApp } from './http/web-app.ts';
import { registerReadRoutes } from './realtime/read-catalogue.ts';

export const DEMO_MEDIA_DIR = new URL('../demo/media/', import.meta.url).pathname;

export interface AppOptions {
  config: Config;
  db: Database;
  /** The clock; tests pass a fixed one. */
  now?: () => number;
}

export interface App {
  server: FastifyInstance;
  services: ReturnType<typeof createServices>;
  /** Flags the app as stopping so /readyz fails while in-flight requests finish. */
  markDraining(): void;
}

function createServices(db: Database) {
  const stores = createStoreService(db);
  const catalog = createCatalogService(db);
  const events = createEventService(db, stores, catalog);
  return { stores, catalog, events };
}

/** Builds the HTTP server: API, admin API, reads, demo media and the built web app, on one port. */
export async function buildApp({ config, db, now = Date.now }: AppOptions): Promise<App> {
  const server = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            ...(config.logPretty
              ? { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss' } } }
              : {}),
          },
    bodyLimit: 256 * 1024,
  });
  registerErrorHandling(server);
  const services = createServices(db);
  const requireAdmin = requireAdminKey(config.adminKey);
  let draining = false;

  server.get('/healthz', async () => ({ status: 'ok' }));
  server.get('/readyz', async (_request, reply) => {
    if (draining) return reply.status(503).send({ status: 'draining' });
    try {
      await db.query('SELECT 1');
      return { status: 'ready', database: db.kind };
    } catch (error) {
      server.log.error({ err: error }, 'database not reachable');
      return reply.status(503).send({ status: 'database unavailable' });
    }
  });

  registerStoreRoutes(server, services.stores, requireAdmin);
  registerCatalogRoutes(server, services.catalog, services.stores, requireAdmin);
  registerEventRoutes(server, services.events, requireAdmin);
  registerReadRoutes(server, {
    playerSettings: ({ pageUid }) => services.stores.playerSettings(pageUid),
    'liveEvents.shop': ({ pageUid }) => services.events.shopEvents(pageUid, now()),
    'liveEvents.byId': ({ ids }) => services.events.eventsByIds(ids),
    'liveEvents.byCampaign': ({ campaignIds }) => services.events.eventsByCampaigns(campaignIds),
    liveEventProducts: ({ eventId }) => services.events.eventProducts(eventId),
  });

  await server.register(fastifyStatic, {
    root: DEMO_MEDIA_DIR,
    prefix: '/demo-media/',
    decorateReply: false,
    maxAge: '1d',
  });
  await registerWebApp(server, config.webDist, {
    mainUrl: config.mainUrl,
    shopUrl: config.shopUrl,
    defaultPageUid: config.defaultPageUid,
  });

  return {
    server,
    services,
    markDraining() {
      draining = true;
    },
  };
}
