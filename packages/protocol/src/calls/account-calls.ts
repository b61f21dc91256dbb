import { z } from 'zod';
import {
  LogoutRequest,
  OidcCompleteRequest,
  OidcProvidersResponse,
  OidcStartRequest,
  OidcStartResponse,
  SignInWithCredentialRequest,
  SignInWithPasswordRequest,
  SignUpRequest,
  UpdateUserRequest,
} from '../accounts.ts';
import { AuthSession, RefreshTokenRequest, SignInAnonymouslyRequest } from '../auth.ts';
import { UserDoc } from '../live-documents.ts';
import { call } from './define-call.ts';

/** Sign-in, sign-up, social sign-in, logout and the user's own record (protocol accounts.ts). */
export const accountCalls = {
  // By path, then method in the order of CALL_METHODS (call-types.ts); api-docs.test.ts checks it.
  logout: call({
    method: 'POST',
    path: '/functions/auth/logout',
    auth: 'anonymous',
    summary: 'Revokes that sign-in and answers a new anonymous session.',
    request: LogoutRequest,
    response: AuthSession,
  }),
  oidcComplete: call({
    method: 'POST',
    path: '/functions/auth/oidc/complete',
    auth: 'optional-viewer',
    summary:
      'Finishes a social sign-in from the full callback URL; an anonymous bearer is linked. 409 credential_in_use with {credential} when the identity belongs to another user.',
    request: OidcCompleteRequest,
    response: AuthSession,
  }),
  oidcProviders: call({
    method: 'POST',
    path: '/functions/auth/oidc/providers',
    auth: 'anonymous',
    bodyOptional: true,
    summary: 'The configured social sign-in providers (VITRINE_OIDC_PROVIDERS).',
    request: z.object({}).strict(),
    response: OidcProvidersResponse,
  }),
  oidcStart: call({
    method: 'POST',
    path: '/functions/auth/oidc/start',
    auth: 'optional-viewer',
    summary:
      "Starts a social sign-in (code + PKCE S256, state, nonce); the provider returns to its redirectUri, else to /auth/callback on this server's origin.",
    request: OidcStartRequest,
    response: OidcStartResponse,
  }),
  refreshIdToken: call({
    method: 'POST',
    path: '/functions/auth/refreshIdToken',
    auth: 'anonymous',
    summary:
      'The next session for the rotating refresh token (each works once; replaying a spent one revokes the whole sign-in, 401), or for a legacy id token.',
    request: RefreshTokenRequest,
    response: AuthSession,
  }),
  signInAnonymously: call({
    method: 'POST',
    path: '/functions/auth/signInAnonymously',
    auth: 'anonymous',
    bodyOptional: true,
    summary: 'A new anonymous user and its session.',
    request: SignInAnonymouslyRequest,
    response: AuthSession,
  }),
  signInWithCredential: call({
    method: 'POST',
    path: '/functions/auth/signInWithCredential',
    auth: 'anonymous',
    summary:
      'The session of the user a credential_in_use error named (single use, 5 minutes; spec §8 retry).',
    request: SignInWithCredentialRequest,
    response: AuthSession,
  }),
  signInWithPassword: call({
    method: 'POST',
    path: '/functions/auth/signInWithPassword',
    auth: 'anonymous',
    summary: 'Signs in with e-mail and password. 401 for a wrong pair, 429 after too many attempts.',
    request: SignInWithPasswordRequest,
    response: AuthSession,
  }),
  signUp: call({
    method: 'POST',
    path: '/functions/auth/signUp',
    auth: 'optional-viewer',
    summary:
      'An e-mail account; an anonymous bearer is upgraded in place (same uid). 409 email_in_use / already_signed_in, 429 rate_limited.',
    request: SignUpRequest,
    response: AuthSession,
  }),
  updateUser: call({
    method: 'POST',
    path: '/functions/customerpage/updateUser',
    auth: 'viewer',
    summary:
      'Renames the caller or changes their locale and currency; 403 for another customerUid. The user live query follows.',
    request: UpdateUserRequest,
    response: UserDoc,
  }),
};
