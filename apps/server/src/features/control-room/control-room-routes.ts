import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { StaffGate } from '../../http/caller.ts';
import { registerCall } from '../../http/register-call.ts';
import type { ControlRoomService } from './control-room-service.ts';
import type { RoomBroadcaster } from './room-broadcast.ts';

/** The control room's calls (protocol studio/control-room-calls.ts). */
export function registerControlRoomRoutes(
  app: FastifyInstance,
  deps: {
    room: ControlRoomService;
    staffGate: StaffGate;
    publicOrigin: (request: FastifyRequest) => string;
    /** Told of each change made here, so the rooms watching the show see it at once. */
    broadcast?: Pick<RoomBroadcaster, 'nudge'>;
  },
): void {
  const { room, publicOrigin } = deps;
  /** Answers `result`, once the show's room was told (a failed push is the next tick's). */
  const changed = async <T>(params: { pageUid: string; showUid: string }, result: T): Promise<T> => {
    void deps.broadcast?.nudge(params.pageUid, params.showUid);
    return result;
  };
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
    async (body, { params }) => changed(params, await room.present(params.pageUid, params.showUid, body.uid)),
    gate,
  );
  registerCall(
    app,
    'stopPresenting',
    async (_body, { params }) =>
      changed(params, await room.stop(params.pageUid, params.showUid, params.productUid)),
    gate,
  );
  registerCall(
    app,
    'markProductSoldOut',
    async (_body, { params, caller, request }) =>
      changed(
        params,
        await room.markSoldOut(
          params.pageUid,
          params.showUid,
          params.productUid,
          caller.role,
          publicOrigin(request),
        ),
      ),
    gate,
  );
  registerCall(
    app,
    'drawShowCompetitionWinners',
    async (body, { params }) =>
      changed(params, await room.draw(params.pageUid, params.showUid, params.competitionUid, body.count)),
    gate,
  );
  registerCall(
    app,
    'announceShowCompetition',
    async (body, { params }) =>
      changed(params, await room.announce(params.pageUid, params.showUid, params.competitionUid, body)),
    gate,
  );
}
