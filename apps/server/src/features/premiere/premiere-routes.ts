import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { StaffGate } from '../../http/caller.ts';
import { registerCall } from '../../http/register-call.ts';
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
}
