import type { FastifyInstance } from 'fastify';
import type { StaffGate } from '../../http/caller.ts';
import { registerCall } from '../../http/register-call.ts';
import type { AuthService } from '../auth/auth-service.ts';
import { shopperCalls } from '../checkout/cart-routes.ts';
import type { FlashDealService } from './flash-deal-service.ts';

/**
 * Flash deal calls (issue 30 §3): the viewer's add at the deal price and view count, and the
 * studio's prepare, start and end (hosts and owners). `campaignOf` finds the show's campaign in
 * the path's store; a show or deal of another store is a 404.
 */
export function registerFlashDealRoutes(
  app: FastifyInstance,
  deps: {
    deals: FlashDealService;
    auth: AuthService;
    campaignOf: (pageUid: string, showUid: string) => Promise<string>;
    staffGate: StaffGate;
  },
): void {
  const { deals, campaignOf } = deps;
  const staff = { staffGate: deps.staffGate };
  const shopper = shopperCalls(deps.auth);
  registerCall(
    app,
    'flashDealAdd',
    (input, { caller, request }) => deals.add(caller.userUid, input, request.ip),
    shopper,
  );
  registerCall(app, 'flashDealViewed', (input, { caller }) => deals.viewed(caller.userUid, input), shopper);
  registerCall(
    app,
    'listShowFlashDeals',
    async (_body, { params: { pageUid, showUid } }) => ({
      deals: await deals.list(pageUid, await campaignOf(pageUid, showUid)),
    }),
    staff,
  );
  registerCall(
    app,
    'createShowFlashDeal',
    async (input, { params: { pageUid, showUid } }) =>
      deals.create(pageUid, await campaignOf(pageUid, showUid), showUid, input),
    staff,
  );
  registerCall(
    app,
    'startShowFlashDeal',
    async (_body, { params: { pageUid, showUid, dealUid } }) =>
      deals.start(pageUid, await campaignOf(pageUid, showUid), dealUid),
    staff,
  );
  registerCall(
    app,
    'endShowFlashDeal',
    async (_body, { params: { pageUid, showUid, dealUid } }) =>
      deals.end(pageUid, await campaignOf(pageUid, showUid), dealUid),
    staff,
  );
}
