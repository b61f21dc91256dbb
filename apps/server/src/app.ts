import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import { createAuthService, SESSIONS_ENDED_TOPIC } from './features/auth/auth-service.ts';
import { registerAuthRoutes } from './features/auth/routes.ts';
import { registerCommerce } from './features/cart/commerce.ts';
import { createCatalogService } from './features/catalog/catalog-service.ts';
import { registerCatalogRoutes } from './features/catalog/routes.ts';
import { createEventService } from './features/events/event-service.ts';
import { registerEventRoutes } from './features/events/routes.ts';
import {
  createInteractionServices,
  type InteractionServices,
  registerInteractionRoutes,
} from './features/interaction.ts';
import { registerStoreRoutes } from './features/stores/routes.ts';
import { createStoreService } from './features/stores/store-service.ts';
import { registerTrackingRoutes } from './features/tracking/routes.ts';
import { createTrackingService } from './features/tracking/tracking-service.ts';
import { createAbuseLimiter } from './http/abuse-limits.ts';
import { requireAdminKey } from './http/admin-auth.ts';
import { registerErrorHandling } from './http/errors.ts';
import { registerPageSecurity } from './http/page-security.ts';
import { deleteStaleRateLimits } from './http/rate-limit.ts';
import { registerSdkScript } from './http/sdk-script.ts';
import { registerWebApp, runtimeConfigScript } from './http/web-app.ts';
import type { ChangeBus } from './realtime/change-bus.ts';
import { registerRealtimeGateway } from './realtime/gateway.ts';
import { createLiveQueryCatalogue } from './realtime/live-query-catalogue.ts';
import { createMemoryChangeBus } from './realtime/memory-change-bus.ts';
import { createOutbox, type OutboxDatabase, withOutbox } from './realtime/outbox.ts';
import { createPublisher } from './realtime/publisher.ts';
import { registerReadRoutes } from './realtime/read-catalogue.ts';

/** How often finished rate-limit windows are deleted. */
const RATE_LIMIT_SWEEP_INTERVAL_MS = 10 * 60_000;

export const DEMO_MEDIA_DIR = new URL('../demo/media/', import.meta.url).pathname;

export interface AppOptions {
  config: Config;
  db: Database;
  /** The clock; tests pass a fixed one. */
  now?: () => number;
  /** The change bus; by default the one the configuration names (closed with the server). */
  bus?: ChangeBus;
}

export interface App {
  server: FastifyInstance;
  services: ReturnType<typeof createServices> & InteractionServices;
  bus: ChangeBus;
  realtime: ReturnType<typeof registerRealtimeGateway>;
  /** Cart, orders and payments (issue 5). */
  commerce: ReturnType<typeof registerCommerce>;
  /** Flags the app as stopping so /readyz fails while in-flight requests finish. */
  markDraining(): void;
}

function createServices(db: Database, outboxDb: OutboxDatabase, now: () => number) {
  const stores = createStoreService(outboxDb);
  const catalog = createCatalogService(db);
  const events = createEventService(outboxDb, stores, catalog);
  const auth = createAuthService(outboxDb, { now });
  return { stores, catalog, events, auth };
}

/** The change bus of the configuration: Redis when REDIS_URL is set, else in-process. */
async function openChangeBus(config: Config, log: FastifyBaseLogger): Promise<ChangeBus> {
  if (!config.redisUrl) return createMemoryChangeBus();
  const { createRedisChangeBus } = await import('./realtime/redis-change-bus.ts');
  return createRedisChangeBus({
    url: config.redisUrl,
    keyPrefix: config.redisPrefix,
    onError: (error) => log.error({ err: error }, 'redis error'),
  });
}

/** Builds the HTTP server: API, admin API, reads, /sdk.js, demo media and the built web app, on one port. */
export async function buildApp({ config, db, now = Date.now, bus: givenBus }: AppOptions): Promise<App> {
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
    trustProxy: config.trustProxy,
  });
  registerErrorHandling(server);
  const bus = givenBus ?? (await openChangeBus(config, server.log));
  const outbox = createOutbox({ bus, log: server.log });
  // Changes committed while the server stops still reach the bus (without retries), then it closes.
  server.addHook('onClose', () => outbox.drain({ stop: true }));
  if (!givenBus) server.addHook('onClose', () => bus.close());
  const outboxDb = withOutbox(db, outbox);
  const baseServices = createServices(db, outboxDb, now);
  const services = {
    ...baseServices,
    ...createInteractionServices({
      db,
      outboxDb,
      now,
      log: server.log,
      config,
      auth: baseServices.auth,
      stores: baseServices.stores,
    }),
  };
  const requireAdmin = requireAdminKey(config.adminKey);
  const rateLimitSweep = setInterval(() => {
    deleteStaleRateLimits(db, now()).catch((error) =>
      server.log.error({ err: error }, 'deleting stale rate limits failed'),
    );
  }, RATE_LIMIT_SWEEP_INTERVAL_MS);
  rateLimitSweep.unref();
  server.addHook('onClose', async () => clearInterval(rateLimitSweep));
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
  registerCatalogRoutes(server, services.catalog, services.stores, services.events, requireAdmin);
  registerAuthRoutes(server, services.auth, { abuseLimits: config.abuseLimits });
  registerTrackingRoutes(server, createTrackingService(db), services.auth);
  registerInteractionRoutes(server, services, requireAdmin);
  const commerce = registerCommerce(server, {
    db,
    publish: createPublisher(bus, server.log),
    now,
    auth: services.auth,
    catalog: services.catalog,
    events: services.events,
    stores: services.stores,
    requireAdmin,
    limits: createAbuseLimiter({ db, now, enabled: config.abuseLimits }),
    payments: config,
  });
  registerEventRoutes(server, services.events, requireAdmin);
  registerReadRoutes(server, {
    playerSettings: ({ pageUid }) => services.stores.playerSettings(pageUid),
    'liveEvents.shop': ({ pageUid }) => services.events.shopEvents(pageUid, now()),
    'liveEvents.byId': ({ ids }) => services.events.eventsByIds(ids),
    'liveEvents.byCampaign': ({ campaignIds }) => services.events.eventsByCampaigns(campaignIds),
    liveEventProducts: ({ eventId }) => services.events.eventProducts(eventId),
    embedding: async ({ pageUid }) => ({
      allowedOrigins: (await services.stores.pageSummary(pageUid)).allowedOrigins,
    }),
  });

  const realtime = registerRealtimeGateway(server, {
    bus,
    catalogue: createLiveQueryCatalogue({ db, stores: services.stores, events: services.events, now }),
    verifyToken: (token) => services.auth.verifySession(token),
    sessionsEndedTopic: SESSIONS_ENDED_TOPIC,
    log: server.log,
  });

  registerSdkScript(server);
  await server.register(fastifyStatic, {
    root: DEMO_MEDIA_DIR,
    prefix: '/demo-media/',
    decorateReply: false,
    maxAge: '1d',
  });
  const webRuntime = {
    mainUrl: config.mainUrl,
    shopUrl: config.shopUrl,
    defaultPageUid: config.defaultPageUid,
  };
  registerPageSecurity(server, {
    defaultPageUid: config.defaultPageUid,
    inlineScripts: [runtimeConfigScript(webRuntime)],
    apiBaseUrls: [config.mainUrl, config.shopUrl],
    frameAncestors: async (owner) => {
      const pageUid =
        'pageUid' in owner ? owner.pageUid : await services.events.pageOfCampaign(owner.campaignUid);
      return pageUid ? (await services.stores.pageSummary(pageUid)).allowedOrigins : [];
    },
  });
  await registerWebApp(server, config.webDist, webRuntime);

  return {
    server,
    services,
    bus,
    realtime,
    commerce,
    markDraining() {
      draining = true;
    },
  };
}
