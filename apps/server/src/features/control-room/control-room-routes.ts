import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { StaffGate } from '../../http/caller.ts';
import { registerCall } from '../../http/register-call.ts';
import type { ControlRoomService } from './control-room-service.ts';

/** The control room's calls (protocol studio/control-room-calls.ts). */
export function registerControlRoomRoutes(
  app: FastifyInstance,
  deps: {
    room: ControlRoomService;
    staffGate: StaffGate;
    publicOrigin: (request: FastifyRequest) => string;
  },
): void {
  const { room, publicOrigin } = deps;
  const gate = { staffGate: deps.staffGate };
  registerCall(
    app,
    'getControlRoom',
    (_body, { params, caller, request }) =>
      room.room(params.pageUid, params.showUid, caller.role, publicOrigin(request)),
    gate,
  );
  registerCall(
    app,
    'getControlRoomStats',
    (_body, { params, caller, request }) =>
      room.stats(params.pageUid, params.showUid, caller.role, publicOrigin(request)),
    gate,
  );
  registerCall(
    app,
    'presentProduct',
    (body, { params }) => room.present(params.pageUid, params.showUid, body.uid),
    gate,
  );
  registerCall(
    app,
    'stopPresenting',
    (_body, { params }) => room.stop(params.pageUid, params.showUid, params.productUid),
    gate,
  );
  registerCall(
    app,
    'markProductSoldOut',
    (_body, { params, caller, request }) =>
      room.markSoldOut(params.pageUid, params.showUid, params.productUid, caller.role, publicOrigin(request)),
    gate,
  );
  registerCall(
    app,
    'drawShowCompetitionWinners',
    (body, { params }) => room.draw(params.pageUid, params.showUid, params.competitionUid, body.count),
    gate,
  );
  registerCall(
    app,
    'announceShowCompetition',
    (body, { params }) => room.announce(params.pageUid, params.showUid, params.competitionUid, body),
    gate,
  );
}
