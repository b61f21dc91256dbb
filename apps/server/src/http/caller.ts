import type { StaffRole } from '@vitrine/protocol';
import type { FastifyRequest } from 'fastify';

/** The user a request's bearer id token names. */
export interface AuthenticatedUser {
  userUid: string;
  isAnonymous: boolean;
}

/**
 * How the HTTP layer and the features' routes learn who is calling. The auth feature's service
 * implements it and the composition root passes it in, so http/ (and users/, which auth depends
 * on) need not import the auth feature.
 */
export interface RequestAuthenticator {
  /** The caller, null without an Authorization header, a 401 when the header is not a valid token. */
  authenticateRequest(request: FastifyRequest): Promise<AuthenticatedUser | null>;
  /** As authenticateRequest, and a 401 with `message` when the header is missing. */
  requireUser(request: FastifyRequest, message?: string): Promise<AuthenticatedUser>;
}

/** Who makes a studio (`{ staff }`) call, as the staff gate admitted them. */
export interface StaffCaller {
  /** The store of the call's path. */
  pageUid: string;
  /** The member's user; null when the admin key made the call (automation). */
  userUid: string | null;
  /** The member's role in the store (the admin key counts as an owner). */
  role: StaffRole;
}

/** One change made through a studio call, for the store's audit log. */
export interface StaffActionRecord {
  caller: StaffCaller;
  /** The call's name in the catalogue. */
  action: string;
  /** The call's path parameters but the store. */
  target: Record<string, string>;
  /** What was sent, with secrets and bulk left out. */
  details: unknown;
}

/**
 * How the HTTP layer admits studio calls and records what they changed. The staff feature
 * implements it and the composition root passes it in, as with RequestAuthenticator.
 */
export interface StaffGate {
  /**
   * The caller when they may make a call needing `required` in store `pageUid`: the admin key, or
   * a signed-in member whose role includes it. Else a 401 (no valid credentials) or a 403 that
   * says what is missing; a store the caller is not staff of is a 403 whether it exists or not.
   */
  admit(request: FastifyRequest, pageUid: string, required: StaffRole): Promise<StaffCaller>;
  /** Keeps one change in the audit log. */
  recordAction(record: StaffActionRecord): Promise<void>;
}
