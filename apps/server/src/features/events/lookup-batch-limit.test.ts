import { LiveQueryParams, ReadCatalogue } from '@vitrine/protocol';
import { describe, expect, it } from 'vitest';

// Spec §7: lookups carry at most 10 ids. The wire schemas take the limit from the domain's
// LOOKUP_BATCH_LIMIT (issue 13 §19), so the clients that split into batches and the server that
// refuses larger ones cannot disagree; here each schema is held to the spec's own number.
const SPEC_LOOKUP_IDS = 10;

const ids = (count: number) => Array.from({ length: count }, (_, index) => `ev-${index}`);

describe('lookup batches', () => {
  it.each([
    [
      'read liveEvents.byId',
      (n: number) => ReadCatalogue['liveEvents.byId'].params.safeParse({ ids: ids(n) }),
    ],
    [
      'read liveEvents.byCampaign',
      (n: number) => ReadCatalogue['liveEvents.byCampaign'].params.safeParse({ campaignIds: ids(n) }),
    ],
    ['live liveEvents.byId', (n: number) => LiveQueryParams['liveEvents.byId'].safeParse({ ids: ids(n) })],
    [
      'live liveEvents.byCampaign',
      (n: number) => LiveQueryParams['liveEvents.byCampaign'].safeParse({ campaignIds: ids(n) }),
    ],
    [
      'live onsiteEventUpdates',
      (n: number) => LiveQueryParams.onsiteEventUpdates.safeParse({ storeIds: ids(n) }),
    ],
  ])("%s takes the spec's 10 ids and refuses an 11th", (_name, parse) => {
    expect(parse(SPEC_LOOKUP_IDS).success).toBe(true);
    const refused = parse(SPEC_LOOKUP_IDS + 1);
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe('at most 10 ids per lookup');
  });
});
