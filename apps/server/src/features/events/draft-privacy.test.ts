import type { LiveChange, ServerFrame, Show } from '@vitrine/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connect,
  isAnswerTo,
  type RealtimeTestClient,
  startTestServer,
  subscribeFrame,
  type TestServer,
} from '../../test-support/realtime-test-client.ts';
import { signInStaff } from '../../test-support/studio-staff.ts';
import { adminHeaders } from '../../test-support/test-app.ts';

/**
 * Issue 12 §6: a draft or private event must never reach an anonymous subscriber. Before the fix
 * a public event made draft left as a `removed` change carrying its whole new document, and the
 * on-site updates log stored and served drafts.
 */
const PAGE = 'shop-drafts';
const CAMPAIGN = 'camp-drafts';
const MINUTE = 60_000;

let server: TestServer;
const clients: RealtimeTestClient[] = [];

async function admin(url: string, payload: object) {
  const response = await server.server.inject({ method: 'PUT', url, headers: adminHeaders, payload });
  expect(response.statusCode, `${url}: ${response.body}`).toBeLessThan(300);
}

const event = (fields: object) => ({
  pageUid: PAGE,
  campaignId: CAMPAIGN,
  currentStatus: 'live',
  eventName: 'Public show',
  eventStartTimestamp: Date.now() - 5 * MINUTE,
  ...fields,
});

async function subscribe(frame: ReturnType<typeof subscribeFrame>): Promise<RealtimeTestClient> {
  const client = await connect(server.wsUrl);
  clients.push(client);
  client.send(frame);
  expect(await client.nextFrame(isAnswerTo(frame.id))).toMatchObject({ type: 'snapshot' });
  return client;
}

async function nextChange(client: RealtimeTestClient, id: string, match: (change: LiveChange) => boolean) {
  const frame = await client.nextFrame(
    (candidate: ServerFrame) =>
      candidate.type === 'changes' && candidate.id === id && candidate.changes.some(match),
  );
  if (frame.type !== 'changes') throw new Error('unreachable');
  return frame.changes.find(match)!;
}

beforeAll(async () => {
  server = await startTestServer();
  await admin(`/admin/pages/${PAGE}`, { name: 'Drafts shop', language: 'da', currency: 'DKK' });
  await admin(`/admin/pages/${PAGE}/campaigns/${CAMPAIGN}`, { name: 'Drafts campaign' });
  await admin('/admin/events/ev-public', event({}));
});

afterAll(async () => {
  for (const client of clients) client.close();
  await server?.close();
});

describe('draft and private events stay private', () => {
  it.each([
    ['liveEvents.shop', { pageUid: PAGE }, 'draft'],
    ['liveEvents.byId', { ids: ['ev-public'] }, 'draft'],
    ['liveEvents.byCampaign', { campaignIds: [CAMPAIGN] }, 'draft'],
    ['liveEvents.shop', { pageUid: PAGE }, 'private'],
  ] as const)('%s %j: an event made %s is removed by id only', async (query, params, status) => {
    await admin('/admin/events/ev-public', event({}));
    const frame = subscribeFrame(query, params as never);
    const anonymous = await subscribe(frame);
    const secret = `Secret ${query} ${status} launch`;
    await admin('/admin/events/ev-public', event({ status, eventName: secret }));
    const removed = await nextChange(anonymous, frame.id, (change) => change.docId === 'ev-public');
    expect(removed).toEqual({ type: 'removed', docId: 'ev-public', doc: null });
    expect(JSON.stringify(anonymous.frames)).not.toContain(secret);
  });

  it('onsiteEventUpdates: the updates log holds and serves public events only', async () => {
    const frame = subscribeFrame('onsiteEventUpdates', { storeIds: [PAGE] });
    const anonymous = await subscribe(frame);
    await admin('/admin/events/ev-draft', event({ status: 'draft', eventName: 'Secret draft show' }));
    await admin('/admin/events/ev-private', event({ status: 'private', eventName: 'Secret private show' }));
    await admin('/admin/events/ev-public', event({ eventName: 'Public show, renamed' }));
    // The public update arrives after the two hidden ones were written: they were never sent.
    const update = await nextChange(
      anonymous,
      frame.id,
      (change) => (change.doc as { updatedEvent?: { id: string } }).updatedEvent?.id === 'ev-public',
    );
    expect(update.type).toBe('added');
    const sent = JSON.stringify(anonymous.frames);
    expect(sent).not.toContain('Secret draft show');
    expect(sent).not.toContain('Secret private show');
    // Nor kept for later subscribers.
    const stored = await server.db.query<{ updated_event: { event: { status: string } } }>(
      'SELECT updated_event FROM onsite_event_updates',
    );
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.map((row) => row.updated_event.event.status)).toEqual(stored.map(() => 'public'));
  });
});

describe('a draft made in the studio stays in the studio', () => {
  it('reaches no public read, live query or calendar, until published', async () => {
    const host = await signInStaff(server, PAGE, 'host');
    await admin(`/staff/stores/${PAGE}/products/draft-lamp`, { name: 'Secret lamp', prices: { DKK: 100 } });
    const studio = (method: 'POST' | 'PUT' | 'PATCH', url: string, payload: object) =>
      server.server.inject({
        method,
        url: `/staff/stores/${PAGE}/shows${url}`,
        headers: host.headers,
        payload,
      });

    const shop = subscribeFrame('liveEvents.shop', { pageUid: PAGE });
    const shopViewer = await subscribe(shop);
    const created = await studio('POST', '', {
      name: 'Secret studio draft',
      startsAt: '2030-01-01T19:00',
      timeZone: 'Europe/Copenhagen',
    });
    expect(created.statusCode, created.body).toBe(201);
    const draft = created.json() as Show;
    expect((await studio('PUT', `/${draft.uid}/lineup`, { productUids: ['draft-lamp'] })).statusCode).toBe(
      200,
    );
    const poll = await studio('POST', `/${draft.uid}/competitions`, {
      type: 'poll',
      name: 'Secret poll',
      options: [
        { id: 'a', text: 'A' },
        { id: 'b', text: 'B' },
      ],
    });
    expect(poll.statusCode, poll.body).toBe(201);

    const read = (name: string, params: object) =>
      server.server.inject({ method: 'POST', url: `/reads/${name}`, payload: params });
    const everything = [
      await read('liveEvents.shop', { pageUid: PAGE }),
      await read('liveEvents.byId', { ids: [draft.uid] }),
      await read('liveEvents.byCampaign', { campaignIds: [draft.campaignUid] }),
    ];
    for (const answer of everything) expect(answer.body).not.toContain('Secret');
    expect((await read('liveEventProducts', { eventId: draft.uid })).statusCode).toBe(404);
    expect(
      (await server.server.inject({ method: 'GET', url: `/calendar/${draft.uid}/show.ics` })).statusCode,
    ).toBe(404);
    const products = subscribeFrame('liveEventProducts', { eventId: draft.uid });
    const productViewer = await connect(server.wsUrl);
    clients.push(productViewer);
    productViewer.send(products);
    expect((await productViewer.nextFrame(isAnswerTo(products.id))).type).toBe('error');
    const presentation = subscribeFrame('campaignPresentations', {
      pageUid: PAGE,
      campaignUid: draft.campaignUid,
    });
    const presentationViewer = await subscribe(presentation);

    // Published: now the shop shows it; what was sent before held no secret.
    expect((await studio('PATCH', `/${draft.uid}`, { visibility: 'public' })).statusCode).toBe(200);
    const shown = await nextChange(
      shopViewer,
      shop.id,
      (change) => change.docId === draft.uid && change.doc !== null,
    );
    expect(shown.type).not.toBe('removed');
    // Every document of the show the shop viewer got was the published one; the draft left by id alone.
    const sent = shopViewer.frames.flatMap((frame) => (frame.type === 'changes' ? frame.changes : []));
    for (const change of sent.filter((candidate) => candidate.docId === draft.uid)) {
      const status = (change.doc as { event?: { status: string } } | null)?.event?.status;
      expect(change.doc === null || status === 'public').toBe(true);
    }
    expect(JSON.stringify(presentationViewer.frames)).not.toContain('Secret poll');
    expect((await read('liveEventProducts', { eventId: draft.uid })).statusCode).toBe(200);
  });
});
