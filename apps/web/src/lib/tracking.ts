import type { TrackedEventName, TrackingEvent } from '@vitrine/protocol';
import { callUrl } from './api.ts';
import { debugLog } from './debug.ts';
import { currentIdToken, currentSession } from './session.ts';

/** A browser plugin of ours marks pages it runs on; tracking is then off (spec §6). */
const BROWSER_PLUGIN_MARKER = '[data-vitrine-browser-plugin]';

/** The longest viewer URL the tracking schema accepts. */
const MAX_VIEWER_URL_LENGTH = 2048;

/**
 * Events tracked in one task (a click that opens a product and starts a video, a page being
 * hidden) leave in one request, a batch when several. They wait no longer than that: a later
 * event may carry another user (a sign-in in between), and hosts and tests see events at once.
 */
const FLUSH_DELAY_MS = 0;
/** The server's batch limit is 50; a queue this long leaves at once. */
const MAX_QUEUED_EVENTS = 20;
/** Where the player keeps its anonymous viewer id (no cookie). */
const VIEWER_STORAGE_KEY = 'vitrine-viewer';

/** What every tracking event of one player carries. */
export type TrackingContext = Pick<
  TrackingEvent,
  'pageUid' | 'campaignUid' | 'eventUid' | 'eventStatus' | 'currency' | 'userUid' | 'checkoutUid'
>;

export function isTrackingDisabled(): boolean {
  return document.querySelector(BROWSER_PLUGIN_MARKER) !== null;
}

let memoryViewerUid: string | null = null;

/**
 * The anonymous id that counts this browser as one viewer in the show's analytics: random,
 * kept in the player's own storage (localStorage, else for this page only), never a cookie.
 */
export function viewerUid(): string {
  try {
    const stored = localStorage.getItem(VIEWER_STORAGE_KEY);
    if (stored && /^[A-Za-z0-9_-]{8,64}$/.test(stored)) return stored;
    const fresh = newViewerUid();
    localStorage.setItem(VIEWER_STORAGE_KEY, fresh);
    return fresh;
  } catch {
    // Storage blocked (a sandboxed or privacy-mode frame): one id for this page's life.
    memoryViewerUid ??= newViewerUid();
    return memoryViewerUid;
  }
}

function newViewerUid(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

let queue: TrackingEvent[] = [];
let flushTimer: ReturnType<typeof setTimeout> | null = null;
let listening = false;

/**
 * Sends what is queued, in one request; a page being hidden flushes at once (keepalive). Callers
 * that queue an event as the page hides (the watch heartbeat's last seconds) flush it themselves:
 * a timer may never run once the page is gone.
 */
export function flush(): void {
  if (flushTimer !== null) clearTimeout(flushTimer);
  flushTimer = null;
  if (queue.length === 0) return;
  const events = queue;
  queue = [];
  // The id token lets the server trust the user; an event without one is recorded as anonymous.
  const idToken = currentIdToken();
  const { baseUrl, path } = callUrl('track');
  const names = events.map((event) => event.trackingEvent).join(', ');
  fetch(`${baseUrl}${path}`, {
    method: 'POST',
    // text/plain keeps a cross-origin shop connection free of CORS preflights; the server parses it as JSON.
    headers: {
      'content-type': 'text/plain;charset=UTF-8',
      ...(idToken ? { authorization: `Bearer ${idToken}` } : {}),
    },
    body: JSON.stringify(events.length === 1 ? events[0] : { events }),
    keepalive: true,
  }).then(
    (response) => {
      if (!response.ok) debugLog(`tracking ${names} refused: ${response.status}`);
    },
    (error: unknown) => debugLog(`tracking ${names} failed`, error),
  );
}

/**
 * Queues one tracking event for /shopapiv2/tracking; the events of one task leave together, at
 * the end of it (at once when the page is hidden or closed). It never disturbs the viewer: failures
 * are logged only in debug mode (spec §8), and the request survives the page closing (keepalive).
 */
export function track(
  trackingEvent: TrackedEventName,
  context: TrackingContext,
  details: {
    trackingInfo?: TrackingEvent['trackingInfo'];
    videoAbsoluteTime?: number | null;
    playingProducts?: string[];
    playback?: TrackingEvent['playback'];
    watchedSeconds?: number | null;
    delayMs?: number | null;
  } = {},
): void {
  if (isTrackingDisabled()) return;
  const event: TrackingEvent = {
    ...context,
    // The viewer's user (spec §3 "Tracking event": userUid) once signed in, anonymously or not.
    userUid: context.userUid ?? currentSession()?.user.uid ?? null,
    trackingEvent,
    trackingInfo: details.trackingInfo ?? {},
    timestamp: Date.now(),
    viewerUrl: window.location.href.slice(0, MAX_VIEWER_URL_LENGTH),
    videoAbsoluteTime: details.videoAbsoluteTime ?? null,
    playingProducts: details.playingProducts ?? [],
    viewerUid: viewerUid(),
    playback: details.playback ?? null,
    watchedSeconds: details.watchedSeconds ?? null,
    delayMs: details.delayMs ?? null,
  };
  if (!listening) {
    listening = true;
    addEventListener('pagehide', flush);
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden') flush();
    });
  }
  queue.push(event);
  if (queue.length >= MAX_QUEUED_EVENTS) flush();
  else flushTimer ??= setTimeout(flush, FLUSH_DELAY_MS);
}
