import type { TrackingEventInput } from '@vitrine/protocol';
import { expect } from 'vitest';
import type { App } from '../app.ts';

let addressCounter = 0;

/**
 * Posts `events` to the tracking call as viewers' players do, each call from an address of its
 * own (198.51.100.x) so the per-address limit never decides a test; expects them taken (204).
 */
export async function postTrackingEvents(app: App, events: TrackingEventInput[]): Promise<void> {
  const response = await app.server.inject({
    method: 'POST',
    url: '/shopapiv2/tracking',
    remoteAddress: `198.51.100.${++addressCounter}`,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ events }),
  });
  expect(response.statusCode, response.body).toBe(204);
}
