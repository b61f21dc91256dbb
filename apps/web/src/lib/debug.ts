/**
 * Console logging switched on per visit: `?vitrine-debug=1` logs debug lines, and
 * `?vitrine-trace=1` together with debug adds stack traces (spec §2). The switches are read
 * once at start-up and kept for the session so client-side navigation keeps them.
 */
const SESSION_KEY = 'vitrine-debug-flags';

function readFlags(): { debug: boolean; trace: boolean } {
  const params = new URLSearchParams(window.location.search);
  if (params.has('vitrine-debug')) {
    const flags = { debug: params.get('vitrine-debug') === '1', trace: params.get('vitrine-trace') === '1' };
    try {
      sessionStorage.setItem(SESSION_KEY, JSON.stringify(flags));
    } catch {
      // Storage can be blocked in third-party iframes; the flags then last for this page load.
    }
    return { debug: flags.debug, trace: flags.debug && flags.trace };
  }
  try {
    const stored = JSON.parse(sessionStorage.getItem(SESSION_KEY) ?? 'null') as {
      debug: boolean;
      trace: boolean;
    } | null;
    if (stored) return { debug: stored.debug, trace: stored.debug && stored.trace };
  } catch {
    // Unreadable or blocked storage means no flags.
  }
  return { debug: false, trace: false };
}

const flags = readFlags();

export const isDebugEnabled = () => flags.debug;

export function debugLog(message: string, ...details: unknown[]): void {
  if (!flags.debug) return;
  if (flags.trace) console.trace(`[vitrine] ${message}`, ...details);
  else console.debug(`[vitrine] ${message}`, ...details);
}

/** Failures with no user message (spec §8) go to the console only. */
export function logFailure(what: string, error: unknown): void {
  console.error(`[vitrine] ${what}`, error);
}
