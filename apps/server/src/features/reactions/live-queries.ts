import { LiveQueryParams } from '@vitrine/protocol';
import { everyone, type LiveQueryCatalogue } from '../../realtime/live-query.ts';

export const reactionTopic = (pageUid: string, campaignUid: string) => `reactions:${pageUid}:${campaignUid}`;

export function reactionLiveQueries(): Pick<LiveQueryCatalogue, 'reactions'> {
  return {
    reactions: {
      params: LiveQueryParams.reactions,
      authorize: everyone,
      topic: ({ pageUid, campaignUid }) => reactionTopic(pageUid, campaignUid),
      // Reactions are momentary: a viewer sees those sent from the moment they subscribe.
      snapshot: async () => [],
    },
  };
}
