import {
  AddSingleRequest,
  CancelReservationRequest,
  ChangeCheckoutProductQuantityRequest,
  GetCartUidRequest,
  LoadUserReservationRequest,
  PingRequest,
  SaveUserReservationRequest,
} from '@vitrine/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseInput } from '../../http/errors.ts';
import type { AuthService } from '../auth/auth-service.ts';
import type { CartService } from './cart-service.ts';

/** The caller's user id from the id token; every cart call needs one (spec §7). */
export async function requireShopper(auth: AuthService, request: FastifyRequest): Promise<string> {
  const caller = await auth.requireUser(request, 'Sign in first: send Authorization: Bearer <id token>.');
  return caller.userUid;
}

/** The cart calls of spec §7; answers are never cached. */
export function registerCartRoutes(app: FastifyInstance, cart: CartService, auth: AuthService): void {
  // `address` is the client address (request.ip) that per-address abuse limits count.
  const route = <T>(path: string, handle: (userUid: string, body: unknown, address: string) => Promise<T>) =>
    app.post(path, async (request, reply) => {
      const userUid = await requireShopper(auth, request);
      reply.header('cache-control', 'no-store');
      return handle(userUid, request.body ?? {}, request.ip);
    });

  route('/shopapiv2/cart/getCartUid', (user, body) =>
    cart.getCartUid(user, parseInput(GetCartUidRequest, body)),
  );
  route('/shopapiv2/cart/addSingle', (user, body, address) =>
    cart.addSingle(user, parseInput(AddSingleRequest, body), address),
  );
  route('/functions/customerpage/loadUserReservation', (user, body) =>
    cart.loadUserReservation(user, parseInput(LoadUserReservationRequest, body)),
  );
  route('/functions/customerpage/saveUserReservation', (user, body) =>
    cart.saveUserReservation(user, parseInput(SaveUserReservationRequest, body)),
  );
  route('/functions/customerpage/cancelReservation', (user, body, address) =>
    cart.cancelReservation(user, parseInput(CancelReservationRequest, body), address),
  );
  route('/functions/customerpage/changeCheckoutProductQuantity', (user, body, address) =>
    cart.changeQuantity(user, parseInput(ChangeCheckoutProductQuantityRequest, body), address),
  );
  route('/functions/ping', (user, body, address) => cart.ping(user, parseInput(PingRequest, body), address));
}
