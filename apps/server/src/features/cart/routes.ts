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
  const route = <T>(path: string, handle: (userUid: string, body: unknown) => Promise<T>) =>
    app.post(path, async (request, reply) => {
      const userUid = await requireShopper(auth, request);
      reply.header('cache-control', 'no-store');
      return handle(userUid, request.body ?? {});
    });

  route('/shopapiv2/cart/getCartUid', (user, body) =>
    cart.getCartUid(user, parseInput(GetCartUidRequest, body)),
  );
  route('/shopapiv2/cart/addSingle', (user, body) =>
    cart.addSingle(user, parseInput(AddSingleRequest, body)),
  );
  route('/functions/customerpage/loadUserReservation', (user, body) =>
    cart.loadUserReservation(user, parseInput(LoadUserReservationRequest, body)),
  );
  route('/functions/customerpage/saveUserReservation', (user, body) =>
    cart.saveUserReservation(user, parseInput(SaveUserReservationRequest, body)),
  );
  route('/functions/customerpage/cancelReservation', (user, body) =>
    cart.cancelReservation(user, parseInput(CancelReservationRequest, body)),
  );
  route('/functions/customerpage/changeCheckoutProductQuantity', (user, body) =>
    cart.changeQuantity(user, parseInput(ChangeCheckoutProductQuantityRequest, body)),
  );
  route('/functions/ping', (user, body) => cart.ping(user, parseInput(PingRequest, body)));
}
