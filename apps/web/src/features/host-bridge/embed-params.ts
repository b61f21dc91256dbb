import { parseWidgetContext } from '@vitrine/domain';
import { EMBED_FLAG_ON, EMBED_QUERY, MAX_PLAYER_ID_LENGTH } from '@vitrine/protocol/embed-query';
import { EMBED_MODES, type EmbedMode, type WidgetContext } from '@vitrine/protocol/vocabulary';

export type { EmbedMode };

/**
 * What the on-site SDK puts in the iframe's query: `?embed=1&playerId=…&hostOrigin=…&context=…&mode=…`.
 * No zod here: this module is in the initial bundle and decides whether the bridge (and zod) loads.
 */
export interface EmbedParams {
  playerId: string;
  /** The host page's origin, normalised (`https://shop.example`); the only one the player talks to. */
  hostOrigin: string;
  context: WidgetContext | null;
  mode: EmbedMode | null;
  /**
   * The show and time to go on from: the SDK brought back a player minimized on the host's previous
   * page (`resumeEvent`, `resumeAt` seconds, `autoplay=1` when it was playing).
   */
  resume: { eventUid: string; time: number; autoplay: boolean } | null;
  /**
   * The player starts minimized (`minimized=1`): the SDK brought it back minimized on this page.
   * Read here, not waited for as a host command, which can arrive before the player listens.
   */
  minimized?: true;
}

/** The origin of an http(s) address, or null for anything else (opaque, file:, malformed). */
export function normalizeOrigin(value: string): string | null {
  try {
    const url = new URL(value);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    return url.origin;
  } catch {
    return null;
  }
}

/**
 * The embed parameters when the player runs embedded: `embed=1`, inside a frame (`framed`), with a
 * player id and a usable host origin; null otherwise (the player then runs on its own).
 */
export function readEmbedParams(search: string, framed: boolean): EmbedParams | null {
  if (!framed) return null;
  const query = new URLSearchParams(search);
  if (query.get(EMBED_QUERY.embed) !== EMBED_FLAG_ON) return null;
  const playerId = query.get(EMBED_QUERY.playerId) ?? '';
  if (playerId.length === 0 || playerId.length > MAX_PLAYER_ID_LENGTH) return null;
  const hostOrigin = normalizeOrigin(query.get(EMBED_QUERY.hostOrigin) ?? '');
  if (hostOrigin === null) return null;
  const mode = query.get(EMBED_QUERY.mode);
  const resumeEvent = query.get(EMBED_QUERY.resumeEvent);
  // Number('') and Number(null) are 0: a missing resumeAt must not mean "from the start".
  const resumeAt = Number(query.get(EMBED_QUERY.resumeAt) || Number.NaN);
  return {
    playerId,
    hostOrigin,
    context: parseWidgetContext(query.get(EMBED_QUERY.context)),
    mode: (EMBED_MODES as readonly (string | null)[]).includes(mode) ? (mode as EmbedMode) : null,
    resume:
      resumeEvent && Number.isFinite(resumeAt) && resumeAt >= 0
        ? {
            eventUid: resumeEvent,
            time: resumeAt,
            autoplay: query.get(EMBED_QUERY.autoplay) === EMBED_FLAG_ON,
          }
        : null,
    ...(query.get(EMBED_QUERY.minimized) === EMBED_FLAG_ON ? { minimized: true as const } : {}),
  };
}

/** Whether the host origin is one the page allows embedding on (the `embedding` read). */
export function isOriginAllowed(hostOrigin: string, allowedOrigins: readonly string[]): boolean {
  return allowedOrigins.some((allowed) => normalizeOrigin(allowed) === hostOrigin);
}

let cached: { params: EmbedParams | null } | null = null;

/** The query parameters that make a page load embedded; navigation inside the player carries them. */
const EMBED_QUERY_KEYS = [
  'embed',
  'playerId',
  'hostOrigin',
  'context',
  'mode',
] as const satisfies readonly (keyof typeof EMBED_QUERY)[];

/**
 * `search` with this page load's embed parameters added where missing (`?embed=1&playerId=…`), or
 * null when nothing is missing: a link inside an embedded player that drops them would otherwise
 * land on a page that no longer talks to the host (its cart, its close button, a reload).
 * The resume parameters are not carried: they are for the first load only.
 */
export function withEmbedQuery(search: string, params: EmbedParams): string | null {
  const query = new URLSearchParams(search);
  const wanted: Record<(typeof EMBED_QUERY_KEYS)[number], string | null> = {
    embed: EMBED_FLAG_ON,
    playerId: params.playerId,
    hostOrigin: params.hostOrigin,
    context: params.context,
    mode: params.mode,
  };
  let changed = false;
  for (const key of EMBED_QUERY_KEYS) {
    const value = wanted[key];
    if (value === null || query.get(EMBED_QUERY[key]) === value) continue;
    query.set(EMBED_QUERY[key], value);
    changed = true;
  }
  return changed ? `?${query}` : null;
}

/**
 * The embed parameters of this page load, read once at start-up (main.tsx calls it before the
 * router starts), so a navigation that drops the query does not make the player forget its host.
 */
export function currentEmbedParams(): EmbedParams | null {
  cached ??= {
    params: typeof window === 'undefined' ? null : readEmbedParams(window.location.search, isFramed()),
  };
  return cached.params;
}

function isFramed(): boolean {
  try {
    return window.parent !== window;
  } catch {
    return true;
  }
}
