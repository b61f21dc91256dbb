/**
 * Pure checks and builders of the SDK (no DOM), so they are unit-tested in Node: the message
 * from the player, the message to it, the widget URL and the init options.
 */

import type { EmbedQueryName } from '@vitrine/protocol/embed-query';
import {
  EMBED_MODES,
  type EmbedMode,
  FORCED_BASKET_MODES,
  HOST_ACTIONS,
  HOST_MESSAGE_MAX_BYTES,
  HOST_PROTOCOL_VERSION,
  HOST_TO_PLAYER_MESSAGE_TYPES,
  type HostAction,
  NAVIGATION_MODES,
  WIDGET_CONTEXTS,
  type WidgetContext,
} from '@vitrine/protocol/vocabulary';
import {
  type Envelope,
  type HostFeatures,
  type HostToPlayerType,
  PLAYER_TO_HOST_FIELDS,
  type PlayerToHostType,
} from './protocol.ts';

const has = (object: object, key: string) => Object.hasOwn(object, key);

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Size of a value as JSON in UTF-8 bytes, or Infinity when it is no JSON value (cycles, BigInt). */
export function jsonBytes(value: unknown): number {
  try {
    const json = JSON.stringify(value);
    if (json === undefined) return Number.POSITIVE_INFINITY;
    // A string of n UTF-16 units takes at least n bytes; skip the encoding when that is already too big.
    return json.length > HOST_MESSAGE_MAX_BYTES ? json.length : new TextEncoder().encode(json).length;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

const FIELD_CHECKS = {
  s: (v: unknown) => typeof v === 'string',
  S: (v: unknown) => v === null || typeof v === 'string',
  b: (v: unknown) => typeof v === 'boolean',
  n: (v: unknown) => typeof v === 'number' && Number.isFinite(v),
  o: isObject,
  a: Array.isArray,
};

const isId = (value: unknown): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= 200;

/**
 * The message from a player, or null when it is not one to act on: not an envelope of version 1,
 * another player's id, an unknown type, a payload without its required fields, or larger than
 * HOST_MESSAGE_MAX_BYTES. A missing payload of a message without fields counts as `{}`. The
 * caller has already checked the sender (origin and window).
 */
export function parsePlayerMessage(
  data: unknown,
  playerId: string,
): { type: PlayerToHostType; payload: Record<string, unknown> } | null {
  if (!isObject(data) || data.vitrine !== HOST_PROTOCOL_VERSION || data.playerId !== playerId) return null;
  const type = data.type;
  if (typeof type !== 'string' || !has(PLAYER_TO_HOST_FIELDS, type)) return null;
  if (jsonBytes(data) > HOST_MESSAGE_MAX_BYTES) return null;
  const fields = PLAYER_TO_HOST_FIELDS[type as PlayerToHostType];
  const payload = data.payload === undefined ? {} : data.payload;
  if (!isObject(payload)) return null;
  for (const key in fields) {
    if (!has(payload, key) || !FIELD_CHECKS[fields[key]!](payload[key])) return null;
  }
  return { type: type as PlayerToHostType, payload };
}

/** The message to a player, or an Error saying why it cannot be sent. */
export function hostMessage(playerId: string, type: string, payload: unknown): Envelope | Error {
  if (!HOST_TO_PLAYER_MESSAGE_TYPES.includes(type as HostToPlayerType))
    return new Error(`unknown message type "${type}"`);
  const body = payload === undefined ? {} : payload;
  if (!isObject(body)) return new Error(`the payload of "${type}" must be an object`);
  const message = { vitrine: HOST_PROTOCOL_VERSION, playerId, type, payload: body } as const;
  if (jsonBytes(message) > HOST_MESSAGE_MAX_BYTES)
    return new Error(`"${type}" is larger than ${HOST_MESSAGE_MAX_BYTES} bytes as JSON`);
  return message;
}

/**
 * Where a minimized player sits: its corner, margins (20 px, spec §9) and size. Without one in
 * the init options, the page's player settings (minimizedHorizontalPosition, …) decide.
 */
export interface MinimizedBox {
  horizontal: 'right' | 'left';
  vertical: 'bottom' | 'top';
  /** Margin to the left or right edge, px. */
  horizontalMargin: number;
  /** Margin to the top or bottom edge, px. */
  verticalMargin: number;
  width: number;
  height: number;
}

/** The serializable part of the init options, after checking (what a minimized player persists). */
export interface PlayerConfig {
  origin: string;
  pageUid: string;
  campaignUid: string | null;
  eventUid: string | null;
  mode: EmbedMode;
  context: WidgetContext;
  usableActions: HostAction[];
  supportedFeatures: HostFeatures;
  /** Inline mode's box, `width:height`. */
  aspectRatio: string;
  minimized: MinimizedBox;
  language: string | null;
  /** Opens the store page's search for this text (`?q=`) instead of its shows. */
  search: string | null;
  /** Seconds into the recorded show `eventUid` to start at (`?t=`): a search result's moment. */
  startTime: number | null;
  /** The retailer's product (SKU or external id) whose newest clip the player shows ("Seen live"). */
  seenLive: string | null;
}

export const DEFAULT_MINIMIZED_BOX: MinimizedBox = {
  horizontal: 'right',
  vertical: 'bottom',
  horizontalMargin: 20,
  verticalMargin: 20,
  width: 180,
  height: 320,
};

/** Throws the TypeError of a bad init option (a mistake of the integration). */
export const fail = (message: string): never => {
  throw new TypeError(`Vitrine.init: ${message}`);
};

/** The origin of a URL, or null when it is no http(s) URL. */
export function httpOrigin(url: unknown, base?: string): string | null {
  try {
    const parsed = new URL(String(url), base);
    return /^https?:$/.test(parsed.protocol) ? parsed.origin : null;
  } catch {
    return null;
  }
}

/** Only known features with allowed values: the player rejects capabilities with anything else. */
export function cleanFeatures(features: unknown): HostFeatures {
  const f = isObject(features) ? features : {};
  const out: HostFeatures = {};
  if (typeof f.MINIMIZED_PLAYER === 'boolean') out.MINIMIZED_PLAYER = f.MINIMIZED_PLAYER;
  const navigation = NAVIGATION_MODES.find((mode) => mode === f.NAVIGATION);
  if (navigation) out.NAVIGATION = navigation;
  const basketMode = FORCED_BASKET_MODES.find((mode) => mode === f.FORCE_BASKET_MODE);
  if (basketMode) out.FORCE_BASKET_MODE = basketMode;
  return out;
}

const positive = (value: unknown, fallback: number) =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fallback;

/** Checks init options; throws a TypeError naming the first bad one (a mistake of the integration). */
export function playerConfig(options: Record<string, unknown>, defaultOrigin: string | null): PlayerConfig {
  const origin = httpOrigin(options.origin ?? defaultOrigin);
  if (!origin) fail('`origin` (the Vitrine server) is required');
  if (!isId(options.pageUid)) fail('`pageUid` is required');
  const optionalId = (key: string) => {
    const value = options[key];
    if (value == null) return null;
    return isId(value) ? value : fail(`\`${key}\` must be a non-empty string`);
  };
  const campaignUid = optionalId('campaignUid');
  const eventUid = optionalId('eventUid');
  if (eventUid && !campaignUid) fail('`eventUid` needs `campaignUid`');
  const mode = (options.mode ?? 'modal') as EmbedMode;
  if (!EMBED_MODES.includes(mode)) fail(`\`mode\` must be one of ${EMBED_MODES.join(', ')}`);
  const context = (options.context ?? 'on_site') as WidgetContext;
  if (!WIDGET_CONTEXTS.includes(context)) fail(`\`context\` must be one of ${WIDGET_CONTEXTS.join(', ')}`);
  const actions = options.usableActions ?? [];
  if (!Array.isArray(actions) || actions.some((a) => !HOST_ACTIONS.includes(a)))
    fail(`\`usableActions\` may list only ${HOST_ACTIONS.join(', ')}`);
  const aspectRatio = options.aspectRatio ?? '16:9';
  if (typeof aspectRatio !== 'string' || !/^\d+(\.\d+)?:\d+(\.\d+)?$/.test(aspectRatio))
    fail('`aspectRatio` must look like "16:9"');
  const box = isObject(options.minimized) ? options.minimized : {};
  const d = DEFAULT_MINIMIZED_BOX;
  return {
    origin: origin as string,
    pageUid: options.pageUid as string,
    campaignUid,
    eventUid,
    mode,
    context,
    usableActions: [...new Set(actions as HostAction[])],
    supportedFeatures: cleanFeatures(options.supportedFeatures),
    aspectRatio: aspectRatio as string,
    minimized: {
      horizontal: box.horizontal === 'left' ? 'left' : d.horizontal,
      vertical: box.vertical === 'top' ? 'top' : d.vertical,
      // `margin` sets both.
      horizontalMargin: positive(box.horizontalMargin, positive(box.margin, d.horizontalMargin)),
      verticalMargin: positive(box.verticalMargin, positive(box.margin, d.verticalMargin)),
      width: positive(box.width, d.width),
      height: positive(box.height, d.height),
    },
    language: typeof options.language === 'string' && options.language ? options.language : null,
    // Checked by the pages that read them (the loader has no bytes to spare): the store page's
    // search box takes the text as typed, the player ignores a start time that is no seconds.
    search: (options.search as string) || null,
    startTime: (options.startTime as number) ?? null,
    seenLive: (options.seenLive as string) || null,
  };
}

/** Where a player is in which show, as its last playback_position said, and when (Date.now()). */
export interface PlaybackPosition {
  campaignUid: string | null;
  eventUid: string;
  /** Seconds into the show's video. */
  time: number;
  playing: boolean;
  at: number;
}

/** A saved position, or null when it is not one (storage is the page's, so anything may be there). */
export function playbackPosition(value: unknown): PlaybackPosition | null {
  if (!isObject(value)) return null;
  const { campaignUid, eventUid, time, playing, at } = value;
  return isId(eventUid) &&
    (campaignUid === null || isId(campaignUid)) &&
    typeof time === 'number' &&
    time >= 0 &&
    typeof playing === 'boolean' &&
    typeof at === 'number'
    ? { campaignUid, eventUid, time, playing, at }
    : null;
}

/** Where to resume at `now`: a playing video went on since its position was reported (up to an hour). */
export function resumeTime(position: PlaybackPosition, now: number): number {
  const elapsed = position.playing ? Math.min(Math.max(now - position.at, 0), 3_600_000) : 0;
  return Math.round(position.time * 10 + elapsed / 100) / 10;
}

/**
 * The iframe's address: the widget route of the page, campaign or event, with what the player
 * reads from its query (embed=1, playerId, hostOrigin, context, mode, and minimized=1 / lang
 * when they apply). A player brought back on another page (`resume`) opens the show it was
 * playing, with resumeEvent, resumeAt (seconds) and autoplay=1 when it was playing.
 */
export function widgetUrl(
  config: PlayerConfig,
  playerId: string,
  hostOrigin: string,
  minimized = false,
  resume: PlaybackPosition | null = null,
  now = 0,
): string {
  const e = encodeURIComponent;
  let path = `/widget/${e(config.pageUid)}/`;
  const campaignUid = resume?.campaignUid ?? config.campaignUid;
  const eventUid = resume?.campaignUid ? resume.eventUid : config.eventUid;
  if (campaignUid) {
    path += eventUid ? `campaign/${e(campaignUid)}/event/${e(eventUid)}` : e(campaignUid);
  }
  // The names are the protocol's EMBED_QUERY, checked by type only: the loader has no bytes to spare.
  const query = new URLSearchParams({
    embed: '1',
    playerId,
    hostOrigin,
    context: config.context,
    mode: config.mode,
  } satisfies Partial<Record<EmbedQueryName, string>>);
  const set: (name: EmbedQueryName, value: string) => void = (name, value) => query.set(name, value);
  if (minimized) set('minimized', '1');
  if (config.language) set('lang', config.language);
  // A player brought back on another page goes on where it was, not at the first page's search.
  if (!resume) {
    if (config.search) set('q', config.search);
    if (config.startTime != null) set('t', String(config.startTime));
    // The seen-live clip page of the store (the SDK's seenLive; never with a campaign).
    if (config.seenLive) {
      path += 'clips';
      set('product', config.seenLive);
    }
  }
  if (resume) {
    set('resumeEvent', resume.eventUid);
    set('resumeAt', String(resumeTime(resume, now)));
    if (resume.playing) set('autoplay', '1');
  }
  return `${config.origin}${path}?${query}`;
}

/** A go_to_url target the SDK will navigate to: an absolute or relative http(s) URL, never javascript: etc. */
export function navigationUrl(url: string, base: string): string | null {
  if (!httpOrigin(url, base)) return null;
  return new URL(url, base).href;
}
