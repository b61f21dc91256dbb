import { roleIncludes } from '@vitrine/domain';
import type {
  ErrorCode,
  LiveChange,
  LiveDocument,
  LiveQueryName,
  LiveQueryParams,
  StaffRole,
} from '@vitrine/protocol';
import type { z } from 'zod';

/** Who is asking: the user of the connection's id token, or null for an anonymous caller. */
export interface CallerContext {
  userUid: string | null;
}

export type AccessDecision = { allowed: true } | { allowed: false; code: ErrorCode; message: string };

export const ALLOWED: AccessDecision = { allowed: true };

/**
 * A live query: its params, who may read it, the topic whose changes it follows, its snapshot,
 * and how a change on the topic maps to a change of this query (null: not part of it).
 */
export interface LiveQueryDefinition<N extends LiveQueryName> {
  params: (typeof LiveQueryParams)[N];
  /**
   * Who may read it. It may answer later (a staff query reads the caller's role in the store):
   * the gateway awaits it on every subscribe (so again on every reconnect), on every new identity
   * of the connection and when asked to check a query's subscribers again (`recheck`).
   */
  authorize(
    params: z.infer<(typeof LiveQueryParams)[N]>,
    caller: CallerContext,
  ): AccessDecision | Promise<AccessDecision>;
  topic(params: z.infer<(typeof LiveQueryParams)[N]>): string;
  /**
   * The query's documents now. They depend on the params alone (`authorize` decides who may read
   * them): the gateway shares one snapshot between the subscribers that join while it loads.
   */
  snapshot(params: z.infer<(typeof LiveQueryParams)[N]>): Promise<LiveDocument[]>;
  select?(change: LiveChange, params: z.infer<(typeof LiveQueryParams)[N]>): LiveChange | null;
}

export type LiveQueryCatalogue = { [N in LiveQueryName]: LiveQueryDefinition<N> };

/** Public data: anyone may read it, signed in or not. */
export const everyone = (): AccessDecision => ALLOWED;

/** A user's own data: readable only by that user (spec §6); never filtered, refused whole. */
export function onlyTheUser(params: { userUid: string }, caller: CallerContext): AccessDecision {
  if (caller.userUid === null) {
    return {
      allowed: false,
      code: 'unauthenticated',
      message: 'Sign in to read this: send an auth frame first.',
    };
  }
  if (caller.userUid !== params.userUid) {
    return { allowed: false, code: 'forbidden', message: "This belongs to another user and can't be read." };
  }
  return ALLOWED;
}

/** Where a staff query reads a member's role in a store (null: not staff of it). */
export type StaffRoleOf = (pageUid: string, userUid: string) => Promise<StaffRole | null>;

export const NOT_STAFF_MESSAGE = 'You are not staff of this store.';

/**
 * Staff data of one store: readable by its members whose role includes `required`, as the staff
 * gate admits the studio's calls (someone who is not staff gets the same refusal whether the
 * store exists or not). The role is read on each check, so a member removed meanwhile is refused.
 */
export async function staffOfStore(
  roleOf: StaffRoleOf,
  pageUid: string,
  required: StaffRole,
  caller: CallerContext,
): Promise<AccessDecision> {
  if (caller.userUid === null) {
    return {
      allowed: false,
      code: 'unauthenticated',
      message: 'Sign in with your staff account to read this: send an auth frame first.',
    };
  }
  const role = await roleOf(pageUid, caller.userUid);
  if (!role) return { allowed: false, code: 'forbidden', message: NOT_STAFF_MESSAGE };
  if (!roleIncludes(role, required))
    return {
      allowed: false,
      code: 'forbidden',
      message: `This needs the ${required} role; yours is ${role}.`,
    };
  return ALLOWED;
}
