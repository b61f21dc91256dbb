/**
 * Restreaming: a live show sent on to RTMP/RTMPS destinations (YouTube, Facebook, TikTok,
 * Twitch…), each with its own stream key, started and stopped by the host, with its health.
 */

/** At most this many destinations per show: each is one more outgoing stream of the node. */
export const RESTREAM_MAX_DESTINATIONS = 5;

/**
 * Where a destination stands: `stopped` (not started), `waiting` (started, the show is not live
 * yet), `connecting` (ffmpeg runs, nothing sent yet), `live` (sending), `failed` (the last run
 * failed; retried after a back-off while it stays started).
 */
export const RESTREAM_STATES = ['stopped', 'waiting', 'connecting', 'live', 'failed'] as const;
export type RestreamState = (typeof RESTREAM_STATES)[number];

/** A destination's server: rtmp:// or rtmps://, a host, an optional port and an application path. */
export const RESTREAM_SERVER_URL_PATTERN =
  /^rtmps?:\/\/[A-Za-z0-9.-]+(:[0-9]{1,5})?(\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)+\/?$/;
/** A stream key: printable ASCII without spaces (Facebook's carry `?` and `&` query parts). */
export const RESTREAM_STREAM_KEY_PATTERN = /^[\x21-\x7e]{1,512}$/;

/** Waits between the attempts of a failing destination: quick at first, then every minute. */
export const RESTREAM_RETRY_DELAYS_MS = [2_000, 5_000, 10_000, 30_000, 60_000] as const;
/** A run that sent this long counts as a success: the next failure starts the back-off over. */
export const RESTREAM_STABLE_MS = 30_000;

/** How long to wait before attempt `failures + 1`, after `failures` failures in a row. */
export function restreamRetryDelayMs(failures: number): number {
  const index = Math.min(Math.max(failures, 1), RESTREAM_RETRY_DELAYS_MS.length) - 1;
  return RESTREAM_RETRY_DELAYS_MS[index] as number;
}

/**
 * The form a stream key is shown in once saved: its last four characters behind dots, or dots
 * alone for a key too short to show any of it without giving most of it away.
 */
export function maskStreamKey(key: string): string {
  return key.length >= 12 ? `••••${key.slice(-4)}` : '••••';
}

/** The URL ffmpeg publishes to: the server's URL and the key as the stream name. */
export function restreamPublishUrl(serverUrl: string, streamKey: string): string {
  return `${serverUrl.replace(/\/+$/, '')}/${streamKey}`;
}

/** `text` with every occurrence of `secret` replaced: ffmpeg's errors quote the URL they failed on. */
export function redactSecret(text: string, secret: string): string {
  return secret.length === 0 ? text : text.split(secret).join('[stream key]');
}
