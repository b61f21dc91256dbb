import { EVENT_UPDATES_QUERY_LIMIT } from '@vitrine/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminHeaders, openTestApp } from '../../test-support/test-app.ts';

// Spec §7 "Realtime reads": onsiteEventUpdates holds the updates with a time greater than now,
// of the stores named, ordered by time descending, at most 50.

type TestApp = Awaited<ReturnType<typeof openTestApp>>;

const START = Date.UTC(2025, 4, 2, 19, 0, 0);
let clock = START;
let app: TestApp;

async function admin(url: string, payload: object) {
  const response = await app.server.inject({ method: 'PUT', url, headers: adminHeaders, payload });
  expect(response.statusCode, `${url}: ${response.body}`).toBeLessThan(300);
}

/** Saves the store's show again: each save is one update of the log, at the clock's time. */
const saveShow = (store: string, eventName: string) =>
  admin(`/admin/events/ev-${store}`, {
    pageUid: store,
    campaignId: `camp-${store}`,
    currentStatus: 'live',
    eventName,
    eventStartTimestamp: START,
  });

beforeAll(async () => {
  app = await openTestApp({ now: () => clock });
  for (const store of ['updates-a', 'updates-b']) {
    await admin(`/admin/pages/${store}`, {
      name: store,
      language: 'da',
      currency: 'DKK',
      playerSettings: {},
    });
    await admin(`/admin/pages/${store}/campaigns/camp-${store}`, { name: store });
  }
});
afterAll(async () => {
  await app?.close();
});

const updatesFor = async (storeIds: string[]) =>
  (await app.services.liveQueries.onsiteEventUpdates.snapshot({ storeIds })).map(
    (entry) => entry.doc as { time: number; updatedEvent: { event: { storeInfo: { id: string } } } },
  );

describe('onsiteEventUpdates (spec §7)', () => {
  it('holds the named stores’ updates after now, newest first, at most 50', async () => {
    const subscribedAt = clock;
    for (let index = 1; index <= EVENT_UPDATES_QUERY_LIMIT + 1; index++) {
      clock = subscribedAt + index;
      await saveShow('updates-a', `Show take ${index}`);
    }
    clock += 1;
    await saveShow('updates-b', 'Other store');
    const newest = clock - 1;

    clock = subscribedAt;
    const updates = await updatesFor(['updates-a']);
    expect(updates.map((update) => update.time)).toEqual(
      Array.from({ length: EVENT_UPDATES_QUERY_LIMIT }, (_, index) => newest - index),
    );
    expect(new Set(updates.map((update) => update.updatedEvent.event.storeInfo.id))).toEqual(
      new Set(['updates-a']),
    );
    expect((await updatesFor(['updates-b'])).map((update) => update.time)).toEqual([newest + 1]);
  });

  it('leaves out an update made at the very moment of subscribing', async () => {
    await saveShow('updates-b', 'Now');
    expect((await updatesFor(['updates-b'])).map((update) => update.time)).not.toContain(clock);
  });
});
