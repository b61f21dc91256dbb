import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { MAX_IMAGE_UPLOAD_BYTES } from '@vitrine/domain';
import { WHIP_PATH } from '@vitrine/protocol';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import { createReadCache } from './db/read-cache.ts';
import { sharedSecret } from './db/server-secrets.ts';
import { registerAnalyticsRoutes } from './features/analytics/analytics-routes.ts';
import { createAnalyticsService } from './features/analytics/analytics-service.ts';
import { createAccountRecovery } from './features/auth/account-recovery.ts';
import { registerAccountRoutes } from './features/auth/account-routes.ts';
import { createAccountService } from './features/auth/account-service.ts';
import { createAuthService } from './features/auth/auth-service.ts';
import { createOidcService } from './features/auth/oidc.ts';
import { registerRecoveryRoutes } from './features/auth/recovery-routes.ts';
import { registerAuthRoutes } from './features/auth/routes.ts';
import { createCatalogService } from './features/catalog/catalog-service.ts';
import { fetchRemoteImage } from './features/catalog/remote-image.ts';
import { createStudioCatalogueService } from './features/catalog/studio-catalogue-service.ts';
import { registerStudioCatalogueRoutes } from './features/catalog/studio-routes.ts';
import { createCartService } from './features/checkout/cart-service.ts';
import { checkoutLiveQueries } from './features/checkout/live-queries.ts';
import { createOrderAdminService } from './features/checkout/order-admin.ts';
import { registerStudioOrderRoutes } from './features/checkout/order-admin-routes.ts';
import { createOrderService } from './features/checkout/order-service.ts';
import { createPaymentService } from './features/checkout/payment-service.ts';
import { createStripeProvider } from './features/checkout/payments/stripe-provider.ts';
import { createTestPaymentProvider } from './features/checkout/payments/test-provider.ts';
import { registerCheckoutRoutes } from './features/checkout/routes.ts';
import { createStockAnnouncer } from './features/checkout/stock-announcer.ts';
import { registerClipRoutes } from './features/clips/clip-routes.ts';
import { createClipService } from './features/clips/clip-service.ts';
import { createCommentService } from './features/comments/comment-service.ts';
import { commentLiveQueries } from './features/comments/live-queries.ts';
import { registerModerationRoutes } from './features/comments/moderation-routes.ts';
import { createModerationService } from './features/comments/moderation-service.ts';
import { registerCommentRoutes } from './features/comments/routes.ts';
import { createViewerBans } from './features/comments/viewer-bans.ts';
import { createCompetitionService } from './features/competitions/competition-service.ts';
import { registerCompetitionRoutes } from './features/competitions/routes.ts';
import { registerStudioCompetitionRoutes } from './features/competitions/studio-routes.ts';
import { createContactService } from './features/contacts/contact-service.ts';
import { registerContactRoutes } from './features/contacts/routes.ts';
import { registerControlRoomRoutes } from './features/control-room/control-room-routes.ts';
import { createControlRoomService } from './features/control-room/control-room-service.ts';
import { controlRoomLiveQueries } from './features/control-room/live-queries.ts';
import { createRoomBroadcaster } from './features/control-room/room-broadcast.ts';
import { createEventService } from './features/events/event-service.ts';
import { eventLiveQueries } from './features/events/live-queries.ts';
import { createProductPresentations } from './features/events/product-presentations.ts';
import { registerEventRoutes } from './features/events/routes.ts';
import { createShowService } from './features/events/show-service.ts';
import { registerStudioShowRoutes } from './features/events/studio-show-routes.ts';
import { createFlashDealService } from './features/flash-deals/flash-deal-service.ts';
import { registerFlashDealRoutes } from './features/flash-deals/routes.ts';
import { discoverFfmpeg } from './features/live/ffmpeg-binary.ts';
import { createRedisLiveRelay } from './features/live/live-relay.ts';
import { registerLiveRoutes } from './features/live/live-routes.ts';
import { createLiveService, LIVE_PREVIEW_SECRET } from './features/live/live-service.ts';
import { createLocalMediaEngine } from './features/live/media-engine.ts';
import { connectMediaWorker } from './features/live/media-worker-client.ts';
import { createDiskSegmentStore, createS3SegmentStore } from './features/live/segment-store.ts';
import { registerWhipProxy } from './features/live/whip-proxy.ts';
import { registerWhipRoutes } from './features/live/whip-routes.ts';
import { createMailDelivery } from './features/mail/mail-delivery.ts';
import { registerMailDeliveryRoutes } from './features/mail/mail-delivery-routes.ts';
import { createMailService, MAIL_SWEEP_INTERVAL_MS } from './features/mail/mail-service.ts';
import { registerMailRoutes } from './features/mail/routes.ts';
import { createMediaService } from './features/media/media-service.ts';
import { createFileMediaStore } from './features/media/media-store.ts';
import { registerMediaRoutes } from './features/media/routes.ts';
import { notificationLiveQueries } from './features/notifications/live-queries.ts';
import { createNotificationService } from './features/notifications/notification-service.ts';
import { discoverPremiereTools } from './features/premiere/media-probe.ts';
import { registerPremiereRoutes } from './features/premiere/premiere-routes.ts';
import { createPremiereService } from './features/premiere/premiere-service.ts';
import { createPublicPagesService } from './features/public-pages/public-pages-service.ts';
import { registerPublicPageRoutes } from './features/public-pages/routes.ts';
import { reactionLiveQueries } from './features/reactions/live-queries.ts';
import { createReactionService } from './features/reactions/reaction-service.ts';
import { registerReactionRoutes } from './features/reactions/routes.ts';
import { registerRestreamRoutes } from './features/restream/restream-routes.ts';
import { createRestreamService } from './features/restream/restream-service.ts';
import { registerShowSearchRoutes } from './features/search/routes.ts';
import { createShowSearchService } from './features/search/show-search-service.ts';
import { createFirstRunSetup } from './features/staff/first-run-setup.ts';
import { registerStaffRoutes, studioLinkUrl } from './features/staff/routes.ts';
import { registerSetupRoutes } from './features/staff/setup-routes.ts';
import { createStaffGate } from './features/staff/staff-gate.ts';
import { createStaffService } from './features/staff/staff-service.ts';
import { storeLiveQueries } from './features/stores/live-queries.ts';
import { registerStoreRoutes } from './features/stores/routes.ts';
import { registerStoreSettingsRoutes } from './features/stores/settings-routes.ts';
import { createStoreService } from './features/stores/store-service.ts';
import { registerTrackingRoutes } from './features/tracking/routes.ts';
import { createTrackingService } from './features/tracking/tracking-service.ts';
import { userLiveQueries } from './features/users/live-queries.ts';
import { registerUserRoutes } from './features/users/routes.ts';
import { createUserService } from './features/users/user-service.ts';
import { createAbuseLimiter } from './http/abuse-limits.ts';
import { createAddressHasher } from './http/address-hash.ts';
import { createAuthFailureLimiter } from './http/auth-failure-limit.ts';
import type { ChangeBus } from './realtime/change-bus.ts';
import type { LiveQueryCatalogue } from './realtime/live-query.ts';
import type { OutboxDatabase } from './realtime/outbox.ts';
import { type Presence, presenceLiveQueries } from './realtime/presence.ts';
import { registerReadRoutes } from './realtime/read-catalogue.ts';
import { type ScheduleTimer, scheduleRealTimer } from './schedule-timer.ts';

/** How long an imported image may take to download before it stays linked instead. */
const IMPORT_IMAGE_TIMEOUT_MS = 10_000;

/** How often carts whose stock hold ran out are swept, giving their units back. */
export const EXPIRED_CART_SWEEP_INTERVAL_MS = 30_000;

export interface CompositionDeps {
  db: Database;
  /**
   * `db` with the outbox: services whose writes viewers follow write through it and stage their
   * changes in its transactions (tx.publish), published after COMMIT.
   */
  outboxDb: OutboxDatabase;
  now: () => number;
  log: FastifyBaseLogger;
  config: Config;
  /** Concurrent viewers per show, across nodes (it needs the bus and the gateway, so the app makes it). */
  presence: Presence;
  /** The analytics rollup's timer; tests pass one they fire instead of waiting. */
  analyticsTimer?: ScheduleTimer;
  /** The change bus, for what publishes outside a transaction (the control rooms' figures). */
  bus: ChangeBus;
  /** This server's own MP4 behind a video URL (the demo media), or null: clips are cut from it. */
  ownVideoFile?: (videoUrl: string) => string | null;
}

/**
 * The composition root: builds every service of every feature, wiring each to the services it
 * calls, and the live-query catalogue the realtime gateway serves. Nothing else constructs services.
 */
export function createServices({
  db,
  outboxDb,
  now,
  log,
  config,
  presence,
  analyticsTimer,
  bus,
  ownVideoFile,
}: CompositionDeps) {
  const stores = createStoreService(outboxDb);
  const catalog = createCatalogService(db, now);
  /** The studio's catalogue: list, archive, import and export (shows ask it what is archived). */
  const studioCatalogue = createStudioCatalogueService(db, catalog, stores, now);
  /** Uploaded images; other features store theirs through `media.storeImage`. */
  const media = createMediaService(createFileMediaStore(config.mediaDir));
  const events = createEventService(outboxDb, stores, catalog, now);
  /** Where recordings (and the clips cut from them) are kept: a folder, or an S3-compatible bucket. */
  const segmentStore =
    config.live.segmentStore.kind === 's3'
      ? createS3SegmentStore(config.live.segmentStore)
      : createDiskSegmentStore(config.live.dir);
  const ffmpeg = discoverFfmpeg(config.live.ffmpegPath);
  /** Clips cut from ended shows' recordings (a product's chapter, a highlight), in the segment store. */
  const clips = createClipService({ db, events, segments: segmentStore, ffmpeg, now, log, ownVideoFile });
  /** Heads of the public pages, robots.txt and the sitemap (search engines and chat apps). */
  const publicPages = createPublicPagesService({
    stores,
    events,
    clips,
    defaultPageUid: async () => config.defaultPageUid ?? (await stores.firstPageUid()) ?? '',
    now,
  });
  const shows = createShowService({
    db: outboxDb,
    events,
    catalog,
    now,
    // The store's setting (studio settings, time zone); shows keep the zone they were made in.
    storeTimeZone: (pageUid) => stores.timeZone(pageUid),
  });
  /** Live shows: stream keys, ingest, packaging into HLS, Go live / End (which change the event). */
  const live = createLiveService({
    db,
    events,
    now,
    log,
    config: config.live,
    ffmpeg,
    previewSecret: async () => {
      const key = await sharedSecret(db, LIVE_PREVIEW_SECRET, 32);
      if (!key) throw new Error(`server_secrets.${LIVE_PREVIEW_SECRET} is missing`);
      return key;
    },
    segments: segmentStore,
    media: (controller) =>
      config.live.media.kind === 'inline'
        ? createLocalMediaEngine({
            log,
            now,
            config: config.live,
            ffmpeg,
            segments: segmentStore,
            controller,
          })
        : connectMediaWorker({ media: config.live.media, controller, log, config }),
    onShowEnded: (eventId) =>
      void clips
        .showEnded(eventId)
        .catch((error) => log.error({ err: error, eventId }, 'cutting clips failed')),
    relay: config.redisUrl
      ? createRedisLiveRelay({
          url: config.redisUrl,
          keyPrefix: config.redisPrefix,
          onError: (error) => log.error({ err: error }, 'live relay (redis) error'),
        })
      : null,
  });
  /** Premieres: an uploaded video played as live at its time through the live service, then the replay. */
  const premieres = createPremiereService({
    db,
    events,
    shows,
    live,
    tools: discoverPremiereTools(ffmpeg),
    // Beside the recordings; a dot name is never a show's id (recordings are named by it).
    dir: join(config.live.dir, '.premieres'),
    now,
    log,
    scheduleTimer: scheduleRealTimer,
    origin: config.publicUrl ?? `http://localhost:${config.port}`,
  });
  /** Restreaming: a live show sent on to RTMP/RTMPS destinations (YouTube, Facebook…) by one ffmpeg each. */
  const restream = createRestreamService({ db, events, now, log, ffmpeg });
  const users = createUserService(outboxDb, log);
  const auth = createAuthService(outboxDb, { users, now });
  const tracking = createTrackingService(db);
  /** Per-user and per-address limits of pings, cart changes, comments and contact captures. */
  const limits = createAbuseLimiter({ db, now, enabled: config.abuseLimits });
  /** The front page's and the SDK's search for products across public shows. */
  const showSearch = createShowSearchService({ catalog, events, limits, now });
  /** Client addresses as a keyed hash, never stored in clear (bans by address, per-address counters). */
  const hashAddress = createAddressHasher(db);
  /** Chat bans that cover the banned viewer's device and, by the store's choice, address. */
  const viewerBans = createViewerBans({
    db,
    now,
    hashAddress,
    storeExists: (pageUid) => stores.pageExists(pageUid),
  });
  /** Failed admin keys and one-time links per address, and studio writes per staff member (issue 33 §6). */
  const authFailures = createAuthFailureLimiter({ db, now, enabled: config.abuseLimits, log, hashAddress });

  const notifications = createNotificationService(outboxDb, now);
  const comments = createCommentService({
    db: outboxDb,
    now,
    notifications,
    events,
    stores,
    users,
    rateLimit: config.commentRateLimit,
    limits,
  });
  const reactions = createReactionService(outboxDb, now, events);
  const contacts = createContactService(db, users, now, limits, stores);
  const competitions = createCompetitionService({
    db: outboxDb,
    now,
    comments,
    events,
    notifications,
    users,
    limits,
    stores,
    contacts,
  });
  const accounts = createAccountService(outboxDb, auth, users, now, {
    abuseLimits: config.abuseLimits,
    signUpLimit: config.signUpLimit,
  });
  const oidc = createOidcService(db, config.oidcProviders, { now, log });

  const stockAnnouncer = createStockAnnouncer(
    (productUid) => events.republishProduct(productUid),
    (error) => log.error({ err: error }, 'announcing a stock change failed'),
  );
  const cart = createCartService({
    db: outboxDb,
    catalog,
    onStockChanged: (productUid) => stockAnnouncer.changed(productUid),
    now,
    limits,
    stores,
    events,
    users,
    reads: createReadCache({ db }),
  });
  /** Flash deals on the stream clock (issue 30 §3): their adds go through the cart at the deal price. */
  const flashDeals = createFlashDealService({
    db: outboxDb,
    now,
    catalog,
    events,
    cart,
    reportedDelayMs: (input) => tracking.latestDelayOf(input),
  });
  const orders = createOrderService({ db: outboxDb, stores, now, events, users });
  // The test provider only when enabled (VITRINE_TEST_PAYMENTS): anyone can approve its payments.
  const testProvider = config.testPayments ? createTestPaymentProvider(db) : null;
  const stripe = config.stripe ? createStripeProvider(config.stripe) : null;
  // The first takes new payments; webhooks of every configured one are accepted.
  const paymentProviders = [stripe, testProvider].filter((provider) => provider !== null);
  /** Mails are kept in mail_outbox, and sent over SMTP when SMTP_URL is set. */
  const mail = createMailService({
    db,
    now,
    log,
    smtpUrl: config.mail.smtpUrl,
    from: config.mail.from,
  });
  // The checkout knows nothing of mail: shipped and refunded orders are handed over here.
  const tellShopper = (
    checkoutUid: string,
    news: (notice: NonNullable<Awaited<ReturnType<typeof orderAdmin.shopperNotice>>>) => Promise<void>,
  ) =>
    void orderAdmin
      .shopperNotice(checkoutUid)
      .then((notice) => (notice ? news(notice) : undefined))
      .catch((error) => log.error({ err: error, checkoutUid }, 'sending an order mail failed'));
  const orderAdmin = createOrderAdminService({
    db: outboxDb,
    orders,
    events,
    stores,
    users,
    providers: paymentProviders,
    now,
    mailHooks: {
      onShipped: (checkoutUid) =>
        tellShopper(checkoutUid, async (notice) => {
          if (notice.shipment) {
            await mail.orderNews(notice, {
              template: 'orderShipped',
              data: { ...notice, ...notice.shipment },
            });
          }
        }),
      onRefunded: (checkoutUid, refund) =>
        tellShopper(checkoutUid, (notice) =>
          mail.orderNews(notice, {
            template: 'orderRefunded',
            data: { ...notice, amount: refund.amount, currency: refund.currency },
            key: refund.key,
          }),
        ),
    },
  });
  const payments = createPaymentService({
    db: outboxDb,
    providers: paymentProviders,
    orders,
    stores,
    now,
    onProviderError: (error) => log.error({ err: error }, 'opening a payment failed'),
    // The checkout knows nothing of mail: a paid order is handed over here.
    onOrderPaid: (checkoutUid) =>
      void orderAdmin
        .paidOrder(checkoutUid)
        .then((order) => (order ? mail.orderPaid(order) : undefined))
        .catch((error) => log.error({ err: error, checkoutUid }, 'sending the order mails failed')),
  });

  /** Show analytics: rollups of the tracking events and the show's orders. */
  const analytics = createAnalyticsService({
    db,
    tracking,
    showOrders: (campaignUid) => orderAdmin.showOrders(campaignUid, { money: true }),
    participation: (campaignUid) => competitions.participationPerMinute(campaignUid),
    flashDeals: (pageUid, campaignUid) => flashDeals.list(pageUid, campaignUid),
    events,
    shows,
    now,
    log,
    retentionDays: config.trackingRetentionDays,
    scheduleTimer: analyticsTimer ?? scheduleRealTimer,
  });

  const staff = createStaffService({ db, users, stores, sessions: auth, now });
  const staffGate = createStaffGate({ staff, auth, adminKey: config.adminKey, failures: authFailures });
  /** The first store and its owner, made on the setup page while the database has no store. */
  const setup = createFirstRunSetup({ db, stores, users, staff, accounts, sessions: auth, now });
  /** E-mailed sign-in links (the staff feature's studio links) and password resets. */
  const recovery = createAccountRecovery({
    db,
    users,
    auth,
    accounts,
    createSignInLink: (userUid, ttlMs) => staff.createStudioLink(userUid, ttlMs),
    signInLinkUrl: studioLinkUrl,
    // Mails with a one-time sign-in credential; nobody's store outbox lists them.
    sendMail: async ({ template, to, locale, url, expiresAt }) =>
      void (await mail.sendMail({ pageUid: null, to, locale, template, data: { url, expiresAt } })),
    now,
    log,
  });
  /** Live chat moderation: bans, hidden and held comments, questions, slow mode, announcements. */
  const moderation = createModerationService({
    db: outboxDb,
    now,
    comments,
    users,
    staff,
    actionLimit: config.moderationRateLimit,
  });

  /** The control room: presentations are the events feature's cues; the rest asks the features' services. */
  const controlRoom = createControlRoomService({
    now,
    shows,
    events,
    presentations: createProductPresentations({ db: outboxDb, events, now }),
    catalog,
    live,
    presence,
    tracking,
    showOrders: (campaignUid) => orderAdmin.showOrders(campaignUid),
    competitions,
    // A draw leaves out viewers banned from the store's chat.
    exclusions: { bannedViewers: (pageUid) => moderation.bannedViewers(pageUid) },
    boardKey: async (pageUid, showUid) =>
      createHash('sha256')
        .update(JSON.stringify(await moderation.board(pageUid, await shows.campaignOf(pageUid, showUid))))
        .digest('base64url')
        .slice(0, 22),
    origin: linkOrigin(config),
  });
  /** Pushes the watched control rooms' figures when they change (the gateway says which are watched). */
  const roomBroadcast = createRoomBroadcaster({ room: controlRoom, bus, log });

  const liveQueries: LiveQueryCatalogue = {
    ...storeLiveQueries(stores),
    ...eventLiveQueries(db, events, now),
    ...commentLiveQueries(db, now),
    ...reactionLiveQueries(),
    ...notificationLiveQueries(db),
    ...checkoutLiveQueries(db, now),
    ...userLiveQueries(db),
    ...presenceLiveQueries(presence),
    ...controlRoomLiveQueries({
      room: controlRoom,
      roleOf: (pageUid, userUid) => staff.roleOf(pageUid, userUid),
    }),
  };

  return {
    stores,
    staff,
    staffGate,
    setup,
    recovery,
    mail,
    /** The studio's view of mail delivery: settings in use, undelivered mails, a test mail. */
    mailDelivery: createMailDelivery({ db, mail, smtpUrl: config.mail.smtpUrl }),
    catalog,
    studioCatalogue,
    media,
    events,
    shows,
    live,
    premieres,
    restream,
    auth,
    tracking,
    analytics,
    controlRoom,
    roomBroadcast,
    limits,
    hashAddress,
    authFailures,
    viewerBans,
    users,
    notifications,
    comments,
    moderation,
    reactions,
    contacts,
    competitions,
    accounts,
    oidc,
    stockAnnouncer,
    cart,
    flashDeals,
    orders,
    orderAdmin,
    payments,
    paymentProviders,
    testProvider,
    liveQueries,
    presence,
    publicPages,
    showSearch,
    clips,
  };
}

export type Services = ReturnType<typeof createServices>;

/**
 * Where links in mails point: the public URL, else this server's own address. Never a request's
 * Host header, which someone asking for another person's sign-in link could point at their site.
 */
export function linkOrigin(config: Config): string {
  if (config.publicUrl) return config.publicUrl;
  const host = ['0.0.0.0', '::', ''].includes(config.host)
    ? 'localhost'
    : config.host.includes(':')
      ? `[${config.host}]`
      : config.host;
  return `http://${host}:${config.port}`;
}

/** Registers every feature's HTTP routes and the read catalogue's snapshot route. */
export function registerRoutes(
  app: FastifyInstance,
  services: Services,
  deps: {
    db: Database;
    now: () => number;
    config: Config;
    requireAdmin: onRequestHookHandler;
    scheduleTimer?: ScheduleTimer;
  },
): void {
  const { auth, stores, events } = services;
  const { requireAdmin, now } = deps;
  /** The origin links point at: the configured public URL, else the request's own. */
  const publicOrigin = (request: FastifyRequest) =>
    deps.config.publicUrl ?? `${request.protocol}://${request.host}`;
  registerStoreRoutes(app, stores, requireAdmin);
  registerMediaRoutes(app, services.media);
  registerStudioCatalogueRoutes(app, {
    now,
    studio: services.studioCatalogue,
    media: services.media,
    staffGate: services.staffGate,
    storeCurrency: async (pageUid) => (await stores.pageSummary(pageUid)).currency,
    // The store's own currency until store settings say which others it sells in.
    storeCurrencies: async (pageUid) => [(await stores.pageSummary(pageUid)).currency],
    republishProducts: (productUids) => events.republishProducts(productUids),
    ...(deps.config.importImages === 'link'
      ? {}
      : {
          copyImage: async (pageUid: string, url: string) => {
            const bytes = await fetchRemoteImage(url, {
              maxBytes: MAX_IMAGE_UPLOAD_BYTES,
              timeoutMs: IMPORT_IMAGE_TIMEOUT_MS,
              allowPrivateAddresses: deps.config.importImages === 'copy-any-address',
            });
            return (await services.media.storeImage(pageUid, bytes, 'product')).url;
          },
        }),
  });
  registerAuthRoutes(app, auth, { abuseLimits: deps.config.abuseLimits });
  registerTrackingRoutes(app, services.tracking, auth, { eventsPerMinute: deps.config.trackingLimit });
  registerAccountRoutes(app, services);
  registerUserRoutes(app, services.users, auth);
  registerCommentRoutes(app, services.comments, auth, services.viewerBans);
  registerReactionRoutes(app, services.reactions, auth, services.viewerBans);
  registerCompetitionRoutes(app, services.competitions, auth, services.viewerBans);
  registerPublicPageRoutes(app, services.publicPages, publicOrigin);
  registerShowSearchRoutes(app, services.showSearch);
  registerClipRoutes(app, { clips: services.clips, staffGate: services.staffGate });
  registerContactRoutes(app, services.contacts, auth, services.staffGate);
  registerStudioOrderRoutes(app, services.orderAdmin, services.staffGate);
  registerAnalyticsRoutes(app, services.analytics, services.staffGate);
  registerMailRoutes(app, services.mail, services.staffGate);
  registerMailDeliveryRoutes(app, {
    delivery: services.mailDelivery,
    staff: services.staff,
    stores: services.stores,
    staffGate: services.staffGate,
  });
  registerCheckoutRoutes(app, services, {
    db: deps.db,
    now,
    scheduleTimer: deps.scheduleTimer,
  });
  registerEventRoutes(app, events, requireAdmin);
  registerStaffRoutes(app, {
    staff: services.staff,
    stores,
    auth,
    staffGate: services.staffGate,
    failures: services.authFailures,
    // In the store's language: the invited person has no account (or language) with us yet.
    sendInvitation: async ({ pageUid, email, role, url, expiresAt }) => {
      const [summary, storeName] = await Promise.all([stores.pageSummary(pageUid), stores.pageName(pageUid)]);
      await services.mail.sendMail({
        pageUid,
        to: email,
        locale: summary.language,
        template: 'staffInvitation',
        data: { storeName: storeName ?? '', role, url, expiresAt },
      });
    },
    publicOrigin,
  });
  registerSetupRoutes(app, services.setup);
  registerRecoveryRoutes(app, services.recovery, linkOrigin(deps.config));
  registerStudioShowRoutes(app, {
    now,
    shows: services.shows,
    staffGate: services.staffGate,
    publicOrigin,
    storeCoverImage: (pageUid, bytes) => services.media.storeImage(pageUid, bytes, 'cover'),
  });
  registerLiveRoutes(app, { live: services.live, staffGate: services.staffGate, publicOrigin });
  registerPremiereRoutes(app, { premieres: services.premieres, staffGate: services.staffGate, publicOrigin });
  registerRestreamRoutes(app, { restream: services.restream, staffGate: services.staffGate });
  registerModerationRoutes(app, {
    moderation: services.moderation,
    comments: services.comments,
    staffGate: services.staffGate,
    campaignOf: services.shows.campaignOf,
  });
  if (deps.config.whip.enabled && services.live.mediaKind === 'worker') {
    // The worker negotiates WHIP; the studio and OBS keep posting to this server.
    registerWhipProxy(app, () => services.live.mediaWorker());
  } else if (deps.config.whip.enabled) {
    registerWhipRoutes(app, {
      beginPublish: services.live.beginPublish,
      checkKey: services.live.checkKey,
      extraHostAddresses: deps.config.whip.hostAddresses,
      icePortRange: deps.config.whip.icePortRange ?? undefined,
    });
    services.live.offerIngest({ whipPath: WHIP_PATH });
  }
  registerControlRoomRoutes(app, {
    room: services.controlRoom,
    staffGate: services.staffGate,
    publicOrigin,
    broadcast: services.roomBroadcast,
  });
  registerFlashDealRoutes(app, {
    deals: services.flashDeals,
    auth,
    campaignOf: services.shows.campaignOf,
    staffGate: services.staffGate,
  });
  registerStudioCompetitionRoutes(app, {
    competitions: services.competitions,
    campaignOf: services.shows.campaignOf,
    staffGate: services.staffGate,
  });
  registerStoreSettingsRoutes(app, {
    stores,
    staffGate: services.staffGate,
    storeLogo: async (pageUid, image) => (await services.media.storeImage(pageUid, image, 'logo')).url,
  });
  registerReadRoutes(app, {
    playerSettings: ({ pageUid }) => stores.playerSettings(pageUid),
    'liveEvents.shop': ({ pageUid }) => events.shopEvents(pageUid, now()),
    'liveEvents.byId': ({ ids }) => events.eventsByIds(ids),
    'liveEvents.byCampaign': ({ campaignIds }) => events.eventsByCampaigns(campaignIds),
    liveEventProducts: ({ eventId }) => events.publishedEventProducts(eventId),
    embedding: async ({ pageUid }) => ({
      allowedOrigins: (await stores.pageSummary(pageUid)).allowedOrigins,
    }),
  });
}

/**
 * Starts the services' background work (the sweep of expired carts) and stops it, flushing what
 * is buffered (reactions, stock announcements), when the server closes.
 */
export function startBackgroundWork(app: FastifyInstance, services: Services): void {
  let sweeping: Promise<unknown> = Promise.resolve();
  const sweep = setInterval(() => {
    sweeping = services.cart
      .releaseExpired()
      .catch((error) => app.log.error({ err: error }, 'releasing expired carts failed'));
  }, EXPIRED_CART_SWEEP_INTERVAL_MS);
  sweep.unref();
  // Mails a busy SMTP server refused are sent again when their backoff is over.
  let mailing: Promise<unknown> = Promise.resolve();
  const mailSweep = setInterval(() => {
    mailing = services.mail
      .retryDue()
      .catch((error) => app.log.error({ err: error }, 'sending queued mails failed'));
  }, MAIL_SWEEP_INTERVAL_MS);
  mailSweep.unref();
  // Recovery mails requested just before closing are sent before the mail transport closes.
  app.addHook('onClose', () => services.recovery.settled());
  app.addHook('onClose', async () => {
    clearInterval(mailSweep);
    await mailing;
    services.mail.close();
  });
  app.addHook('onClose', () => services.reactions.flush());
  // Before the bus closes (app.ts adds that hook later): its last tick may still publish.
  app.addHook('onClose', () => services.roomBroadcast.close());
  // Clips a stopped server left uncut are cut now, in the background.
  void services.clips
    .resumePending()
    .catch((error) => app.log.error({ err: error }, 'resuming the cuts of clips failed'));
  // A clip being cut is finished before the segment store closes.
  app.addHook('onClose', async () => {
    await services.clips.settled();
  });
  const stopRollup = services.analytics.start();
  app.addHook('onClose', () => stopRollup());
  app.addHook('onClose', async () => {
    clearInterval(sweep);
    await sweeping;
    await services.stockAnnouncer.close();
  });
}
