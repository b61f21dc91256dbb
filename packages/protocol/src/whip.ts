// WHIP (WebRTC-HTTP ingestion protocol, RFC 9725): how an encoder publishes a show.
// One endpoint for every show, like OBS's "Service: WHIP": the bearer token is the show's
// stream key, so an encoder needs only the URL and the key.

/** The WHIP endpoint: `POST` an SDP offer with `Authorization: Bearer <stream key>`. */
export const WHIP_PATH = '/whip';

/** Where a publish's session resource lives (`Location` of the 201); `DELETE` ends the publish. */
export const WHIP_SESSION_PATH_PREFIX = '/whip/sessions/';

/** The media type of offers and answers (RFC 9725 §4.2). */
export const SDP_CONTENT_TYPE = 'application/sdp';

/** The largest offer accepted; a browser's offer is a few kilobytes. */
export const WHIP_OFFER_MAX_BYTES = 64 * 1024;

/** Why a publish is refused, as the `error` of the JSON body beside the 4xx status. */
export const WHIP_REFUSALS = [
  'missing_key',
  'unknown_key',
  'busy',
  'ended',
  'bad_offer',
  'unsupported_media_type',
  'no_video',
  'unsupported_codec',
  'unavailable',
] as const;
export type WhipRefusal = (typeof WHIP_REFUSALS)[number];

/** The session resource path of a publish. */
export function whipSessionPath(sessionId: string): string {
  return `${WHIP_SESSION_PATH_PREFIX}${encodeURIComponent(sessionId)}`;
}
