import { type ControlRoomLiveDoc, LiveQueryParams } from '@vitrine/protocol';
import { type LiveQueryDefinition, type StaffRoleOf, staffOfStore } from '../../realtime/live-query.ts';
import type { ControlRoomService } from './control-room-service.ts';

/** The bus topic of a show's control room. */
export const controlRoomTopic = (pageUid: string, showUid: string) => `control-room:${pageUid}:${showUid}`;

/** Revenue leaves the server only for subscribers who may see it (hosts and owners). */
const forSubscriber = (doc: ControlRoomLiveDoc, withRevenue: boolean): ControlRoomLiveDoc =>
  withRevenue ? doc : { ...doc, revenue: null };

/**
 * The `controlRoom` live query (issue 33 §10): staff of the show's store only, the role checked
 * by the gateway on every subscribe (moderator, or host `withRevenue`) as the studio's calls check it.
 */
export function controlRoomLiveQueries(deps: {
  room: Pick<ControlRoomService, 'liveDoc'>;
  roleOf: StaffRoleOf;
}): { controlRoom: LiveQueryDefinition<'controlRoom'> } {
  return {
    controlRoom: {
      params: LiveQueryParams.controlRoom,
      authorize: ({ pageUid, withRevenue }, caller) =>
        staffOfStore(deps.roleOf, pageUid, withRevenue ? 'host' : 'moderator', caller),
      topic: ({ pageUid, showUid }) => controlRoomTopic(pageUid, showUid),
      snapshot: async ({ pageUid, showUid, withRevenue }) => [
        { docId: showUid, doc: forSubscriber(await deps.room.liveDoc(pageUid, showUid), withRevenue) },
      ],
      select: (change, { withRevenue }) =>
        change.type === 'removed'
          ? change
          : { ...change, doc: forSubscriber(change.doc as ControlRoomLiveDoc, withRevenue) },
    },
  };
}
