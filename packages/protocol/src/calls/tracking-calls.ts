import { isTrackingBatchBody, TrackingBatch, TrackingEvent, TrackingRequest } from '../tracking.ts';
import type { CallSchemas } from './define-call.ts';

/** Player analytics (spec §7). */
export const trackingCalls = {
  track: {
    summary:
      'One tracking event or {events: [...]} (a beacon batch), as JSON or text/plain; a bearer attributes them. 429 rate_limited beyond 120 events per address per minute.',
    request: TrackingRequest,
    pickRequest: (body: unknown) => (isTrackingBatchBody(body) ? TrackingBatch : TrackingEvent),
    response: null,
    status: 204,
  },
} satisfies Record<string, CallSchemas>;
