import type { FastifyInstance, onRequestHookHandler } from 'fastify';
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
  const testProvider = createTestPaymentProvider(db);
  const payments = createPaymentService({ db, providers: [testProvider], orders, cart, now });

  registerCartRoutes(server, cart, deps.auth);
  registerOrderRoutes(server, orders, deps.auth, deps.requireAdmin);
  registerPaymentRoutes(server, payments, deps.auth, testProvider, { now });

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
