import type { FastifyInstance } from 'fastify';
import type { StaffGate } from '../../http/caller.ts';
import { registerCall } from '../../http/register-call.ts';
import type { AnalyticsService } from './analytics-service.ts';

/** The studio's analytics calls: store overview, show report, CSV exports, rollup now. */
export function registerAnalyticsRoutes(
  app: FastifyInstance,
  analytics: AnalyticsService,
  staffGate: StaffGate,
): void {
  const gate = { staffGate };
  registerCall(
    app,
    'getStoreAnalytics',
    (_body, { params, caller }) => analytics.storeOverview(params.pageUid, caller.role),
    gate,
  );
  registerCall(
    app,
    'getShowAnalytics',
    (_body, { params, caller }) => analytics.showReport(params.pageUid, params.showUid, caller.role),
    gate,
  );
  registerCall(
    app,
    'exportShowAnalytics',
    (_body, { params, query, caller }) =>
      analytics.exportShow(params.pageUid, params.showUid, query.kind, caller.role),
    gate,
  );
  registerCall(
    app,
    'exportShowEvents',
    (_body, { params }) => analytics.exportShowEvents(params.pageUid, params.showUid),
    gate,
  );
  registerCall(app, 'refreshAnalytics', () => analytics.refresh(), gate);
}
