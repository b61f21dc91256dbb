import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import type { AbuseLimiter } from '../../http/abuse-limits.ts';
import type { Publish } from '../../realtime/publisher.ts';
import type { AuthService } from '../auth/auth-service.ts';
import type { CatalogService } from '../catalog/catalog-service.ts';
import type { EventService } from '../events/event-service.ts';
import { createOrderService } from '../orders/order-service.ts';
import { registerOrderRoutes } from '../orders/routes.ts';
import { createPaymentService } from '../payments/payment-service.ts';
import { registerPaymentRoutes } from '../payments/routes.ts';
import { createStripeProvider } from '../payments/stripe-provider.ts';
import { createTestPaymentProvider } from '../payments/test-provider.ts';
import type { StoreService } from '../stores/store-service.ts';
import { createCartService } from './cart-service.ts';
import { createReservationPublisher } from './reservation-publisher.ts';
import { registerCartRoutes } from './routes.ts';
import { createStockAnnouncer } from './stock-announcer.ts';

/** How often carts whose stock hold ran out are swept, giving their units back. */
export const EXPIRED_CART_SWEEP_INTERVAL_MS = 30_000;

/**
 * Cart, orders and payments (issue 5): their services, routes and background work (the sweep of
 * expired carts, coalesced stock announcements), all stopped when the server closes.
 */
export function registerCommerce(
  server: FastifyInstance,
  deps: {
    db: Database;
    publish: Publish;
    now: () => number;
    auth: AuthService;
    catalog: CatalogService;
    events: EventService;
    stores: StoreService;
    requireAdmin: onRequestHookHandler;
    /** Per-user and per-address limits of pings and cart changes. */
    limits: AbuseLimiter;
    /** Which payment providers are set up (config.testPayments, config.stripe). */
    payments: Pick<Config, 'testPayments' | 'stripe'>;
  },
) {
  const { db, publish, now } = deps;
  const reservations = createReservationPublisher(db, publish);
  const stockAnnouncer = createStockAnnouncer(
    (productUid) => deps.events.republishProduct(productUid),
    (error) => server.log.error({ err: error }, 'announcing a stock change failed'),
  );
  const cart = createCartService({
    db,
    catalog: deps.catalog,
    reservations,
    onStockChanged: (productUid) => stockAnnouncer.changed(productUid),
    now,
    limits: deps.limits,
    stores: deps.stores,
  });
  const orders = createOrderService({ db, stores: deps.stores, cart, publish, now });
  // The test provider only when enabled (VITRINE_TEST_PAYMENTS): anyone can approve its payments.
  const testProvider = deps.payments.testPayments ? createTestPaymentProvider(db) : null;
  const stripe = deps.payments.stripe ? createStripeProvider(deps.payments.stripe) : null;
  // The first takes new payments; webhooks of every configured one are accepted.
  const providers = [stripe, testProvider].filter((provider) => provider !== null);
  const payments = createPaymentService({
    db,
    providers,
    orders,
    cart,
    now,
    onProviderError: (error) => server.log.error({ err: error }, 'opening a payment failed'),
  });

  registerCartRoutes(server, cart, deps.auth);
  registerOrderRoutes(server, orders, deps.auth, deps.requireAdmin);
  registerPaymentRoutes(server, payments, deps.auth, providers, testProvider, {
    db,
    now,
    embedOrigins: async (pageUid) => (await deps.stores.pageSummary(pageUid)).allowedOrigins,
  });

  let sweeping: Promise<unknown> = Promise.resolve();
  const sweep = setInterval(() => {
    sweeping = cart
      .releaseExpired()
      .catch((error) => server.log.error({ err: error }, 'releasing expired carts failed'));
  }, EXPIRED_CART_SWEEP_INTERVAL_MS);
  sweep.unref();
  server.addHook('onClose', async () => {
    clearInterval(sweep);
    await sweeping;
    await stockAnnouncer.close();
    await reservations.idle();
  });

  return { cart, orders, payments, testProvider };
}
