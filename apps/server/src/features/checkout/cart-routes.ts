import type { FastifyInstance } from 'fastify';
import { registerCall } from '../../http/register-call.ts';
import type { AuthService } from '../auth/auth-service.ts';
import type { CartService } from './cart-service.ts';

/** How the checkout's calls (all need the shopper's id token, spec §7) refuse a caller without one. */
export const shopperCalls = (auth: AuthService) => ({
  auth,
  signInMessage: 'Sign in first: send Authorization: Bearer <id token>.',
});

/** The cart calls of spec §7. `request.ip` is the client address that per-address abuse limits count. */
export function registerCartRoutes(app: FastifyInstance, cart: CartService, auth: AuthService): void {
  const shopper = shopperCalls(auth);
  registerCall(app, 'getCartUid', (input, { caller }) => cart.getCartUid(caller.userUid, input), shopper);
  registerCall(
    app,
    'addSingle',
    (input, { caller, request }) => cart.addSingle(caller.userUid, input, request.ip),
    shopper,
  );
  registerCall(
    app,
    'loadUserReservation',
    (input, { caller }) => cart.loadUserReservation(caller.userUid, input),
    shopper,
  );
  registerCall(
    app,
    'saveUserReservation',
    (input, { caller }) => cart.saveUserReservation(caller.userUid, input),
    shopper,
  );
  registerCall(
    app,
    'cancelReservation',
    (input, { caller, request }) => cart.cancelReservation(caller.userUid, input, request.ip),
    shopper,
  );
  registerCall(
    app,
    'changeCheckoutProductQuantity',
    (input, { caller, request }) => cart.changeQuantity(caller.userUid, input, request.ip),
    shopper,
  );
  registerCall(
    app,
    'ping',
    (input, { caller, request }) => cart.ping(caller.userUid, input, request.ip),
    shopper,
  );
}
