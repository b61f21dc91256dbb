import { isTrackingBatchBody, TrackingBatch, TrackingEvent, TrackingRequest } from '../tracking.ts';
import { call } from './define-call.ts';

/** Player analytics (spec §7). */
export const trackingCalls = {
  // By path, then method in the order of CALL_METHODS (call-types.ts); api-docs.test.ts checks it.
  track: call({
    method: 'POST',
    path: '/shopapiv2/tracking',
    auth: 'optional-viewer',
    summary:
      'One tracking event or {events: [...]} (a beacon batch), as JSON or text/plain; a bearer attributes them. 429 rate_limited beyond 120 events per address per minute.',
    request: TrackingRequest,
    pickRequest: (body: unknown) => (isTrackingBatchBody(body) ? TrackingBatch : TrackingEvent),
    response: null,
    status: 204,
  }),
};
