import type { FastifyInstance } from 'fastify';
import type { StaffGate } from '../../http/caller.ts';
import { registerCall } from '../../http/register-call.ts';
import type { OrderAdminService } from './order-admin.ts';

/** The studio's order calls: list, filters, export, detail, send to packing, packed/shipped/delivered, refund. */
export function registerStudioOrderRoutes(
  app: FastifyInstance,
  orders: OrderAdminService,
  staffGate: StaffGate,
): void {
  const gate = { staffGate };
  registerCall(
    app,
    'listStudioOrders',
    (_body, { params, query: { after, limit, ...filters } }) =>
      orders.list(params.pageUid, filters, { after, limit }),
    gate,
  );
  registerCall(app, 'studioOrderFilters', (_body, { params }) => orders.filters(params.pageUid), gate);
  registerCall(
    app,
    'exportStudioOrders',
    (_body, { params, query }) => orders.exportCsv(params.pageUid, query),
    gate,
  );
  registerCall(
    app,
    'getStudioOrder',
    (_body, { params }) => orders.detail(params.pageUid, params.checkoutUid),
    gate,
  );
  registerCall(
    app,
    'sendStudioOrderToPacking',
    (_body, { params }) => orders.sendToPacking(params.pageUid, params.checkoutUid),
    gate,
  );
  registerCall(
    app,
    'advanceStudioOrder',
    (input, { params, caller }) => orders.advance(caller, params.checkoutUid, input),
    gate,
  );
  registerCall(
    app,
    'refundStudioOrder',
    (input, { params, caller }) => orders.refund(caller, params.checkoutUid, input),
    gate,
  );
}
