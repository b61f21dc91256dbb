import { createHash } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { StaffGate } from '../../http/caller.ts';
import { notFound } from '../../http/errors.ts';
import { registerCall } from '../../http/register-call.ts';
import type { LiveService } from './live-service.ts';
import { createBoundedCache } from './read-cache.ts';
import {
  EVENT_ID_PATTERN,
  LOW_LATENCY_FILE,
  MASTER_PLAYLISTS,
  PLAYLIST_CONTENT_TYPE,
  RECORDING_FILE_PATTERN,
  renditionOf,
} from './show-recording.ts';

/**
 * The cache policy of each answer, for the players and for a CDN (or nginx) in front: a playlist
 * that still grows changes each segment, so it is kept a second (one request per second and
 * edge reaches the node, whatever the number of viewers); one with ENDLIST (the replay of an
 * ended show) no longer changes; a segment never does (its name is never used again). What the
 * studio's preview token opens is for the studio alone, never a shared cache; and a miss is kept
 * a second, so a playlist that appears at Go live is seen at once.
 */
export const HLS_CACHE_CONTROL = {
  growingPlaylist: 'public, max-age=1, s-maxage=1',
  endedPlaylist: 'public, max-age=3600, s-maxage=86400',
  segment: 'public, max-age=31536000, immutable',
  preview: 'private, no-cache',
  missing: 'public, max-age=1, s-maxage=1',
} as const;
/** Where the HLS viewers play: `/live/<eventId>/<file>`. */
const LIVE_PATH_PREFIX = '/live/';
/**
 * How long a playlist answer is given again without asking the live service: a playlist changes
 * once a second (a segment), so 50 ms more delay at most, and thousands of viewers a second cost
 * a few lookups (bench/live).
 */
const PLAYLIST_REUSE_MS = 50;
/**
 * Prepared playlist answers kept (a show's playlists and previews each); guessed ids never get
 * here (no playlist), so this bounds shows × playlists, least recently asked going first.
 */
const PREPARED_PLAYLISTS_MAX = 10_000;

/** An answer to an HLS request: its status, headers (flat: name, value, …) and body. */
interface HlsResponse {
  status: 200 | 302 | 304 | 400 | 503;
  headers: string[];
  body: Buffer | null;
}

/**
 * Headers every HLS answer carries: viewers of any origin play the stream (the player is embedded
 * on retailers' sites), and the body is never sniffed for another type.
 */
const COMMON_HEADERS = ['access-control-allow-origin', '*', 'x-content-type-options', 'nosniff'];

/** A playlist's answers, made once per text: thousands of viewers ask for the same one each second. */
interface PreparedPlaylist {
  text: string;
  /** When the live service last answered this text (performance.now()). */
  checkedAt: number;
  etag: string;
  ok: HlsResponse;
  notModified: HlsResponse;
}

function preparePlaylist(text: string, preview: boolean): PreparedPlaylist {
  const body = Buffer.from(text);
  const etag = `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;
  const cacheControl = preview
    ? HLS_CACHE_CONTROL.preview
    : text.includes('#EXT-X-ENDLIST')
      ? HLS_CACHE_CONTROL.endedPlaylist
      : HLS_CACHE_CONTROL.growingPlaylist;
  const headers = [...COMMON_HEADERS, 'cache-control', cacheControl, 'etag', etag];
  return {
    text,
    checkedAt: performance.now(),
    etag,
    ok: {
      status: 200,
      headers: [...headers, 'content-type', PLAYLIST_CONTENT_TYPE, 'content-length', String(body.length)],
      body,
    },
    // A CDN (or player) revalidating an unchanged playlist gets no body.
    notModified: { status: 304, headers, body: null },
  };
}

/**
 * Serves the HLS files of live shows (playlists and segments), answers made once and reused:
 * a playlist's bytes, ETag and headers per text, a segment's headers per segment. Null when
 * there is no such file (the caller answers 404).
 */
export function createHlsResponder(live: LiveService) {
  const playlists = createBoundedCache<PreparedPlaylist>(PREPARED_PLAYLISTS_MAX);
  /** A segment's answers, for viewers and for the studio's preview (which no shared cache keeps). */
  const segmentResponses = {
    viewer: new WeakMap<Buffer, HlsResponse>(),
    preview: new WeakMap<Buffer, HlsResponse>(),
  };
  const playlistKey = (eventId: string, file: string, preview: string | null) =>
    preview === null ? `${eventId}/${file}` : `${eventId}/${file}?${preview}`;

  /** The playlist answer the live service gave less than PLAYLIST_REUSE_MS ago, if any (no await). */
  function recentPlaylist(
    eventId: string,
    file: string,
    preview: string | null,
    ifNoneMatch: string | undefined,
  ): HlsResponse | null {
    const prepared = playlists.get(playlistKey(eventId, file, preview));
    if (!prepared || performance.now() - prepared.checkedAt >= PLAYLIST_REUSE_MS) return null;
    return ifNoneMatch === prepared.etag ? prepared.notModified : prepared.ok;
  }

  async function respond(
    eventId: string,
    file: string,
    preview: string | null,
    ifNoneMatch: string | undefined,
    query: URLSearchParams = new URLSearchParams(),
  ): Promise<HlsResponse | null> {
    if (!EVENT_ID_PATTERN.test(eventId) || !RECORDING_FILE_PATTERN.test(file)) return null;
    const lowLatency = LOW_LATENCY_FILE.exec(file);
    if (lowLatency) {
      // Blocking requests differ by their query and wait for the edge: never the reused answers.
      const answer = await live.lowLatencyPlaylist(
        eventId,
        lowLatency[1] ?? null,
        lowLatency[2] !== undefined,
        preview,
        query,
      );
      if (answer === null) return null;
      if (answer.status !== 200) {
        const body = Buffer.from(answer.message);
        return {
          status: answer.status,
          headers: [
            ...COMMON_HEADERS,
            'cache-control',
            'no-store',
            'content-type',
            'text/plain; charset=utf-8',
            'content-length',
            String(body.length),
          ],
          body,
        };
      }
      const prepared = preparePlaylist(answer.text, preview !== null);
      return ifNoneMatch === prepared.etag ? prepared.notModified : prepared.ok;
    }
    if (file.endsWith('.m3u8')) {
      const master =
        file === MASTER_PLAYLISTS.live ? 'master' : file === MASTER_PLAYLISTS.replay ? 'replay-master' : null;
      const rendition = master ? null : renditionOf(file);
      const own = rendition ? file.slice(rendition.length + 1) : file;
      const text = await live.playlist(
        eventId,
        master ?? (own === 'live.m3u8' ? 'live' : 'replay'),
        preview,
        rendition,
      );
      if (text === null) return null;
      const key = playlistKey(eventId, file, preview);
      let prepared = playlists.get(key);
      if (prepared?.text !== text) {
        prepared = preparePlaylist(text, preview !== null);
        playlists.set(key, prepared);
      } else prepared.checkedAt = performance.now();
      return ifNoneMatch === prepared.etag ? prepared.notModified : prepared.ok;
    }
    const found = await live.file(eventId, file, preview);
    if (!found) return null;
    if ('location' in found) {
      // In a public bucket (or its CDN): the viewer fetches it there.
      return {
        status: 302,
        headers: [...COMMON_HEADERS, 'cache-control', HLS_CACHE_CONTROL.segment, 'location', found.location],
        body: null,
      };
    }
    const responses = preview === null ? segmentResponses.viewer : segmentResponses.preview;
    let response = responses.get(found.bytes);
    if (!response) {
      response = {
        status: 200,
        headers: [
          ...COMMON_HEADERS,
          'cache-control',
          preview === null ? HLS_CACHE_CONTROL.segment : HLS_CACHE_CONTROL.preview,
          'content-type',
          found.contentType,
          'content-length',
          String(found.bytes.length),
        ],
        body: found.bytes,
      };
      responses.set(found.bytes, response);
    }
    return response;
  }
  return { respond, recentPlaylist };
}

function send(raw: ServerResponse, response: HlsResponse, head: boolean) {
  raw.writeHead(response.status, response.headers);
  raw.end(head ? undefined : (response.body ?? undefined));
}

/**
 * Takes the HLS requests off the HTTP server before Fastify sees them: every viewer asks for a
 * playlist and a segment each second, so this path is the node's capacity (bench/live), and
 * Fastify's per-request work (request objects, logging, hooks) would be most of its cost. Only
 * answers it has are given here: a miss or an odd request goes on to Fastify's route, which
 * answers the same way (and its 404s).
 */
function serveHlsBeforeFastify(
  server: Server,
  { respond, recentPlaylist }: ReturnType<typeof createHlsResponder>,
  log: FastifyBaseLogger,
) {
  const fastify = server.listeners('request') as ((
    request: IncomingMessage,
    response: ServerResponse,
  ) => void)[];
  server.removeAllListeners('request');
  const passOn = (request: IncomingMessage, response: ServerResponse) => {
    for (const listener of fastify) listener.call(server, request, response);
  };
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const url = request.url ?? '';
    const method = request.method;
    if (!url.startsWith(LIVE_PATH_PREFIX) || (method !== 'GET' && method !== 'HEAD')) {
      return passOn(request, response);
    }
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    const slash = path.indexOf('/', LIVE_PATH_PREFIX.length);
    if (slash === -1) return passOn(request, response);
    const eventId = path.slice(LIVE_PATH_PREFIX.length, slash);
    const file = path.slice(slash + 1);
    const params = new URLSearchParams(query === -1 ? '' : url.slice(query + 1));
    const preview = params.get('preview');
    const ifNoneMatch = request.headers['if-none-match'];
    const recent = recentPlaylist(eventId, file, preview, ifNoneMatch);
    if (recent) return send(response, recent, method === 'HEAD');
    respond(eventId, file, preview, ifNoneMatch, params).then(
      (answer) => {
        if (answer) send(response, answer, method === 'HEAD');
        else passOn(request, response);
      },
      (error: unknown) => {
        log.error({ err: error, url }, 'serving a live file failed');
        passOn(request, response);
      },
    );
  });
}

/**
 * The studio's stream calls (hosts) and the HLS viewers play: `/live/<eventId>/live.m3u8` (the
 * sliding window), `replay.m3u8` (the recording) and their segments, with the cache policies of
 * HLS_CACHE_CONTROL, so a CDN or nginx in front serves thousands of viewers with a request per
 * second and playlist reaching the node.
 */
export function registerLiveRoutes(
  app: FastifyInstance,
  deps: { live: LiveService; staffGate: StaffGate; publicOrigin: (request: FastifyRequest) => string },
): void {
  const { live, staffGate, publicOrigin } = deps;
  const staff = { staffGate };
  registerCall(
    app,
    'getLiveStream',
    (_body, { params, request }) => live.stream(params.pageUid, params.showUid, publicOrigin(request)),
    staff,
  );
  registerCall(
    app,
    'rotateStreamKey',
    (_body, { params, request }) => live.rotateKey(params.pageUid, params.showUid, publicOrigin(request)),
    staff,
  );
  registerCall(
    app,
    'goLive',
    (_body, { params, request }) => live.goLive(params.pageUid, params.showUid, publicOrigin(request)),
    staff,
  );
  registerCall(
    app,
    'endLive',
    (_body, { params, request }) => live.endLive(params.pageUid, params.showUid, publicOrigin(request)),
    staff,
  );

  const hls = createHlsResponder(live);
  app.get<{ Params: { eventId: string; file: string }; Querystring: { preview?: unknown } }>(
    '/live/:eventId/:file',
    // Segments are compressed video and playlists tiny: compressing them only costs CPU.
    { compress: false },
    async (request, reply) => {
      const { eventId, file } = request.params;
      // The studio's preview (before Go live) carries its token on the playlist and segments.
      const preview = typeof request.query.preview === 'string' ? request.query.preview : null;
      const url = request.raw.url ?? '';
      const search = url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
      const answer = await hls.respond(
        eventId,
        file,
        preview,
        request.headers['if-none-match'],
        new URLSearchParams(search),
      );
      if (!answer) {
        reply.header('cache-control', HLS_CACHE_CONTROL.missing);
        throw notFound(file.endsWith('.m3u8') ? 'This show has no such playlist (yet).' : 'No such file.');
      }
      // Past Fastify's send pipeline: the answer carries all its headers, the security ones too.
      reply.hijack();
      send(reply.raw, answer, request.method === 'HEAD');
    },
  );
  serveHlsBeforeFastify(app.server, hls, app.log);
}
