import { z } from 'zod';

import { CHANGE_TYPES } from './vocabulary.ts';

export * from './realtime-wire.ts';

/** A document as a live query delivers it: its store id plus its data. */
export const LiveDocument = z.object({ docId: z.string(), doc: z.unknown() });
export type LiveDocument<T = unknown> = { docId: string; doc: T };

export const ChangeType = z.enum(CHANGE_TYPES);
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
