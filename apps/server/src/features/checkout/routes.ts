import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/database.ts';
import type { ScheduleTimer } from '../../schedule-timer.ts';
import type { AuthService } from '../auth/auth-service.ts';
import type { StoreService } from '../stores/store-service.ts';
import { registerCartRoutes } from './cart-routes.ts';
import type { CartService } from './cart-service.ts';
import { registerOrderRoutes } from './order-routes.ts';
import type { OrderService } from './order-service.ts';
import { registerPaymentRoutes } from './payment-routes.ts';
import type { PaymentService } from './payment-service.ts';
import type { PaymentProvider } from './payments/payment-provider.ts';
import type { TestPaymentProvider } from './payments/test-provider.ts';

/** The checkout feature's calls: cart, checkout pages and orders, payments and their webhooks. */
export function registerCheckoutRoutes(
  app: FastifyInstance,
  services: {
    cart: CartService;
    orders: OrderService;
    payments: PaymentService;
    paymentProviders: readonly PaymentProvider[];
    testProvider: TestPaymentProvider | null;
    auth: AuthService;
    stores: StoreService;
  },
  deps: {
    db: Database;
    now: () => number;
    scheduleTimer?: ScheduleTimer;
  },
): void {
  registerCartRoutes(app, services.cart, services.auth);
  registerOrderRoutes(app, services.orders, services.auth);
  registerPaymentRoutes(
    app,
    services.payments,
    services.auth,
    services.paymentProviders,
    services.testProvider,
    {
      db: deps.db,
      now: deps.now,
      scheduleTimer: deps.scheduleTimer,
      embedOrigins: async (pageUid) => (await services.stores.pageSummary(pageUid)).allowedOrigins,
    },
  );
}
