// The realtime protocol's plain values, in a module without zod so the web app can import
// them without bundling zod (the package is marked side-effect free).

/**
 * The realtime socket protocol (WebSocket at /realtime): the client subscribes to named live
 * queries of the catalogue and receives a snapshot, then changes. Every frame is JSON with a
 * `type` tag. The version travels in the URL (`/realtime?v=1`); a server that does not speak the
 * client's version closes with CLOSE_CODES.unsupportedVersion.
 */
export const REALTIME_PROTOCOL_VERSION = 1;
export const REALTIME_PATH = '/realtime';

/** WebSocket close codes the server uses (4000–4999 are for applications). */
export const CLOSE_CODES = {
  /** The client stopped reading; it should reconnect and resume. */
  slowConsumer: 4008,
  unsupportedVersion: 4010,
  /** A frame that is not valid JSON of this protocol. */
  protocolError: 4002,
  /** The server is shutting down; reconnect (to another node). */
  goingAway: 1001,
} as const;

/** Client-side subscription states, as supabase realtime-js names them. */
export type SubscriptionStatus = 'SUBSCRIBED' | 'TIMED_OUT' | 'CLOSED' | 'ERROR';

/** Reconnect delays in ms, by attempt; the last repeats. */
export const RECONNECT_DELAYS_MS = [1000, 2000, 5000, 10000] as const;

/**
 * The subscription id of a query and its params: the query name plus the params as JSON with
 * object keys sorted, so equal params give equal ids whatever their key order.
 */
export function subscriptionKey(query: string, params: unknown): string {
  return `${query}:${canonicalJson(params)}`;
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}
