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
