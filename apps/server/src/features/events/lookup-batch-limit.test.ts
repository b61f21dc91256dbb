import { LOOKUP_BATCH_LIMIT } from '@vitrine/domain';
import { LiveQueryParams, ReadCatalogue } from '@vitrine/protocol';
import { describe, expect, it } from 'vitest';

// Spec §7: lookups carry at most 10 ids. The wire schemas take the limit from the domain's
// LOOKUP_BATCH_LIMIT (issue 13 §19), so the clients that split into batches and the server that
// refuses larger ones cannot disagree.

const ids = (count: number) => Array.from({ length: count }, (_, index) => `ev-${index}`);

describe('lookup batches', () => {
  it('is ten ids, as the spec says', () => {
    expect(LOOKUP_BATCH_LIMIT).toBe(10);
  });

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
  ])('%s takes LOOKUP_BATCH_LIMIT ids and refuses one more', (_name, parse) => {
    expect(parse(LOOKUP_BATCH_LIMIT).success).toBe(true);
    const refused = parse(LOOKUP_BATCH_LIMIT + 1);
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe(`at most ${LOOKUP_BATCH_LIMIT} ids per lookup`);
  });
});
