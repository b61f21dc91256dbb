import { z } from 'zod';
import { Uid } from '../../common.ts';
import { CreateFlashDealRequest, FlashDealAdminView, FlashDealList } from '../../flash-deals.ts';
import type { CallSchemas } from '../define-call.ts';

const ShowPath = z.object({ pageUid: Uid, showUid: Uid });
const DealPath = ShowPath.extend({ dealUid: Uid });

/** The schemas of the studio's flash deal calls (routes in flash-deal-routes.ts). */
export const flashDealStudioCalls = {
  listShowFlashDeals: {
    summary: "A show's flash deals with their state and figures (views, adds, orders, revenue).",
    params: ShowPath,
    response: FlashDealList,
  },
  createShowFlashDeal: {
    summary:
      'Prepares a flash deal for a product (or variant) of the show: price below the regular one, countdown 10–300 s, duration 1–20 min, limits ≥ 1; 400 otherwise, 422 for a product not in the show.',
    params: ShowPath,
    request: CreateFlashDealRequest,
    response: FlashDealAdminView,
    status: 201,
  },
  startShowFlashDeal: {
    summary:
      "Starts a prepared deal during the live show: stamped now on the stream clock, its countdown then its duration run on every viewer's video; 409 when the show is not live or the deal was started.",
    params: DealPath,
    response: FlashDealAdminView,
  },
  endShowFlashDeal: {
    summary: 'Ends a started deal early: stamped now, so it ends on the same frame for every viewer.',
    params: DealPath,
    response: FlashDealAdminView,
  },
} satisfies Record<string, CallSchemas>;
