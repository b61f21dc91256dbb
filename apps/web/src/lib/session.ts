import { TOKEN_REFRESH_INTERVAL_MS } from '@vitrine/domain';
import type { AuthSession, CallRequest, CallResponse, ClientCallName } from '@vitrine/protocol';
import { ApiError, call } from './api.ts';
import { debugLog, logFailure } from './debug.ts';
import { getRealtimeClient, setRealtimeTokenProvider } from './realtime/use-live-query.ts';

/**
 * The viewer's session: a short-lived id token plus a rotating refresh token, kept in
 * localStorage (not a cookie, so an embedded player works where third-party cookies are blocked)
 * and refreshed every 30 minutes (spec §7). Signing in is lazy: an anonymous account is created
 * the first time something needs one. Each refresh token is good for one exchange; replaying a
 * spent one revokes the whole sign-in, so tabs of one browser rotate under a shared lock and
 * adopt each other's sessions through the storage event.
 */
const STORAGE_KEY = 'vitrine-session';
const REFRESH_LOCK = 'vitrine-session-refresh';
/** After a refresh failed for a reason other than a refused token (offline, 5xx), try again this soon. */
const REFRESH_RETRY_MS = 60_000;

/** A stored session; sessions stored before refresh tokens existed have none and refresh by id token. */
type StoredSession = Omit<AuthSession, 'refreshToken'> & { refreshToken?: string };

let current: StoredSession | null = readStored();
let signingIn: Promise<AuthSession> | null = null;
let refreshing: Promise<StoredSession | null> | null = null;
let refreshTimer: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<(session: StoredSession | null) => void>();

function readStored(): StoredSession | null {
  try {
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as StoredSession | null;
    return stored &&
      typeof stored.idToken === 'string' &&
      typeof stored.expiresAt === 'number' &&
      typeof stored.user?.uid === 'string'
      ? stored
      : null;
  } catch {
    return null;
  }
}

function adopt(session: StoredSession | null) {
  current = session;
  scheduleRefresh();
  // Listeners hear of the new user only once the socket has its token: what they subscribe to
  // next (the user's own documents) must reach the server after the auth frame, not before it.
  void getRealtimeClient()
    .refreshAuth()
    .finally(() => {
      if (current !== session) return;
      for (const listener of listeners) listener(session);
    });
}

function store(session: StoredSession | null) {
  try {
    if (session) localStorage.setItem(STORAGE_KEY, JSON.stringify(session));
    else localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage can be blocked in embedded contexts: the session then lasts for this page only.
  }
  adopt(session);
}

/** Another tab signed in, out or rotated the tokens: follow it rather than replay a spent token. */
function onStorage(event: StorageEvent) {
  if (event.key !== STORAGE_KEY && event.key !== null) return;
  const stored = readStored();
  if (stored?.idToken !== current?.idToken) adopt(stored);
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

/** Runs `task` while holding the browser-wide refresh lock, where the Web Locks API exists. */
function withRefreshLock<T>(task: () => Promise<T>): Promise<T> {
  return typeof navigator !== 'undefined' && navigator.locks
    ? navigator.locks.request(REFRESH_LOCK, task)
    : task();
}

/**
 * Exchanges the session's refresh token for the next session (the old id token for sessions
 * stored before refresh tokens). Inside the lock it first re-reads storage: when another tab has
 * already rotated the token, its session is adopted instead of replaying the spent one. Resolves
 * to the new session, or null when the server refused it (the viewer starts over anonymously).
 */
function refresh(): Promise<StoredSession | null> {
  const session = current;
  if (!session) return Promise.resolve(null);
  refreshing ??= withRefreshLock(async () => {
    const stored = readStored();
    if (stored && stored.idToken !== session.idToken && stored.expiresAt > Date.now()) {
      adopt(stored);
      return stored;
    }
    try {
      const next = await call(
        'refreshIdToken',
        session.refreshToken ? { refreshToken: session.refreshToken } : { idToken: session.idToken },
      );
      store(next);
      return next;
    } catch (error) {
      // Spec §8: sign-in failures are logged only. A refused token means starting over anonymously;
      // anything else (offline, server trouble) keeps the session and tries again soon.
      logFailure('refreshing the session failed', error);
      if (error instanceof ApiError && (error.status === 401 || error.status === 400)) {
        store(null);
        return null;
      }
      clearTimeout(refreshTimer);
      refreshTimer = setTimeout(() => void refresh(), REFRESH_RETRY_MS);
      return current && current.expiresAt > Date.now() ? current : null;
    }
  }).finally(() => {
    refreshing = null;
  });
  return refreshing;
}

/** The current id token, or null when the viewer has no session yet. */
export function currentIdToken(): string | null {
  return current && current.expiresAt > Date.now() ? current.idToken : null;
}

/** The viewer's session as it is now (possibly expired and about to be refreshed), or null. */
export function currentSession(): StoredSession | null {
  return current;
}

/** Calls `listener` whenever the viewer signs in, out, or the tokens rotate; returns the unsubscribe. */
export function onSessionChange(listener: (session: StoredSession | null) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Makes a session another call answered (sign-in, sign-up, social sign-in, logout) the viewer's. */
export function adoptSession(session: AuthSession): void {
  store(session);
}

/** Keeps the held user's name in step after a rename (the user live query has the full record). */
export function updateSessionUser(updates: { name: string }): void {
  if (current) store({ ...current, user: { ...current.user, ...updates } });
}

/**
 * The viewer's session, signing in anonymously when there is none (spec §4 "Authentication").
 * An expired session is refreshed first, so a signed-in viewer does not silently become anonymous.
 */
export async function ensureSession(): Promise<StoredSession> {
  if (current && current.expiresAt > Date.now()) return current;
  if (current) {
    const refreshed = await refresh();
    if (refreshed) return refreshed;
  }
  signingIn ??= call('signInAnonymously', {})
    .then((session) => {
      store(session);
      return session;
    })
    .finally(() => {
      signingIn = null;
    });
  return signingIn;
}

const bearer = (session: StoredSession) => ({ authorization: `Bearer ${session.idToken}` });

/**
 * Sends a request with the viewer's id token as the bearer, signing in anonymously first when
 * needed; a 401 (token revoked or expired early) refreshes once and retries. `label` names the
 * request in the debug log.
 */
export async function sendAsViewer<T>(
  label: string,
  send: (authorization: { authorization: string }) => Promise<T>,
): Promise<T> {
  const session = await ensureSession();
  try {
    return await send(bearer(session));
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 401 || error.code !== 'unauthenticated') throw error;
    debugLog(`${label} refused the id token; refreshing once`);
    return send(bearer((await refresh()) ?? (await ensureSession())));
  }
}

/** A call as the viewer (spec §7): see sendAsViewer. `headers` go with it (e.g. the viewer id). */
export function callAsViewer<N extends ClientCallName>(
  name: N,
  input: CallRequest<N>,
  headers: Record<string, string> = {},
): Promise<CallResponse<N>> {
  return sendAsViewer(name, (authorization) => call(name, input, { ...headers, ...authorization }));
}

/**
 * Logs out (spec §4): the server revokes this sign-in and answers a new anonymous session, which
 * becomes the viewer's. Callers unload the cart. Without a refresh token (or when the server
 * cannot be reached) the session is dropped locally and a fresh anonymous one is made.
 */
export async function logout(): Promise<StoredSession> {
  const session = current;
  try {
    if (session?.refreshToken) {
      adoptSession(await call('logout', { refreshToken: session.refreshToken }));
      if (current) return current;
    }
  } catch (error) {
    logFailure('logging out failed', error);
  }
  store(null);
  return ensureSession();
}

/** Hooks the session into the realtime socket and starts refreshing; called once at start-up. */
export function startSession(): void {
  setRealtimeTokenProvider(async () => currentIdToken());
  window.addEventListener('storage', onStorage);
  if (current && current.expiresAt <= Date.now()) void refresh();
  else scheduleRefresh();
}
