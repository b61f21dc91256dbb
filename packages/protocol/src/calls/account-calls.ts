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
import type { CallSchemas } from './define-call.ts';

/** Sign-in, sign-up, social sign-in, logout and the user's own record (protocol accounts.ts). */
export const accountCalls = {
  signInAnonymously: {
    bodyOptional: true,
    summary: 'A new anonymous user and its session.',
    request: SignInAnonymouslyRequest,
    response: AuthSession,
  },
  refreshIdToken: {
    summary:
      'The next session for the rotating refresh token (each works once; replaying a spent one revokes the whole sign-in, 401), or for a legacy id token.',
    request: RefreshTokenRequest,
    response: AuthSession,
  },
  signUp: {
    summary:
      'An e-mail account; an anonymous bearer is upgraded in place (same uid). 409 email_in_use / already_signed_in, 429 rate_limited.',
    request: SignUpRequest,
    response: AuthSession,
  },
  signInWithPassword: {
    summary: 'Signs in with e-mail and password. 401 for a wrong pair, 429 after too many attempts.',
    request: SignInWithPasswordRequest,
    response: AuthSession,
  },
  signInWithCredential: {
    summary:
      'The session of the user a credential_in_use error named (single use, 5 minutes; spec §8 retry).',
    request: SignInWithCredentialRequest,
    response: AuthSession,
  },
  logout: {
    summary: 'Revokes that sign-in and answers a new anonymous session.',
    request: LogoutRequest,
    response: AuthSession,
  },
  oidcProviders: {
    bodyOptional: true,
    summary: 'The configured social sign-in providers (VITRINE_OIDC_PROVIDERS).',
    request: z.object({}).strict(),
    response: OidcProvidersResponse,
  },
  oidcStart: {
    summary:
      "Starts a social sign-in (code + PKCE S256, state, nonce); the provider returns to its redirectUri, else to /auth/callback on this server's origin.",
    request: OidcStartRequest,
    response: OidcStartResponse,
  },
  oidcComplete: {
    summary:
      'Finishes a social sign-in from the full callback URL; an anonymous bearer is linked. 409 credential_in_use with {credential} when the identity belongs to another user.',
    request: OidcCompleteRequest,
    response: AuthSession,
  },
  updateUser: {
    summary:
      'Renames the caller or changes their locale and currency; 403 for another customerUid. The user live query follows.',
    request: UpdateUserRequest,
    response: UserDoc,
  },
} satisfies Record<string, CallSchemas>;
