import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import pinoPretty from 'pino-pretty';
import { createServices, registerRoutes, type Services, startBackgroundWork } from './composition.ts';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import { SESSIONS_ENDED_TOPIC } from './features/auth/auth-service.ts';
import { startLiveIngest } from './features/live/live-ingest.ts';
import { firstAnswers, firstAnswersElement } from './features/public-pages/first-answers.ts';
import { renderPageHead } from './features/public-pages/page-head.ts';
import { publicPageAddress } from './features/public-pages/public-page-address.ts';
import { requireAdminKey } from './http/admin-auth.ts';
import { registerCompression } from './http/compression.ts';
import { registerErrorHandling } from './http/errors.ts';
import { registerPageSecurity } from './http/page-security.ts';
import { deleteStaleRateLimits } from './http/rate-limit.ts';
import { setResponseChecking } from './http/register-call.ts';
import { registerSdkScript } from './http/sdk-script.ts';
import { registerWebApp, runtimeConfigScript } from './http/web-app.ts';
import type { ChangeBus } from './realtime/change-bus.ts';
import { registerRealtimeGateway } from './realtime/gateway.ts';
import { createMemoryChangeBus } from './realtime/memory-change-bus.ts';
import { createOutbox, withOutbox } from './realtime/outbox.ts';
import { createMemoryPresenceStore, createPresence, type PresenceStore } from './realtime/presence.ts';
import type { ScheduleTimer } from './schedule-timer.ts';
import { registerServerStatus } from './server-status.ts';

/** A request answered slower than this is logged at warn. */
export const SLOW_REQUEST_MS = 1000;

/**
 * One log line per answered request: at warn when it failed (5xx) or took over SLOW_REQUEST_MS,
 * else at debug on a terminal (a person reads it; every request would bury the banner) and at
 * info in JSON logs (a log pipeline keeps them).
 */
function logAnsweredRequests(server: FastifyInstance, options: { quiet: boolean }): void {
  server.addHook('onResponse', async (request, reply) => {
    const ms = Math.round(reply.elapsedTime);
    const level = reply.statusCode >= 500 || ms > SLOW_REQUEST_MS ? 'warn' : options.quiet ? 'debug' : 'info';
    request.log[level](
      { method: request.method, url: request.url, statusCode: reply.statusCode, ms },
      reply.statusCode >= 500 ? 'request failed' : ms > SLOW_REQUEST_MS ? 'slow request' : 'request',
    );
  });
}

/** How often finished rate-limit windows are deleted. */
const RATE_LIMIT_SWEEP_INTERVAL_MS = 10 * 60_000;

export const DEMO_MEDIA_DIR = new URL('../demo/media/', import.meta.url).pathname;
/** How often a stopping node closes the connections that have gone idle since. */
const CLOSE_IDLE_SWEEP_MS = 200;
/** Where the demo media are served (the demo store's photos and videos). */
const DEMO_MEDIA_PREFIX = '/demo-media/';

/** The demo media's MP4 file behind a video URL (`/demo-media/demo-show.mp4`), or null for any other URL. */
function demoMediaFile(videoUrl: string): string | null {
  if (!videoUrl.startsWith(DEMO_MEDIA_PREFIX)) return null;
  const name = videoUrl.slice(DEMO_MEDIA_PREFIX.length);
  // One file name of the folder, nothing above it.
  return /^[a-z0-9][a-z0-9-]*\.mp4$/.test(name) ? join(DEMO_MEDIA_DIR, name) : null;
}

export interface AppOptions {
  config: Config;
  db: Database;
  /** The clock; tests pass a fixed one. */
  now?: () => number;
  /** The change bus; by default the one the configuration names (closed with the server). */
  bus?: ChangeBus;
  /** Timers of timed work tests drive (the test payment confirmation); real ones by default. */
  scheduleTimer?: ScheduleTimer;
  /** The analytics rollup's timer (every 15 s); tests fire it themselves. */
  analyticsTimer?: ScheduleTimer;
}

export interface App {
  server: FastifyInstance;
  /** Every service, built by the composition root (composition.ts). */
  services: Services;
  bus: ChangeBus;
  realtime: ReturnType<typeof registerRealtimeGateway>;
  /** Flags the app as stopping so /readyz fails while in-flight requests finish. */
  markDraining(): void;
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

/** Where the nodes' viewer counts meet: Redis when REDIS_URL is set, else in process. */
async function openPresenceStore(config: Config): Promise<PresenceStore> {
  if (!config.redisUrl) return createMemoryPresenceStore();
  const { createRedisPresenceStore } = await import('./realtime/presence-redis.ts');
  return createRedisPresenceStore({ url: config.redisUrl, keyPrefix: config.redisPrefix });
}

/** Builds the HTTP server: API, admin API, reads, /sdk.js, demo media and the built web app, on one port. */
export async function buildApp({
  config,
  db,
  now = Date.now,
  bus: givenBus,
  scheduleTimer,
  analyticsTimer,
}: AppOptions): Promise<App> {
  const server = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            // Written through process.stdout in this thread, in order with the plain lines the
            // start prints, so its last block (the banner) comes last.
            stream: config.logPretty
              ? pinoPretty({ translateTime: 'HH:MM:ss', ignore: 'pid,hostname', sync: true })
              : process.stdout,
          },
    // One line per answered request instead (logAnsweredRequests), quiet unless slow or failing.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 256 * 1024,
    trustProxy: config.trustProxy,
  });
  logAnsweredRequests(server, { quiet: config.logPretty });
  registerErrorHandling(server);
  setResponseChecking(server, config.checkResponses);
  await registerCompression(server);
  const bus = givenBus ?? (await openChangeBus(config, server.log));
  const outbox = createOutbox({ bus, log: server.log });
  const presence = createPresence({ store: await openPresenceStore(config), bus, log: server.log });
  const services = createServices({
    db,
    outboxDb: withOutbox(db, outbox),
    now,
    log: server.log,
    config,
    presence,
    analyticsTimer,
    bus,
    ownVideoFile: demoMediaFile,
  });
  const requireAdmin = requireAdminKey(config.adminKey, services.authFailures);
  const rateLimitSweep = setInterval(() => {
    deleteStaleRateLimits(db, now()).catch((error) =>
      server.log.error({ err: error }, 'deleting stale rate limits failed'),
    );
  }, RATE_LIMIT_SWEEP_INTERVAL_MS);
  rateLimitSweep.unref();
  server.addHook('onClose', async () => clearInterval(rateLimitSweep));
  let draining = false;
  // While the node stops, connections are closed as soon as they are idle, not only those idle
  // when the stop began: a request in flight then (a viewer's blocking playlist reload) leaves a
  // keep-alive connection the close would wait on for its whole idle timeout (72 s; the stop was
  // ended by its 10 s bound, exit 1). Answers in flight are still given.
  let idleSweep: NodeJS.Timeout | undefined;
  server.addHook('preClose', async () => {
    idleSweep = setInterval(() => server.server.closeIdleConnections(), CLOSE_IDLE_SWEEP_MS);
    idleSweep.unref();
  });
  server.addHook('onClose', async () => clearInterval(idleSweep));

  server.get('/healthz', async () => ({ status: 'ok' }));
  // Without its database the node can do nothing: 503. Without its change bus it still serves
  // reads and writes (the outbox keeps the changes for when Redis returns): 200, a load balancer
  // keeps it, and the body says `degraded`, whether the bus is reachable and what waits for it —
  // unless a show is running that this node serves only through the bus: then 503, `failing: bus`.
  server.get('/readyz', async (_request, reply) => {
    if (draining) return reply.status(503).send({ status: 'draining' });
    try {
      await db.query('SELECT 1');
    } catch (error) {
      server.log.error({ err: error }, 'database not reachable');
      return reply.status(503).send({ status: 'database unavailable' });
    }
    const reachable = bus.reachable();
    const waiting = outbox.stats();
    // A node that does not hold a running show serves its live edge only through the bus: without
    // it, viewers sent here get 404s, so the load balancer must send them elsewhere (503).
    if (!reachable && bus.kind === 'redis') {
      const elsewhere = await services.live.runningShowsHeldElsewhere();
      if (elsewhere.length > 0)
        return reply.status(503).send({
          status: 'unavailable',
          failing: 'bus',
          message: `The change bus (${bus.kind}) is unreachable, so this node cannot serve the live edge of ${elsewhere.length} running show(s) ingested on another node.`,
          database: db.kind,
          bus: { kind: bus.kind, reachable },
          outbox: waiting,
          live: { runningShowsNotServed: elsewhere.length },
        });
    }
    // Without its media worker a node still sells (checkout, replays in the store): 200, and the
    // body says the live edge of running shows is not served until the worker is back.
    const media =
      services.live.mediaKind === 'worker'
        ? { kind: 'worker' as const, reachable: services.live.mediaReachable() }
        : { kind: 'inline' as const, reachable: true };
    return {
      status: reachable && media.reachable && waiting.failingTopics === 0 ? 'ready' : 'degraded',
      database: db.kind,
      bus: { kind: bus.kind, reachable },
      media,
      outbox: waiting,
      // Refused failed authentications and studio writes since start (issue 33 §6), each also logged.
      authRefusals: services.authFailures.refusals(),
    };
  });

  registerRoutes(server, services, { db, now, config, requireAdmin, scheduleTimer });
  registerServerStatus(server, {
    config,
    requireAdmin,
    ingest: () => services.live.ingestPorts(),
    ffmpeg: services.live.ffmpeg,
    now,
  });
  startBackgroundWork(server, services);
  // Before the live service's: the premieres' timers stop before their streams do.
  server.addHook('onClose', async () => services.premieres.close());
  await startLiveIngest(server, services.live, config);
  // After the live service recovered its streams: a premiere that was playing publishes again.
  await services.premieres.resume();
  // Registered after the background work's hooks, so they run after it stopped (Fastify runs a
  // context's onClose hooks in order): what it committed still reaches the bus, then the bus closes.
  server.addHook('onClose', () => outbox.drain({ stop: true }));
  // Before the bus closes: its last tick may still publish.
  server.addHook('onClose', () => presence.close());
  if (!givenBus) server.addHook('onClose', () => bus.close());

  const realtime = registerRealtimeGateway(server, {
    bus,
    catalogue: services.liveQueries,
    verifyToken: (token) => services.auth.verifySession(token),
    sessionsEndedTopic: SESSIONS_ENDED_TOPIC,
    log: server.log,
  });
  // A viewer of a show is a connection following its products, which every player opens. A show
  // whose count someone here follows (a studio, a player) is reported too, at 0 when none of its
  // viewers is here: its total can change without this node (another node's viewers leave, or that
  // node stops and its count goes stale), and a node that reports it is one that can announce it.
  presence.countViewersWith(() => {
    const counts = new Map(realtime.audience('viewerCount').map((entry) => [entry.params.eventId, 0]));
    for (const entry of realtime.audience('liveEventProducts'))
      counts.set(entry.params.eventId, entry.connections);
    return counts;
  });

  // The control rooms open on this node are the ones it reads and pushes figures for.
  services.roomBroadcast.watchRoomsOf(() => realtime.audience('controlRoom').map((entry) => entry.params));
  services.roomBroadcast.recheckWith(() => realtime.recheck('controlRoom'));

  registerSdkScript(server);
  await server.register(fastifyStatic, {
    root: DEMO_MEDIA_DIR,
    prefix: DEMO_MEDIA_PREFIX,
    decorateReply: false,
    maxAge: '1d',
  });
  // The store at `/`: the configured one, else the first store made, looked up until there is
  // one (before it, `/` is the setup page).
  let firstStore: string | null = null;
  const defaultPageUid = async (): Promise<string> => {
    if (config.defaultPageUid !== null) return config.defaultPageUid;
    firstStore ??= await services.stores.firstPageUid();
    return firstStore ?? '';
  };
  const webRuntime = async () => ({
    mainUrl: config.mainUrl,
    shopUrl: config.shopUrl,
    defaultPageUid: await defaultPageUid(),
  });
  registerPageSecurity(server, {
    defaultPageUid,
    inlineScripts: async () => [runtimeConfigScript(await webRuntime())],
    apiBaseUrls: [config.mainUrl, config.shopUrl],
    frameAncestors: async (owner) => {
      const pageUid =
        'pageUid' in owner ? owner.pageUid : await services.events.pageOfCampaign(owner.campaignUid);
      return pageUid ? (await services.stores.pageSummary(pageUid)).allowedOrigins : [];
    },
  });
  await registerWebApp(server, config.webDist, webRuntime, async (request) => {
    const url = new URL(request.url, 'http://localhost');
    const origin = config.publicUrl ?? `${request.protocol}://${request.host}`;
    const head = await services.publicPages.pageHead(url.pathname, url.searchParams, origin);
    if (!head) return null;
    // The reads the page's first paint waits for, answered in the page (a round trip less on a phone).
    const address = publicPageAddress(url.pathname, await defaultPageUid());
    const answers = address ? await firstAnswers(server, address) : {};
    const html = [renderPageHead(head)];
    if (Object.keys(answers).length > 0) html.push(firstAnswersElement(answers));
    return { lang: head.lang, html: html.join('\n    '), route: head.page };
  });

  return {
    server,
    services,
    bus,
    realtime,
    markDraining() {
      draining = true;
    },
  };
}
