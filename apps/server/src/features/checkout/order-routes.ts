import type { FastifyInstance } from 'fastify';
import { registerCall } from '../../http/register-call.ts';
import type { AuthService } from '../auth/auth-service.ts';
import { shopperCalls } from './cart-routes.ts';
import type { OrderService } from './order-service.ts';

/** The checkout pages' calls (the store sends an order to packing from the studio: order-admin-routes.ts). */
export function registerOrderRoutes(app: FastifyInstance, orders: OrderService, auth: AuthService): void {
  const shopper = shopperCalls(auth);
  registerCall(
    app,
    'loadCheckout',
    (input, { caller }) => orders.loadCheckout(caller.userUid, input),
    shopper,
  );
  registerCall(
    app,
    'checkoutOptions',
    (input, { caller }) => orders.checkoutOptions(caller.userUid, input),
    shopper,
  );
  registerCall(
    app,
    'findParcelShops',
    (input, { caller }) => orders.findParcelShops(caller.userUid, input),
    shopper,
  );
  registerCall(
    app,
    'updateCheckoutDetails',
    (input, { caller }) => orders.updateDetails(caller.userUid, input, input.details),
    shopper,
  );
  registerCall(app, 'placeOrder', (input, { caller }) => orders.placeOrder(caller.userUid, input), shopper);
}
