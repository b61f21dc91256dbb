import { z } from 'zod';
import { CurrencyCode, LocaleCode, MediaUrl, Uid } from './common.ts';
import {
  EMAIL_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  USER_NAME_MAX_LENGTH,
} from './interaction-values.ts';

/**
 * Accounts (spec §4 "Authentication", §6 roles, §7 updateUser). Every call is a POST answering
 * JSON; those that sign someone in answer an `AuthSession` (auth.ts) with `cache-control: no-store`.
 *
 * Sessions: a bearer id token (1 h, refreshed every 30 min) plus a rotating refresh token. Keep
 * both in localStorage (third-party cookies may be blocked in the embedded player). Refresh with
 * `{ refreshToken }`: the answer carries a NEW refresh token and the old one is spent; presenting
 * a spent one again revokes every token of that sign-in ("family") — the viewer must sign in again.
 *
 * Errors are `ErrorBody` (`{ error, message }`); codes used here:
 * - 400 `invalid_request` — a field failed validation; the message names it.
 * - 400 `weak_password` — sign-up with one of the most common passwords: choose another.
 * - 401 `unauthenticated` — missing/invalid id token, wrong password, spent refresh token.
 * - 403 `forbidden` — e.g. updateUser for another customerUid; `oidc/complete` from a browser or
 *   session that did not start the flow.
 * - 409 `email_in_use` — only when two sign-ups with one e-mail race (a taken e-mail otherwise
 *   gets the answer a free one gets, so sign-up does not tell who has an account).
 * - 409 `credential_in_use` — the social identity belongs to another user; the body is a
 *   `CredentialInUseError` whose `credential` can be passed to `signInWithCredential` (spec §8:
 *   "a social sign-in with a conflicting credential retries with the credential from the error").
 * - 409 `already_signed_in` — upgrading needs an anonymous session; log out first.
 * - 429 `rate_limited` — too many attempts (`RateLimitedError`).
 * - 503 `server_busy` — too many passwords being checked at once; retry in a few seconds.
 */

export { EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, USER_NAME_MAX_LENGTH };

export const Email = z
  .string()
  .trim()
  .toLowerCase()
  .max(EMAIL_MAX_LENGTH, `must be at most ${EMAIL_MAX_LENGTH} characters`)
  .pipe(z.email('must be an e-mail address'));

export const Password = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`);

/** A display name: trimmed plain text (never HTML), no control characters. */
export const UserName = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(USER_NAME_MAX_LENGTH, `must be at most ${USER_NAME_MAX_LENGTH} characters`)
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
  .refine((name) => !/[\u0000-\u001f\u007f]/.test(name), 'must not contain control characters');

/** A refresh token as issued (opaque, base64url). */
export const RefreshToken = z.string().min(20).max(256);

/**
 * `/functions/auth/signUp`: create an e-mail + password account. With the bearer id token of an
 * anonymous user, that user is upgraded in place (keeps uid, comments, participations); without
 * one a new user is created. Answers an AuthSession (isAnonymous false). With an e-mail that
 * already has an account, the answer looks the same: that account's session when the password
 * is its own, else an account without the e-mail (which stays with its holder).
 */
export const SignUpRequest = z
  .object({ email: Email, password: Password, name: UserName.optional() })
  .strict();
export type SignUpRequest = z.infer<typeof SignUpRequest>;

/** `/functions/auth/signInWithPassword`: answers an AuthSession; 401 "Wrong e-mail address or password." */
export const SignInWithPasswordRequest = z
  .object({ email: Email, password: z.string().min(1, 'must not be empty').max(PASSWORD_MAX_LENGTH) })
  .strict();
export type SignInWithPasswordRequest = z.infer<typeof SignInWithPasswordRequest>;

/**
 * `/functions/auth/logout`: revokes the refresh token's family and answers a NEW anonymous
 * AuthSession (spec §4: logging out signs in anonymously again; the client also unloads the cart).
 */
export const LogoutRequest = z.object({ refreshToken: RefreshToken }).strict();
export type LogoutRequest = z.infer<typeof LogoutRequest>;

/** `/functions/auth/oidc/providers` (body `{}`): the configured social sign-in providers. */
export const OidcProvider = z.object({ id: z.string(), name: z.string() });
export const OidcProvidersResponse = z.object({ providers: z.array(OidcProvider) });
export type OidcProvidersResponse = z.infer<typeof OidcProvidersResponse>;

/**
 * `/functions/auth/oidc/start`: begins an authorization-code + PKCE flow. Open
 * `authorizationUrl` (popup or same window); the provider comes back to the configured redirect
 * URI (the web route `/auth/callback`), whose page posts its full URL to `oidc/complete`.
 */
export const OidcStartRequest = z.object({ providerId: z.string().min(1).max(64) }).strict();
export const OidcStartResponse = z.object({
  authorizationUrl: z.string(),
  state: z.string(),
  /**
   * A secret of this flow, kept by the browser that started it (never in a URL) and presented
   * again to `oidc/complete`: a callback link opened in another browser cannot be completed.
   */
  flowSecret: z.string(),
});
export type OidcStartRequest = z.infer<typeof OidcStartRequest>;
export type OidcStartResponse = z.infer<typeof OidcStartResponse>;

/**
 * `/functions/auth/oidc/complete`: `callbackUrl` is the full URL the provider redirected to
 * (with `code` and `state`) and `flowSecret` from `oidc/start`; the bearer (or its absence) must be
 * the one that started the flow. With an anonymous bearer the identity is linked to that user
 * (upgrade); answers an AuthSession, or 409 `credential_in_use` (see CredentialInUseError).
 */
export const OidcCompleteRequest = z
  .object({ callbackUrl: z.string().min(1).max(4096), flowSecret: z.string().min(1).max(128) })
  .strict();
export type OidcCompleteRequest = z.infer<typeof OidcCompleteRequest>;

/** The 409 body when a social identity already belongs to another user. */
export const CredentialInUseError = z.object({
  error: z.literal('credential_in_use'),
  message: z.string(),
  /** Single use, valid 5 minutes: POST it to `/functions/auth/signInWithCredential`. */
  credential: z.string(),
});
export type CredentialInUseError = z.infer<typeof CredentialInUseError>;

/** `/functions/auth/signInWithCredential`: answers the AuthSession of the credential's user. */
export const SignInWithCredentialRequest = z.object({ credential: z.string().min(20).max(256) }).strict();
export type SignInWithCredentialRequest = z.infer<typeof SignInWithCredentialRequest>;

/** Fields a user may change on their own record. */
export const UserUpdates = z
  .object({
    name: UserName,
    avatar: MediaUrl.nullable(),
    localeCode: LocaleCode.nullable(),
    currencyCode: CurrencyCode.nullable(),
  })
  .partial()
  .strict()
  .refine((updates) => Object.keys(updates).length > 0, 'must change at least one field');

/**
 * `/functions/customerpage/updateUser` (spec §7): `customerUid` must be the caller (bearer).
 * Also how an anonymous participant enters "just a name", and how a user renames. Answers the
 * updated `UserDoc` (live-documents.ts); the `user` live query follows.
 */
export const UpdateUserRequest = z
  .object({
    pageUid: Uid.optional(),
    campaignUid: Uid.optional(),
    customerUid: z.string().min(1).max(128),
    updates: UserUpdates,
  })
  .strict();
export type UpdateUserRequest = z.infer<typeof UpdateUserRequest>;

/** A 429 body: when to try again. */
export const RateLimitedError = z.object({
  error: z.literal('rate_limited'),
  message: z.string(),
  retryAfterMs: z.number().int().nonnegative(),
});
export type RateLimitedError = z.infer<typeof RateLimitedError>;
