/**
 * The runtime values of the realtime protocol the web app needs, without zod. They mirror
 * packages/protocol/src/realtime.ts, and realtime-client.test.ts checks that they agree.
 *
 * Why a mirror: importing even these plain values from '@vitrine/protocol' (or from its
 * realtime.ts directly) puts all of zod (~30 kB gzip) in the web bundle. That module defines its
 * schemas with top-level `z.object(…)` calls, and the bundler has to keep calls it cannot prove
 * pure. Once the protocol package keeps these values in a module without zod (and marks itself
 * `"sideEffects": false`), replace this file with a re-export.
 */

export const REALTIME_PROTOCOL_VERSION = 1;
export const REALTIME_PATH = '/realtime';

export const CLOSE_CODES = {
  slowConsumer: 4008,
  unsupportedVersion: 4010,
  protocolError: 4002,
  goingAway: 1001,
} as const;

export const RECONNECT_DELAYS_MS = [1000, 2000, 5000, 10000] as const;

/** The query name plus its params as JSON with sorted keys: equal params give equal ids. */
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
