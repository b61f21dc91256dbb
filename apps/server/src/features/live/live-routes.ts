import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { StaffGate } from '../../http/caller.ts';
import { notFound } from '../../http/errors.ts';
import { registerCall } from '../../http/register-call.ts';
import type { LiveService } from './live-service.ts';
import { RECORDING_FILE_PATTERN } from './show-recording.ts';

const EVENT_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;
const PLAYLIST_CONTENT_TYPE = 'application/vnd.apple.mpegurl';

/**
 * The studio's stream calls (hosts) and the HLS viewers play: `/live/<eventId>/live.m3u8` (the
 * sliding window), `replay.m3u8` (the recording) and their segments. Playlists are never cached
 * (`no-cache`: a CDN revalidates them), segments and init segments are immutable (their names
 * are never reused), so a CDN or nginx in front serves the segments of thousands of viewers.
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

  app.get<{ Params: { eventId: string; file: string }; Querystring: { preview?: unknown } }>(
    '/live/:eventId/:file',
    // Segments are compressed video and playlists tiny: compressing them only costs CPU.
    { compress: false },
    async (request, reply) => {
      const { eventId, file } = request.params;
      if (!EVENT_ID_PATTERN.test(eventId) || !RECORDING_FILE_PATTERN.test(file))
        throw notFound('No such file.');
      // Viewers of any origin play the stream (the player is embedded on retailers' sites).
      reply.header('access-control-allow-origin', '*');
      // The studio's preview (before Go live) carries its token on the playlist and segments.
      const preview = typeof request.query.preview === 'string' ? request.query.preview : null;
      if (file.endsWith('.m3u8')) {
        const playlist = await live.playlist(eventId, file === 'live.m3u8' ? 'live' : 'replay', preview);
        if (playlist === null) throw notFound('This show has no such playlist (yet).');
        return reply
          .header('content-type', PLAYLIST_CONTENT_TYPE)
          .header('cache-control', 'no-cache')
          .send(playlist);
      }
      const found = await live.file(eventId, file, preview);
      if (!found) throw notFound('No such segment.');
      return reply
        .header('content-type', found.contentType)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(found.bytes);
    },
  );
}
