import { TOKEN_REFRESH_INTERVAL_MS } from '@vitrine/domain';
import type { AuthSession } from '@vitrine/protocol';
import { callMain } from './api.ts';
import { logFailure } from './debug.ts';
import { getRealtimeClient, setRealtimeTokenProvider } from './realtime/use-live-query.ts';

/**
 * The viewer's session: a short-lived id token kept in localStorage (not a cookie, so an embedded
 * player works where third-party cookies are blocked) and refreshed every 30 minutes (spec §7).
 * Signing in is lazy: an anonymous account is created the first time something needs one.
 */
const STORAGE_KEY = 'vitrine-session';

let current: AuthSession | null = readStored();
let signingIn: Promise<AuthSession> | null = null;
let refreshTimer: ReturnType<typeof setTimeout> | undefined;

function readStored(): AuthSession | null {
  try {
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as AuthSession | null;
    return stored && typeof stored.idToken === 'string' && typeof stored.expiresAt === 'number'
      ? stored
      : null;
  } catch {
    return null;
  }
}

function store(session: AuthSession | null) {
  current = session;
  try {
    if (session) localStorage.setItem(STORAGE_KEY, JSON.stringify(session));
    else localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage can be blocked in embedded contexts: the session then lasts for this page only.
  }
  scheduleRefresh();
  void getRealtimeClient().refreshAuth();
}

/** When the next refresh is due: 30 minutes after the token was issued, at once if that has passed. */
export function refreshDelayMs(
  session: Pick<AuthSession, 'expiresAt'>,
  issuedTtlMs: number,
  now: number,
): number {
  const issuedAt = session.expiresAt - issuedTtlMs;
  return Math.max(0, issuedAt + TOKEN_REFRESH_INTERVAL_MS - now);
}

/** Tokens live an hour (see apps/server/src/features/auth/id-token.ts). */
const ID_TOKEN_TTL_MS = 60 * 60_000;

function scheduleRefresh() {
  clearTimeout(refreshTimer);
  if (!current) return;
  refreshTimer = setTimeout(() => void refresh(), refreshDelayMs(current, ID_TOKEN_TTL_MS, Date.now()));
}

async function refresh(): Promise<void> {
  const session = current;
  if (!session) return;
  try {
    store(await callMain<AuthSession>('/functions/auth/refreshIdToken', { idToken: session.idToken }));
  } catch (error) {
    // Spec §8: sign-in failures are logged only; a refused token means starting over anonymously.
    logFailure('refreshing the session failed', error);
    store(null);
  }
}

/** The current id token, or null when the viewer has no session yet. */
export function currentIdToken(): string | null {
  return current && current.expiresAt > Date.now() ? current.idToken : null;
}

/** The viewer's session, signing in anonymously when there is none (spec §4 "Authentication"). */
export function ensureSession(): Promise<AuthSession> {
  if (current && current.expiresAt > Date.now()) return Promise.resolve(current);
  signingIn ??= callMain<AuthSession>('/functions/auth/signInAnonymously', {})
    .then((session) => {
      store(session);
      return session;
    })
    .finally(() => {
      signingIn = null;
    });
  return signingIn;
}

/** Hooks the session into the realtime socket and starts refreshing; called once at start-up. */
export function startSession(): void {
  setRealtimeTokenProvider(async () => currentIdToken());
  if (current && current.expiresAt <= Date.now()) void refresh();
  else scheduleRefresh();
}
