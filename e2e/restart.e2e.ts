import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ShopEvents } from '@vitrine/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVER_START_BOUND_MS, startServer } from './support/server-process.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'vitrine-restart-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function shopEventIds(url: string): Promise<string[]> {
  const response = await fetch(`${url}/reads/liveEvents.shop`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ pageUid: 'demo-store' }),
  });
  const events = (await response.json()) as ShopEvents;
  return [...events.live, ...events.planned, ...events.vod].map((event) => event.id).sort();
}

describe('a persistent embedded database', () => {
  it(
    'keeps data across restarts and seeds the demo store only once',
    async () => {
      const adminKey = 'restart-test-admin-key-0123456789';
      // A newcomer's first start: the server creates its database itself.
      const first = await startServer(
        { VITRINE_DATA_DIR: dataDir, VITRINE_ADMIN_KEY: adminKey },
        { freshDatabase: true },
      );
      const seededIds = await shopEventIds(first.url);
      expect(seededIds).toHaveLength(3);
      // A change made through the admin API must survive the restart too.
      const campaign = await fetch(`${first.url}/admin/pages/demo-store/campaigns/extra-campaign`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${adminKey}` },
        body: JSON.stringify({ name: 'Added before restart', deadline: null }),
      });
      expect(campaign.status).toBe(200);
      await first.stop();

      const second = await startServer({ VITRINE_DATA_DIR: dataDir, VITRINE_ADMIN_KEY: adminKey });
      try {
        expect(await shopEventIds(second.url)).toEqual(seededIds);
        // An event can only be added to a campaign that exists, so this proves the campaign persisted.
        const event = await fetch(`${second.url}/admin/events/extra-event`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${adminKey}` },
          body: JSON.stringify({
            pageUid: 'demo-store',
            campaignId: 'extra-campaign',
            currentStatus: 'live',
            eventName: 'After restart',
            eventStartTimestamp: Date.now(),
          }),
        });
        expect(event.status).toBe(200);
        expect(await shopEventIds(second.url)).toEqual([...seededIds, 'extra-event'].sort());
        const health = await fetch(`${second.url}/readyz`);
        expect(await health.json()).toMatchObject({ status: 'ready', database: 'pglite' });
        console.log(
          JSON.stringify({
            coldStartMs: {
              firstStartWithSeed: Math.round(first.coldStartMs),
              restart: Math.round(second.coldStartMs),
            },
          }),
        );
      } finally {
        await second.stop();
      }
      // Two server starts, each waited on up to its own bound.
    },
    2 * SERVER_START_BOUND_MS + 60_000,
  );
});
