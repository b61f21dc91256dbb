import { z } from 'zod';
import { Uid } from '../../common.ts';
import { CreateFlashDealRequest, FlashDealAdminView, FlashDealList } from '../../flash-deals.ts';
import { call } from '../define-call.ts';

const ShowPath = z.object({ pageUid: Uid, showUid: Uid });
const DealPath = ShowPath.extend({ dealUid: Uid });

const SHOW = '/staff/stores/:pageUid/shows/:showUid';
const ROOM = `${SHOW}/control-room`;

/**
 * The studio's flash deal calls: a deal sells at a price, so it is the host's (and owner's), like
 * presenting products; moderators neither prepare nor start one.
 */
export const flashDealStudioCalls = {
  // By path, then method in the order of CALL_METHODS (call-types.ts); api-docs.test.ts checks it.
  endShowFlashDeal: call({
    method: 'POST',
    path: `${ROOM}/flash-deals/:dealUid/end`,
    auth: { staff: 'host' },
    summary: 'Ends a started deal early: stamped now, so it ends on the same frame for every viewer.',
    params: DealPath,
    response: FlashDealAdminView,
  }),
  startShowFlashDeal: call({
    method: 'POST',
    path: `${ROOM}/flash-deals/:dealUid/start`,
    auth: { staff: 'host' },
    summary:
      "Starts a prepared deal during the live show: stamped now on the stream clock, its countdown then its duration run on every viewer's video; 409 when the show is not live or the deal was started.",
    params: DealPath,
    response: FlashDealAdminView,
  }),
  listShowFlashDeals: call({
    method: 'GET',
    path: `${SHOW}/flash-deals`,
    auth: { staff: 'host' },
    summary: "A show's flash deals with their state and figures (views, adds, orders, revenue).",
    params: ShowPath,
    response: FlashDealList,
  }),
  createShowFlashDeal: call({
    method: 'POST',
    path: `${SHOW}/flash-deals`,
    auth: { staff: 'host' },
    summary:
      'Prepares a flash deal for a product (or variant) of the show: price below the regular one, countdown 10–300 s, duration 1–20 min, limits ≥ 1; 400 otherwise, 422 for a product not in the show.',
    params: ShowPath,
    request: CreateFlashDealRequest,
    response: FlashDealAdminView,
    status: 201,
  }),
};
