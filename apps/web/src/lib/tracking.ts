import type { TrackingEvent, TrackingEventName } from '@vitrine/protocol';
import { callUrl } from './api.ts';
import { debugLog } from './debug.ts';
import { currentIdToken, currentSession } from './session.ts';

/** A browser plugin of ours marks pages it runs on; tracking is then off (spec §6). */
const BROWSER_PLUGIN_MARKER = '[data-vitrine-browser-plugin]';

/** The longest viewer URL the tracking schema accepts. */
const MAX_VIEWER_URL_LENGTH = 2048;

/** What every tracking event of one player carries. */
export type TrackingContext = Pick<
  TrackingEvent,
  'pageUid' | 'campaignUid' | 'eventUid' | 'eventStatus' | 'currency' | 'userUid' | 'checkoutUid'
>;

export function isTrackingDisabled(): boolean {
  return document.querySelector(BROWSER_PLUGIN_MARKER) !== null;
}

/**
 * Sends one tracking event to /shopapiv2/tracking. It never disturbs the viewer: failures are
 * logged only in debug mode (spec §8), and the request survives the page closing (keepalive).
 */
export function track(
  trackingEvent: TrackingEventName,
  context: TrackingContext,
  details: {
    trackingInfo?: TrackingEvent['trackingInfo'];
    videoAbsoluteTime?: number | null;
    playingProducts?: string[];
  } = {},
): void {
  if (isTrackingDisabled()) return;
  // The viewer's user (spec §3 "Tracking event": userUid) once signed in, anonymously or not; the
  // id token lets the server trust it (an event without one is recorded as anonymous).
  const idToken = currentIdToken();
  const event: TrackingEvent = {
    ...context,
    userUid: context.userUid ?? currentSession()?.user.uid ?? null,
    trackingEvent,
    trackingInfo: details.trackingInfo ?? {},
    timestamp: Date.now(),
    viewerUrl: window.location.href.slice(0, MAX_VIEWER_URL_LENGTH),
    videoAbsoluteTime: details.videoAbsoluteTime ?? null,
    playingProducts: details.playingProducts ?? [],
  };
  const { baseUrl, path } = callUrl('track');
  fetch(`${baseUrl}${path}`, {
    method: 'POST',
    // text/plain keeps a cross-origin shop connection free of CORS preflights; the server parses it as JSON.
    headers: {
      'content-type': 'text/plain;charset=UTF-8',
      ...(idToken ? { authorization: `Bearer ${idToken}` } : {}),
    },
    body: JSON.stringify(event),
    keepalive: true,
  }).then(
    (response) => {
      if (!response.ok) debugLog(`tracking ${trackingEvent} refused: ${response.status}`);
    },
    (error: unknown) => debugLog(`tracking ${trackingEvent} failed`, error),
  );
}
