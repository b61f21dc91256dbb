import {
  CheckoutOptionsRequest,
  FindParcelShopsRequest,
  LoadCheckoutRequest,
  PlaceOrderRequest,
  UpdateCheckoutDetailsRequest,
} from '@vitrine/protocol';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { z } from 'zod';
import { parseInput } from '../../http/errors.ts';
import type { AuthService } from '../auth/auth-service.ts';
import { requireShopper } from './cart-routes.ts';
import type { OrderService } from './order-service.ts';

/** The checkout pages' calls and the admin's "send to packing". */
export function registerOrderRoutes(
  app: FastifyInstance,
  orders: OrderService,
  auth: AuthService,
  requireAdmin: onRequestHookHandler,
): void {
  const route = <T>(path: string, handle: (userUid: string, body: unknown) => Promise<T>) =>
    app.post(path, async (request, reply) => {
      const userUid = await requireShopper(auth, request);
      reply.header('cache-control', 'no-store');
      return handle(userUid, request.body ?? {});
    });

  route('/functions/customerpage/loadCheckout', (user, body) =>
    orders.loadCheckout(user, parseInput(LoadCheckoutRequest, body)),
  );
  route('/functions/customerpage/checkoutOptions', (user, body) =>
    orders.checkoutOptions(user, parseInput(CheckoutOptionsRequest, body)),
  );
  route('/functions/customerpage/findParcelShops', (user, body) =>
    orders.findParcelShops(user, parseInput(FindParcelShopsRequest, body)),
  );
  route('/functions/customerpage/updateCheckoutDetails', (user, body) => {
    const input = parseInput(UpdateCheckoutDetailsRequest, body);
    return orders.updateDetails(user, input, input.details);
  });
  route('/functions/customerpage/placeOrder', (user, body) =>
    orders.placeOrder(user, parseInput(PlaceOrderRequest, body)),
  );

  app.post('/admin/checkouts/:checkoutUid/sendToPacking', { onRequest: requireAdmin }, async (request) => {
    const { checkoutUid } = parseInput(z.object({ checkoutUid: z.string().min(1).max(128) }), request.params);
    return orders.sendToPacking(checkoutUid);
  });
}
