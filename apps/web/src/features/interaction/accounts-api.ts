import type {
  AuthSession,
  CredentialInUseError,
  OidcProvidersResponse,
  OidcStartResponse,
  SignInWithPasswordRequest,
  SignUpRequest,
} from '@vitrine/protocol';
import { ApiError, call } from '../../lib/api.ts';
import { adoptSession, callAsViewer } from '../../lib/session.ts';

/**
 * Signing in beyond the automatic anonymous session (spec §4 "Authentication", §6 roles): e-mail
 * and password, social sign-in through OpenID Connect, and the credential-in-use retry of §8.
 * Every successful call's session becomes the viewer's.
 */

/** Creates an e-mail + password account; an anonymous viewer is upgraded in place (keeps their comments). */
export async function signUp(request: SignUpRequest): Promise<AuthSession> {
  const session = await callAsViewer('signUp', request);
  adoptSession(session);
  return session;
}

export async function signInWithPassword(request: SignInWithPasswordRequest): Promise<AuthSession> {
  const session = await call('signInWithPassword', request);
  adoptSession(session);
  return session;
}

export async function oidcProviders(): Promise<OidcProvidersResponse['providers']> {
  return (await call('oidcProviders', {})).providers;
}

/**
 * The secrets of the social sign-ins this browser started, by state: in memory for the popup
 * (this page finishes the flow), and in sessionStorage for a same-window sign-in, which reloads
 * the page before the callback. Never in a URL or a cookie, so a callback link sent by someone
 * else finds no secret here, and a player in a third-party iframe (partitioned cookies) works.
 */
const flowSecrets = new Map<string, string>();
const flowSecretKey = (state: string) => `vitrine-oidc-flow:${state}`;

/** Starts a social sign-in as the current viewer, who alone can finish it (see completeOidc). */
export async function startOidc(providerId: string): Promise<OidcStartResponse> {
  const started = await callAsViewer('oidcStart', { providerId });
  flowSecrets.set(started.state, started.flowSecret);
  try {
    sessionStorage.setItem(flowSecretKey(started.state), started.flowSecret);
  } catch {
    // No storage (a sandboxed frame): the popup flow still has the secret in memory.
  }
  return started;
}

/** The secret this browser kept for the flow of `callbackUrl`, used once; null for a foreign link. */
function takeFlowSecret(callbackUrl: string): string | null {
  let state: string | null = null;
  try {
    state = new URL(callbackUrl).searchParams.get('state');
  } catch {
    return null;
  }
  if (!state) return null;
  let secret = flowSecrets.get(state) ?? null;
  flowSecrets.delete(state);
  try {
    secret ??= sessionStorage.getItem(flowSecretKey(state));
    sessionStorage.removeItem(flowSecretKey(state));
  } catch {
    // No storage: only the in-memory secret counts.
  }
  return secret;
}

function isCredentialInUse(error: unknown): error is ApiError & { body: CredentialInUseError } {
  return (
    error instanceof ApiError &&
    error.status === 409 &&
    error.code === 'credential_in_use' &&
    typeof (error.body as Partial<CredentialInUseError> | null)?.credential === 'string'
  );
}

/**
 * Finishes a social sign-in with the URL the provider redirected to. The anonymous viewer is
 * upgraded; when the social identity already belongs to another account, the sign-in is retried
 * with the credential from the error (spec §8), which signs in as that account.
 */
export async function completeOidc(callbackUrl: string): Promise<AuthSession> {
  const flowSecret = takeFlowSecret(callbackUrl);
  // A callback this browser did not start (e.g. a link someone sent): never sent to the server.
  if (!flowSecret) throw new Error('this browser did not start the social sign-in of the callback');
  let session: AuthSession;
  try {
    session = await callAsViewer('oidcComplete', { callbackUrl, flowSecret });
  } catch (error) {
    if (!isCredentialInUse(error)) throw error;
    session = await call('signInWithCredential', {
      credential: error.body.credential,
    });
  }
  adoptSession(session);
  return session;
}

/** The message the social sign-in popup posts to the player that opened it. */
export const OIDC_CALLBACK_MESSAGE = 'vitrine-oidc-callback';
/** Where a same-window social sign-in returns to, when a popup could not be opened. */
export const OIDC_RETURN_KEY = 'vitrine-oidc-return';
