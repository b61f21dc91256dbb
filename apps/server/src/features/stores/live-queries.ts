import { LiveQueryParams } from '@vitrine/protocol';
import { everyone, type LiveQueryDefinition } from '../../realtime/live-query.ts';
import { playerSettingsTopic, type StoreService } from './store-service.ts';

export function storeLiveQueries(stores: StoreService): {
  playerSettings: LiveQueryDefinition<'playerSettings'>;
} {
  return {
    playerSettings: {
      params: LiveQueryParams.playerSettings,
      authorize: everyone,
      topic: ({ pageUid }) => playerSettingsTopic(pageUid),
      snapshot: async ({ pageUid }) => [{ docId: pageUid, doc: await stores.playerSettings(pageUid) }],
    },
  };
}
