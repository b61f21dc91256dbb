import type { LiveChange, ServerFrame } from '@vitrine/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connect,
  isAnswerTo,
  type RealtimeTestClient,
  startTestServer,
  subscribeFrame,
  type TestServer,
} from '../../test-support/realtime-test-client.ts';
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
