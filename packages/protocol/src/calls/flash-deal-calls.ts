import { z } from 'zod';
import { CartUpdateResponse } from '../cart.ts';
import { FlashDealAddRequest, FlashDealViewedRequest } from '../flash-deals.ts';
import { call } from './define-call.ts';

/** The viewer's flash deal calls. */
export const flashDealCalls = {
  // By path, then method in the order of CALL_METHODS (call-types.ts); api-docs.test.ts checks it.
  flashDealAdd: call({
    method: 'POST',
    path: '/shopapiv2/flash-deals/add',
    auth: 'viewer',
    summary:
      "Adds a flash deal's product at the deal price when the viewer's stamped stream position is before the deal's end (kept within her measured delay and a small tolerance); 409 deal_ended (\"Deal has ended\"), deal_not_started, deal_sold_out, deal_limit.",
    request: FlashDealAddRequest,
    response: CartUpdateResponse,
  }),
  flashDealViewed: call({
    method: 'POST',
    path: '/shopapiv2/flash-deals/viewed',
    auth: 'viewer',
    summary: 'Counts a view of an open flash deal (once per viewer) for the show analytics.',
    request: FlashDealViewedRequest,
    response: z.object({ ok: z.literal(true) }),
  }),
};
