import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { StaffGate } from '../../http/caller.ts';
import { notFound } from '../../http/errors.ts';
import { registerCall } from '../../http/register-call.ts';
import { HLS_CACHE_CONTROL } from '../live/live-routes.ts';
import type { PremiereService } from './premiere-service.ts';

/** The studio's premiere calls (hosts): the premiere's state, the video's upload, its schedule. */
export function registerPremiereRoutes(
  app: FastifyInstance,
  deps: {
    premieres: PremiereService;
    staffGate: StaffGate;
    publicOrigin: (request: FastifyRequest) => string;
  },
): void {
  const { premieres, staffGate, publicOrigin } = deps;
  const staff = { staffGate };
  registerCall(
    app,
    'getPremiere',
    (_body, { params }) => premieres.info(params.pageUid, params.showUid),
    staff,
  );
  registerCall(
    app,
    'uploadPremiere',
    (body, { params, query }) => premieres.upload(params.pageUid, params.showUid, body, query.fileName),
    staff,
  );
  registerCall(
    app,
    'schedulePremiere',
    (body, { params, request }) =>
      premieres.schedule(params.pageUid, params.showUid, body, publicOrigin(request)),
    staff,
  );
  // The replay of an ended premiere (its file, whole), for every viewer, as the live replay is.
  app.get<{ Params: { eventId: string; file: string } }>(
    '/premieres/:eventId/:file',
    { compress: false },
    async (request, reply) => {
      const { eventId, file } = request.params;
      const bytes = await premieres.replayFile(eventId, file);
      if (!bytes) {
        reply.header('cache-control', HLS_CACHE_CONTROL.missing);
        throw notFound('This show has no such replay file.');
      }
      const playlist = file.endsWith('.m3u8');
      reply
        .header('cache-control', playlist ? HLS_CACHE_CONTROL.endedPlaylist : HLS_CACHE_CONTROL.segment)
        .header('access-control-allow-origin', '*')
        .type(
          playlist
            ? 'application/vnd.apple.mpegurl'
            : file.endsWith('.mp4')
              ? 'video/mp4'
              : 'video/iso.segment',
        );
      return bytes;
    },
  );
}
