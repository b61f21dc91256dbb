import { z } from 'zod';

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

/** A document as a live query delivers it: its store id plus its data. */
export const LiveDocument = z.object({ docId: z.string(), doc: z.unknown() });
export type LiveDocument<T = unknown> = { docId: string; doc: T };

export const ChangeType = z.enum(['added', 'modified', 'removed']);
export const LiveChange = z.object({ type: ChangeType, docId: z.string(), doc: z.unknown() });
export type LiveChange<T = unknown> = { type: z.infer<typeof ChangeType>; docId: string; doc: T };

// ── client → server ────────────────────────────────────────────────────────────

/** Identifies the caller for access rules; sent first and again whenever the token is refreshed. */
export const AuthFrame = z.object({ type: z.literal('auth'), token: z.string().min(1).max(4096) });

/**
 * Subscribes to a live query. `id` is `subscriptionKey(query, params)`: every viewer of the same
 * query shares it, which lets the server send one serialized frame to all of them. With
 * `resume.seq` the server sends only the changes after that sequence number when it still has
 * them, else a fresh snapshot.
 */
export const SubscribeFrame = z.object({
  type: z.literal('subscribe'),
  id: z.string().min(1).max(2048),
  query: z.string().min(1).max(100),
  params: z.unknown(),
  resume: z.object({ seq: z.number().int().nonnegative() }).optional(),
});

export const UnsubscribeFrame = z.object({ type: z.literal('unsubscribe'), id: z.string().min(1).max(2048) });

export const ClientFrame = z.discriminatedUnion('type', [AuthFrame, SubscribeFrame, UnsubscribeFrame]);
export type ClientFrame = z.infer<typeof ClientFrame>;

// ── server → client ────────────────────────────────────────────────────────────

/** The whole result of a subscription as of `seq`. */
export const SnapshotFrame = z.object({
  type: z.literal('snapshot'),
  id: z.string(),
  docs: z.array(LiveDocument),
  seq: z.number().int().nonnegative(),
});

/** Changes after the previous frame, up to and including `seq`. */
export const ChangesFrame = z.object({
  type: z.literal('changes'),
  id: z.string(),
  changes: z.array(LiveChange),
  seq: z.number().int().nonnegative(),
});

export const ErrorCode = z.enum([
  'invalid_request',
  'unknown_query',
  'forbidden',
  'unauthenticated',
  'not_found',
  'internal',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

/** A subscription failed whole (it is never silently filtered); `id` is empty for connection-level errors. */
export const ErrorFrame = z.object({
  type: z.literal('error'),
  id: z.string(),
  code: ErrorCode,
  message: z.string(),
});

/** Answers an auth frame: the user the connection now acts as (null: anonymous). */
export const AuthResultFrame = z.object({ type: z.literal('auth_result'), userUid: z.string().nullable() });

export const ServerFrame = z.discriminatedUnion('type', [
  SnapshotFrame,
  ChangesFrame,
  ErrorFrame,
  AuthResultFrame,
]);
export type ServerFrame = z.infer<typeof ServerFrame>;
export type SnapshotFrame = z.infer<typeof SnapshotFrame>;
export type ChangesFrame = z.infer<typeof ChangesFrame>;
export type ErrorFrame = z.infer<typeof ErrorFrame>;

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
