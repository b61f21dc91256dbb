import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  CLOSE_CODES,
  type CommentDoc,
  type EventProduct,
  LIVE_QUERY_NAMES,
  type LiveChange,
  type LiveQueryName,
  type LiveQueryParamsOf,
  type PlayerSettings,
  type ServerFrame,
  type ShopEvent,
  subscriptionKey,
} from '@vitrine/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commentTopics } from '../features/comments/comment-records.ts';
import { userTopic } from '../features/users/live-queries.ts';
import {
  authFrame,
  connect,
  isAnswerTo,
  isFrame,
  type RealtimeTestClient,
  startTestServer,
  subscribeFrame,
  type TestServer,
  unsubscribeFrame,
} from '../test-support/realtime-test-client.ts';
import { seededRandom } from '../test-support/seeded-random.ts';
import { adminHeaders } from '../test-support/test-app.ts';
import type { ChangeBus } from './change-bus.ts';
import { createMemoryChangeBus } from './memory-change-bus.ts';

const PAGE = 'shop-rt';
const CAMPAIGN = 'camp-rt';
const MINUTE = 60_000;

let server: TestServer;
const clients: RealtimeTestClient[] = [];
let owner: { uid: string; token: string };
let other: { uid: string; token: string };

/** Opens a socket that afterAll closes. */
async function open(url = server.wsUrl): Promise<RealtimeTestClient> {
  const client = await connect(url);
  clients.push(client);
  return client;
}

async function adminOk(method: 'PUT' | 'POST', url: string, payload: object, on: TestServer = server) {
  const response = await on.server.inject({ method, url, headers: adminHeaders, payload });
  expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
}

async function signIn(on: TestServer = server): Promise<{ uid: string; token: string }> {
  const response = await on.server.inject({
    method: 'POST',
    url: '/functions/auth/signInAnonymously',
    payload: {},
  });
  expect(response.statusCode, response.body).toBe(200);
  const session = response.json() as { idToken: string; user: { uid: string } };
  return { uid: session.user.uid, token: session.idToken };
}

async function postComment(
  token: string,
  campaignUid: string,
  text: string,
  on: TestServer = server,
): Promise<CommentDoc> {
  const response = await on.server.inject({
    method: 'POST',
    url: '/shopapiv2/comment/playerComment',
    headers: { authorization: `Bearer ${token}` },
    payload: { pageUid: PAGE, campaignUid, text },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as CommentDoc;
}

const page = (playerSettings: object = {}) => ({
  name: 'Realtime shop',
  language: 'da',
  currency: 'DKK',
  playerSettings,
});

const liveEvent = (fields: object = {}) => ({
  pageUid: PAGE,
  campaignId: CAMPAIGN,
  currentStatus: 'live',
  eventName: 'Live now',
  eventStartTimestamp: Date.now() - 30 * MINUTE,
  ...fields,
});

/** The documents of subscription `id` after applying its frames in order, by docId. */
function merged(frames: readonly ServerFrame[], id: string): Map<string, unknown> {
  const docs = new Map<string, unknown>();
  for (const frame of frames) {
    if (frame.type === 'snapshot' && frame.id === id) {
      docs.clear();
      for (const { docId, doc } of frame.docs) docs.set(docId, doc);
    } else if (frame.type === 'changes' && frame.id === id) {
      for (const change of frame.changes) {
        if (change.type === 'removed') docs.delete(change.docId);
        else docs.set(change.docId, change.doc);
      }
    }
  }
  return docs;
}

/** The next changes frame of `id` holding a change that matches, and that change. */
async function nextChange(
  client: RealtimeTestClient,
  id: string,
  match: (change: LiveChange) => boolean,
  timeoutMs?: number,
) {
  const frame = await client.nextFrame(
    (candidate) => candidate.type === 'changes' && candidate.id === id && candidate.changes.some(match),
    timeoutMs,
  );
  if (frame.type !== 'changes') throw new Error('unreachable');
  return { frame, change: frame.changes.find(match)! };
}

async function subscribed(client: RealtimeTestClient, frame: ReturnType<typeof subscribeFrame>) {
  client.send(frame);
  const answer = await client.nextFrame(isAnswerTo(frame.id));
  expect(answer, JSON.stringify(answer)).toMatchObject({ type: 'snapshot' });
  return answer as Extract<ServerFrame, { type: 'snapshot' }>;
}

beforeAll(async () => {
  server = await startTestServer();
  await adminOk('PUT', `/admin/pages/${PAGE}`, page());
  for (const [uid, name] of [
    ['mug', 'Mug'],
    ['hat', 'Hat'],
    ['scarf', 'Scarf'],
  ] as const) {
    await adminOk('PUT', `/staff/stores/${PAGE}/products/${uid}`, { name, prices: { DKK: 10_000 } });
  }
  for (const campaign of [CAMPAIGN, 'camp-resume', 'camp-slow', 'camp-routing']) {
    await adminOk('PUT', `/admin/pages/${PAGE}/campaigns/${campaign}`, { name: campaign });
  }
  await adminOk('PUT', '/admin/events/ev-live', liveEvent());
  await adminOk('PUT', '/admin/events/ev-gone', liveEvent({ eventName: 'About to be unpublished' }));
  await adminOk('PUT', '/admin/events/ev-live/products/ep-mug', { productUid: 'mug', sorting: 1 });
  await adminOk('PUT', '/admin/events/ev-live/products/ep-hat', { productUid: 'hat', sorting: 2 });
  owner = await signIn();
  other = await signIn();
});

afterAll(async () => {
  for (const client of clients) if (!client.closed) client.socket.terminate();
  await server?.close();
});

describe('live queries over a real socket', () => {
  it('liveEventProducts: snapshot, then upserts, product changes and cues as changes', async () => {
    const client = await open();
    const frame = subscribeFrame('liveEventProducts', { eventId: 'ev-live' });
    const snapshot = await subscribed(client, frame);
    expect(snapshot.docs.map((doc) => doc.docId)).toEqual(['ep-mug', 'ep-hat']);
    expect(snapshot.docs[0]?.doc).toMatchObject({ product: { name: 'Mug' } });

    await adminOk('PUT', '/admin/events/ev-live/products/ep-scarf', { productUid: 'scarf', sorting: 3 });
    const added = await nextChange(client, frame.id, (change) => change.docId === 'ep-scarf');
    // Upserts are published as `modified`; a client merges them by docId either way.
    expect(['added', 'modified']).toContain(added.change.type);
    expect(added.change.doc).toMatchObject({ uid: 'ep-scarf', productUid: 'scarf', cues: [] });
    expect([...merged(client.frames, frame.id).keys()]).toEqual(['ep-mug', 'ep-hat', 'ep-scarf']);

    const start = Date.now();
    const cue = await server.server.inject({
      method: 'POST',
      url: '/admin/events/ev-live/products/ep-scarf/cues',
      headers: adminHeaders,
      payload: { source: 'controlCenter', presentationStartTimestamp: start },
    });
    expect(cue.statusCode, cue.body).toBe(201);
    const cued = await nextChange(
      client,
      frame.id,
      (change) => change.docId === 'ep-scarf' && (change.doc as EventProduct).cues.length > 0,
    );
    expect(cued.change.type).toBe('modified');
    expect((cued.change.doc as EventProduct).cues).toEqual([
      {
        source: 'controlCenter',
        presentationStartTimestamp: start,
        presentationEndTimestamp: null,
        deleted: false,
      },
    ]);
    expect(cued.frame.seq).toBeGreaterThan(added.frame.seq);

    // A product upsert reaches the viewers of every show presenting it.
    await adminOk('PUT', `/staff/stores/${PAGE}/products/mug`, { name: 'Big mug', prices: { DKK: 12_000 } });
    const renamed = await nextChange(
      client,
      frame.id,
      (change) => change.docId === 'ep-mug' && (change.doc as EventProduct).product.name === 'Big mug',
    );
    expect(renamed.change.type).toBe('modified');
    expect(merged(client.frames, frame.id).size).toBe(3);
    expect(client.invalidFrames).toEqual([]);
  });

  it('liveEvents.shop: an event made draft is removed, a new public live event arrives', async () => {
    const client = await open();
    const frame = subscribeFrame('liveEvents.shop', { pageUid: PAGE });
    const snapshot = await subscribed(client, frame);
    expect(snapshot.docs.map((doc) => doc.docId).sort()).toEqual(['ev-gone', 'ev-live']);

    await adminOk('PUT', '/admin/events/ev-gone', liveEvent({ status: 'draft' }));
    const removed = await nextChange(client, frame.id, (change) => change.docId === 'ev-gone');
    expect(removed.change.type).toBe('removed');

    await adminOk('PUT', '/admin/events/ev-new', liveEvent({ eventName: 'Brand new show' }));
    const created = await nextChange(client, frame.id, (change) => change.docId === 'ev-new');
    expect(['added', 'modified']).toContain(created.change.type);
    expect((created.change.doc as ShopEvent).event).toMatchObject({
      eventName: 'Brand new show',
      status: 'public',
      currentStatus: 'live',
    });
    expect(created.frame.seq).toBeGreaterThan(removed.frame.seq);
    expect([...merged(client.frames, frame.id).keys()].sort()).toEqual(['ev-live', 'ev-new']);
  });

  it('playerSettings: a page PUT sends the resolved settings as a change', async () => {
    const client = await open();
    const frame = subscribeFrame('playerSettings', { pageUid: PAGE });
    const snapshot = await subscribed(client, frame);
    expect(snapshot.docs).toHaveLength(1);
    expect(snapshot.docs[0]?.doc).toMatchObject({ hidePrices: false } satisfies Partial<PlayerSettings>);

    await adminOk('PUT', `/admin/pages/${PAGE}`, page({ hidePrices: true, primaryColor: '#112233' }));
    const { change } = await nextChange(client, frame.id, (candidate) => candidate.docId === PAGE);
    expect(change.type).toBe('modified');
    expect(change.doc).toMatchObject({ hidePrices: true, primaryColor: '#112233' });
    await adminOk('PUT', `/admin/pages/${PAGE}`, page());
  });

  it('comments: each posted comment arrives once, in order, with increasing seq', async () => {
    const client = await open();
    const frame = subscribeFrame('comments', { pageUid: PAGE, campaignUid: CAMPAIGN });
    const snapshot = await subscribed(client, frame);
    const posted: CommentDoc[] = [];
    for (const text of ['first', 'second', 'third'])
      posted.push(await postComment(owner.token, CAMPAIGN, text));
    await nextChange(client, frame.id, (change) => change.docId === posted[2]?.uid);
    // A fourth comment marks the end: anything repeated would have arrived before it.
    posted.push(await postComment(other.token, CAMPAIGN, 'fourth'));
    await nextChange(client, frame.id, (change) => change.docId === posted[3]?.uid);

    const changesFrames = client.frames.filter((candidate) => isFrame('changes', frame.id)(candidate));
    const delivered = changesFrames.flatMap((candidate) =>
      candidate.type === 'changes' ? candidate.changes : [],
    );
    expect(delivered.map((change) => change.type)).toEqual(['added', 'added', 'added', 'added']);
    expect(delivered.map((change) => change.docId)).toEqual(posted.map((doc) => doc.uid));
    expect(delivered.map((change) => (change.doc as CommentDoc).text)).toEqual([
      'first',
      'second',
      'third',
      'fourth',
    ]);
    const seqs = [snapshot.seq, ...changesFrames.map((candidate) => (candidate as { seq: number }).seq)];
    for (let i = 1; i < seqs.length; i++) expect(seqs[i]).toBeGreaterThan(seqs[i - 1]!);
    expect(delivered[0]?.doc).toMatchObject({ user: { uid: owner.uid }, public: true, pageUid: PAGE });
  });
});

describe('protocol', () => {
  it('routes the frames of two subscriptions on one socket by id; unsubscribe stops them', async () => {
    const client = await open();
    const comments = subscribeFrame('comments', { pageUid: PAGE, campaignUid: 'camp-routing' });
    const settings = subscribeFrame('playerSettings', { pageUid: PAGE });
    client.send(comments);
    client.send(settings);
    await client.nextFrame(isFrame('snapshot', comments.id));
    await client.nextFrame(isFrame('snapshot', settings.id));

    const doc = await postComment(owner.token, 'camp-routing', 'routed');
    const commentFrame = await nextChange(client, comments.id, (change) => change.docId === doc.uid);
    expect(commentFrame.frame.changes).toHaveLength(1);
    await adminOk('PUT', `/admin/pages/${PAGE}`, page({ showVitrineBranding: false }));
    await nextChange(client, settings.id, (change) => change.docId === PAGE);
    // Each change went to its own subscription only.
    for (const frame of client.frames) {
      if (frame.type !== 'changes') continue;
      if (frame.id === comments.id)
        expect(frame.changes.every((change) => change.docId === doc.uid)).toBe(true);
      else expect(frame.id).toBe(settings.id);
    }

    client.send(unsubscribeFrame(comments.id));
    // Frames are handled in order: the answer to this one means the unsubscribe is done.
    client.send('ping?');
    await client.nextFrame(isFrame('error', ''));
    const before = client.frames.length;
    await postComment(owner.token, 'camp-routing', 'nobody listens');
    await adminOk('PUT', `/admin/pages/${PAGE}`, page({ showVitrineBranding: true }));
    await nextChange(client, settings.id, (change) => change.docId === PAGE);
    expect(client.frames.slice(before).filter((frame) => 'id' in frame && frame.id === comments.id)).toEqual(
      [],
    );
    await adminOk('PUT', `/admin/pages/${PAGE}`, page());
  });

  it('answers an unknown query with unknown_query', async () => {
    const client = await open();
    const id = subscriptionKey('noSuchQuery', { pageUid: PAGE });
    client.send({ type: 'subscribe', id, query: 'noSuchQuery', params: { pageUid: PAGE } });
    const error = await client.nextFrame(isAnswerTo(id));
    expect(error).toMatchObject({ type: 'error', id, code: 'unknown_query' });
  });

  it('answers params that do not fit the query with invalid_request', async () => {
    const client = await open();
    for (const params of [{ eventId: 42 }, { eventId: 'ev-live', extra: true }, {}, null]) {
      const id = subscriptionKey('liveEventProducts', params);
      client.send({ type: 'subscribe', id, query: 'liveEventProducts', params });
      const error = await client.nextFrame(isAnswerTo(id));
      expect(error, JSON.stringify(params)).toMatchObject({ type: 'error', id, code: 'invalid_request' });
    }
    const tooMany = Array.from({ length: 11 }, (_, i) => `ev-${i}`);
    const id = subscriptionKey('liveEvents.byId', { ids: tooMany });
    client.send({ type: 'subscribe', id, query: 'liveEvents.byId', params: { ids: tooMany } });
    expect(await client.nextFrame(isAnswerTo(id))).toMatchObject({ type: 'error', code: 'invalid_request' });
  });

  it('refuses a subscription whose id is not subscriptionKey(query, params)', async () => {
    const client = await open();
    const params = { eventId: 'ev-live' };
    for (const id of ['my-own-id', subscriptionKey('liveEventProducts', { eventId: 'ev-gone' })]) {
      client.send({ type: 'subscribe', id, query: 'liveEventProducts', params });
      expect(await client.nextFrame(isAnswerTo(id))).toMatchObject({
        type: 'error',
        id,
        code: 'invalid_request',
      });
    }
    // The same params with their keys in another order give the same id.
    const reordered = { pageUid: PAGE, campaignUid: CAMPAIGN };
    const frame = subscribeFrame('comments', { campaignUid: CAMPAIGN, pageUid: PAGE });
    expect(frame.id).toBe(subscriptionKey('comments', reordered));
    await subscribed(client, { ...frame, params: reordered });
  });

  it('answers a frame that is not JSON with an error (id "") and stays usable', async () => {
    const client = await open();
    client.send('{"type": "subscribe", ');
    expect(await client.nextFrame(isFrame('error'))).toMatchObject({ id: '', code: 'invalid_request' });
    client.send(Buffer.from([1, 2, 3]));
    client.socket.send(Buffer.from('{"type":"auth"}'), { binary: true });
    client.send(JSON.stringify({ type: 'nonsense' }));
    for (let i = 0; i < 3; i++) {
      expect(await client.nextFrame(isFrame('error'))).toMatchObject({ id: '', code: 'invalid_request' });
    }
    await subscribed(client, subscribeFrame('playerSettings', { pageUid: PAGE }));
    expect(client.closed).toBe(false);
  });

  it('answers a ping with a pong (the liveness check of the client), also before any auth', async () => {
    const client = await open();
    client.send(JSON.stringify({ type: 'ping' }));
    expect(await client.nextFrame(isFrame('pong'))).toEqual({ type: 'pong' });
    await subscribed(client, subscribeFrame('playerSettings', { pageUid: PAGE }));
    client.send(JSON.stringify({ type: 'ping' }));
    expect(await client.nextFrame(isFrame('pong'))).toEqual({ type: 'pong' });
    expect(client.closed).toBe(false);
  });

  it('closes the socket with 1009 on a frame over 64 KiB', async () => {
    const client = await open();
    const fits = subscribeFrame('playerSettings', { pageUid: PAGE });
    client.send(JSON.stringify({ ...fits, padding: 'x'.repeat(60 * 1024) }));
    // Just under the limit is read (and answered).
    await client.nextFrame(isAnswerTo(fits.id));
    client.send(JSON.stringify({ type: 'auth', token: 'x'.repeat(64 * 1024 + 1) }));
    expect((await client.waitClosed()).code).toBe(1009);
  });

  it('closes with 4010 when the client speaks another protocol version', async () => {
    const client = await open(server.wsUrlWithVersion(2));
    const { code } = await client.waitClosed();
    expect(code).toBe(CLOSE_CODES.unsupportedVersion);
    expect(code).toBe(4010);
    // Version 1 (and no version: 1 is assumed) are served.
    const current = await open(server.wsUrlWithVersion(1));
    await subscribed(current, subscribeFrame('playerSettings', { pageUid: PAGE }));
  });
});

describe('resume', () => {
  const CYCLES = 100;
  /** Batches the replay log of this test's node keeps: small, so old resume points need a snapshot. */
  const LOG = 16;
  /** Below the comments snapshot limit (100), so a snapshot holds every comment written. */
  const MAX_COMMENTS = 90;
  const RESUME_SEED = 1004;
  const WRITE_MOMENTS = ['disconnected', 'subscribing', 'live', 'dropping', 'none'] as const;

  it(`loses and repeats nothing across ${CYCLES} reconnects while comments are written`, async () => {
    // A second node on the same database with a short replay log.
    const bus = createMemoryChangeBus(LOG);
    const node = await startTestServer({ db: server.db, bus });
    try {
      const params = { pageUid: PAGE, campaignUid: 'camp-resume' };
      const id = subscriptionKey('comments', params);
      const topic = commentTopics.publicComments(PAGE, 'camp-resume');

      // Where each cycle writes a comment comes from a seeded source: the run interleaves writes
      // with reconnects the same way every time, without timers.
      const random = seededRandom(RESUME_SEED);
      const written: string[] = [];
      const writes: Promise<string>[] = [];
      /** Starts writing a comment and does not wait: it commits wherever the cycle is by then. */
      const write = (): Promise<string> | null => {
        if (writes.length >= MAX_COMMENTS) return null;
        const text = `resume ${writes.length}`;
        const uid = postComment(owner.token, 'camp-resume', text, node).then((comment) => {
          written.push(comment.uid);
          return comment.uid;
        });
        writes.push(uid);
        return uid;
      };

      const state = new Map<string, CommentDoc>();
      const deliveredInChanges = new Set<string>();
      const problems: string[] = [];
      let lastSeq: number | null = null;
      /** lastSeq after each cycle: old resume points. */
      const history: number[] = [];
      const counts = { snapshots: 0, forcedSnapshots: 0, replays: 0, replayedComments: 0, liveFrames: 0 };

      const apply = (frame: ServerFrame, first: boolean) => {
        if (frame.type === 'error') problems.push(`error frame ${JSON.stringify(frame)}`);
        if ((frame.type !== 'snapshot' && frame.type !== 'changes') || frame.id !== id) return;
        if (frame.type === 'snapshot') {
          if (lastSeq !== null && frame.seq < lastSeq)
            problems.push(`snapshot seq ${frame.seq} < ${lastSeq}`);
          counts.snapshots += 1;
          state.clear();
          for (const { docId, doc } of frame.docs) state.set(docId, doc as CommentDoc);
          lastSeq = frame.seq;
          return;
        }
        // An empty answer to a resume may repeat the seq the client has; nothing else may.
        const ack = first && frame.changes.length === 0 && frame.seq === lastSeq;
        if (lastSeq === null || (frame.seq <= lastSeq && !ack)) {
          problems.push(`changes frame seq ${frame.seq} after ${lastSeq} (${frame.changes.length} changes)`);
        }
        if (first) {
          counts.replays += 1;
          counts.replayedComments += frame.changes.length;
        } else counts.liveFrames += 1;
        for (const change of frame.changes) {
          if (deliveredInChanges.has(change.docId)) problems.push(`comment ${change.docId} delivered twice`);
          deliveredInChanges.add(change.docId);
          if (change.type === 'removed') state.delete(change.docId);
          else state.set(change.docId, change.doc as CommentDoc);
        }
        lastSeq = Math.max(lastSeq ?? 0, frame.seq);
      };

      /**
       * One connection: subscribe (resuming when it can), drop; then apply its frames. A comment
       * is written while disconnected, while the subscription loads, while live (read before the
       * drop), just before the drop (in flight as it closes), or not at all.
       */
      const cycle = async (index: number, final = false) => {
        const moment = final ? 'none' : WRITE_MOMENTS[Math.floor(random() * WRITE_MOMENTS.length)];
        if (moment === 'disconnected') write();
        const client = await connect(node.wsUrl);
        let resume = lastSeq === null ? undefined : { seq: lastSeq };
        // Now and then resume from a point the replay log no longer reaches: needs a snapshot.
        const stale = lastSeq === null ? undefined : history.find((seq) => seq < lastSeq! - LOG);
        const forced = !final && index % 10 === 9 && stale !== undefined;
        if (forced) resume = { seq: stale };
        client.send(subscribeFrame('comments', params, resume));
        if (moment === 'subscribing') write();
        const answer = await client.nextFrame(isAnswerTo(id));
        if (forced) {
          if (answer.type === 'snapshot') counts.forcedSnapshots += 1;
          else problems.push(`resume from stale seq ${stale} answered with ${answer.type}`);
        }
        if (!final) {
          if (moment === 'live') {
            const uid = await write();
            if (uid !== null) await nextChange(client, id, (change) => change.docId === uid);
          }
          if (moment === 'dropping') write();
          if (index % 3 === 0) client.socket.terminate();
          else client.close();
        } else client.close();
        await client.waitClosed();
        const frames = client.frames.filter((frame) => frame.type === 'error' || isAnswerTo(id)(frame));
        for (const [i, frame] of frames.entries()) apply(frame, i === 0);
        expect(client.invalidFrames).toEqual([]);
        if (lastSeq !== null) history.push(lastSeq);
      };

      for (let i = 0; i < CYCLES; i++) await cycle(i);
      await Promise.all(writes);
      // Everything is written: one more resume brings the client up to the topic's seq.
      await cycle(CYCLES, true);

      expect(problems).toEqual([]);
      expect(lastSeq).toBe(await bus.currentSeq(topic));
      expect([...state.keys()].sort()).toEqual([...written].sort());
      expect(new Set(written).size).toBe(written.length);
      // The run exercised what it claims to: comments written throughout, caught up by replay,
      // and stale resume points answered with snapshots.
      expect(written.length).toBeGreaterThanOrEqual(40);
      expect(counts.replayedComments).toBeGreaterThan(0);
      expect(counts.forcedSnapshots).toBeGreaterThan(0);
      expect(counts.replays).toBeGreaterThan(CYCLES / 2);
      expect(node.realtime.stats()).toMatchObject({ connections: 0 });
    } finally {
      await node.close();
      await bus.close();
    }
  });
});

/**
 * An in-process bus whose replay and currentSeq run test hooks just before and just after they read,
 * so a test can publish at exact points while a subscription is loading.
 */
function gatedBus() {
  const inner = createMemoryChangeBus();
  const hooks: {
    beforeRead?: () => Promise<void>;
    afterRead?: () => Promise<void>;
  } = {};
  const around = async <T>(read: () => Promise<T>): Promise<T> => {
    const { beforeRead, afterRead } = hooks;
    hooks.beforeRead = undefined;
    hooks.afterRead = undefined;
    await beforeRead?.();
    const result = await read();
    await afterRead?.();
    return result;
  };
  const bus: ChangeBus = {
    kind: 'memory',
    publish: (topic, changes) => inner.publish(topic, changes),
    listen: (topic, listener) => inner.listen(topic, listener),
    currentSeq: (topic) => around(() => inner.currentSeq(topic)),
    replay: (topic, afterSeq) => around(() => inner.replay(topic, afterSeq)),
    close: () => inner.close(),
    reachable: () => true,
  };
  return { bus, hooks };
}

/**
 * A second node on this file's database, on a gatedBus, started before the describe block's tests
 * and closed after them.
 */
function gatedNode() {
  let node: TestServer | undefined;
  let gate: ReturnType<typeof gatedBus> | undefined;
  beforeAll(async () => {
    gate = gatedBus();
    node = await startTestServer({ db: server.db, bus: gate.bus });
  });
  afterAll(async () => {
    await node?.close();
    await gate?.bus.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the gated node starts in beforeAll');
    return value;
  };
  return { node: () => started(node), gate: () => started(gate) };
}

describe('changes published while a subscription loads', () => {
  const CAMPAIGN_GATED = 'camp-routing';
  const params = { pageUid: PAGE, campaignUid: CAMPAIGN_GATED };
  const id = subscriptionKey('comments', params);
  const { node, gate } = gatedNode();

  const post = (text: string) => postComment(owner.token, CAMPAIGN_GATED, text, node());
  const changesOf = (client: RealtimeTestClient, from = 0) =>
    client.frames
      .slice(from)
      .flatMap((frame) => (frame.type === 'changes' && frame.id === id ? [frame] : []));

  it('a resume gets the batches published before and after the replay read, each once', async () => {
    const first = await connect(node().wsUrl);
    clients.push(first);
    await subscribed(first, subscribeFrame('comments', params));
    const c1 = await post('before the drop');
    const { frame: seen } = await nextChange(first, id, (change) => change.docId === c1.uid);
    first.close();
    await first.waitClosed();

    const c2 = await post('while away');
    const around: CommentDoc[] = [];
    gate().hooks.beforeRead = async () => {
      around.push(await post('as the replay starts'));
    };
    gate().hooks.afterRead = async () => {
      around.push(await post('after the replay read'));
    };
    const client = await open(node().wsUrl);
    client.send(subscribeFrame('comments', params, { seq: seen.seq }));
    const answer = await client.nextFrame(isAnswerTo(id));
    expect(answer.type).toBe('changes');
    const c5 = await post('live again');
    await nextChange(client, id, (change) => change.docId === c5.uid);

    const frames = changesOf(client);
    const delivered = frames.flatMap((frame) => frame.changes.map((change) => change.docId));
    expect(delivered).toEqual([c2, ...around, c5].map((doc) => doc.uid));
    const seqs = [seen.seq, ...frames.map((frame) => frame.seq)];
    for (let i = 1; i < seqs.length; i++) expect(seqs[i]).toBeGreaterThan(seqs[i - 1]!);
  });

  it('a snapshot is followed by exactly the batches after its seq', async () => {
    let before: CommentDoc | undefined;
    let after: CommentDoc | undefined;
    gate().hooks.beforeRead = async () => {
      before = await post('as the snapshot starts');
    };
    gate().hooks.afterRead = async () => {
      after = await post('after the snapshot seq was read');
    };
    const client = await open(node().wsUrl);
    const snapshot = await subscribed(client, subscribeFrame('comments', params));
    expect(snapshot.docs.map((doc) => doc.docId)).toContain(before!.uid);
    const last = await post('live');
    await nextChange(client, id, (change) => change.docId === last.uid);

    const frames = changesOf(client);
    // `after` committed before the snapshot query but was published after its seq: it comes as a
    // change too (merged by docId); `before` is covered by the snapshot's seq and never repeated.
    expect(frames.flatMap((frame) => frame.changes.map((change) => change.docId))).toEqual([
      after!.uid,
      last.uid,
    ]);
    const seqs = [snapshot.seq, ...frames.map((frame) => frame.seq)];
    for (let i = 1; i < seqs.length; i++) expect(seqs[i]).toBeGreaterThan(seqs[i - 1]!);
  });
});

describe('a join storm', () => {
  const CAMPAIGN_STORM = 'camp-storm';
  const params = { pageUid: PAGE, campaignUid: CAMPAIGN_STORM };
  const id = subscriptionKey('comments', params);
  const topic = commentTopics.publicComments(PAGE, CAMPAIGN_STORM);
  const { node, gate } = gatedNode();

  // Straight on the bus: these documents are in no snapshot, so a viewer has them only as changes.
  const publish = (docId: string) => gate().bus.publish(topic, [{ type: 'added', docId, doc: { docId } }]);

  it('viewers joining while the snapshot loads share one query and get every later change once', async () => {
    const queriesBefore = node().realtime.stats().snapshotQueries;
    const late: RealtimeTestClient[] = [];
    gate().hooks.afterRead = async () => {
      // After the shared seq was read, before the late viewers listen: only the shared load saw it.
      await publish('between');
      for (let i = 0; i < 5; i++) {
        const client = await open(node().wsUrl);
        client.send(subscribeFrame('comments', params));
        late.push(client);
      }
      while (node().realtime.stats().loading < 6) await sleep(5);
      await publish('while loading');
    };
    const first = await open(node().wsUrl);
    first.send(subscribeFrame('comments', params));
    await first.nextFrame(isAnswerTo(id));
    await publish('live');

    const viewers = [first, ...late];
    const snapshotSeqs = new Set<number>();
    for (const viewer of viewers) {
      await nextChange(viewer, id, (change) => change.docId === 'live');
      const frames = viewer.frames.filter((frame) => 'id' in frame && frame.id === id);
      expect(frames[0]?.type).toBe('snapshot');
      const seqs = frames.map((frame) =>
        frame.type === 'snapshot' || frame.type === 'changes' ? frame.seq : -1,
      );
      snapshotSeqs.add(seqs[0]!);
      for (let i = 1; i < seqs.length; i++) expect(seqs[i]).toBeGreaterThan(seqs[i - 1]!);
      const delivered = frames.flatMap((frame) =>
        frame.type === 'changes' ? frame.changes.map((change) => change.docId) : [],
      );
      expect(delivered).toEqual(['between', 'while loading', 'live']);
    }
    expect(snapshotSeqs.size).toBe(1);
    expect(node().realtime.stats().snapshotQueries).toBe(queriesBefore + 1);
  });

  it('a loaded public snapshot serves newcomers only until the topic has a new batch', async () => {
    const tickParams = { pageUid: PAGE, campaignUid: 'camp-tick' };
    const tickId = subscriptionKey('comments', tickParams);
    const join = async () => {
      const client = await open(node().wsUrl);
      client.send(subscribeFrame('comments', tickParams));
      const answer = await client.nextFrame(isAnswerTo(tickId));
      if (answer.type !== 'snapshot') throw new Error(JSON.stringify(answer));
      return { client, seq: answer.seq };
    };
    const first = await join();
    const seq = await gate().bus.publish(commentTopics.publicComments(PAGE, 'camp-tick'), [
      { type: 'added', docId: 'since', doc: { docId: 'since' } },
    ]);
    await nextChange(first.client, tickId, (change) => change.docId === 'since');
    // Not the first viewer's snapshot and the batch as a change: a snapshot as of the batch.
    const later = await join();
    expect(later.seq).toBe(seq);
    const again = await join();
    expect(again.seq).toBe(seq);
    for (const viewer of [later, again]) {
      expect(viewer.client.frames.filter((frame) => frame.type === 'changes' && frame.id === tickId)).toEqual(
        [],
      );
    }
  });
});

describe('shutdown', () => {
  it('closing the server says goodbye (1001) to connected clients instead of waiting for them', async () => {
    const node = await startTestServer({ db: server.db });
    const client = await open(node.wsUrl);
    await subscribed(client, subscribeFrame('playerSettings', { pageUid: PAGE }));
    const closing = node.close().then(() => 'closed' as const);
    const timeout = sleep(5000).then(() => 'still waiting' as const);
    expect(await Promise.race([closing, timeout])).toBe('closed');
    expect(await client.waitClosed()).toEqual({
      code: CLOSE_CODES.goingAway,
      reason: 'server shutting down',
    });
  });
});

describe('slow consumer', () => {
  it('disconnects a client that stops reading instead of buffering for it', async () => {
    const params = { pageUid: PAGE, campaignUid: 'camp-slow' };
    const id = subscriptionKey('comments', params);
    const topic = commentTopics.publicComments(PAGE, 'camp-slow');
    const before = server.realtime.stats().connections;

    const slow = await open();
    await subscribed(slow, subscribeFrame('comments', params));
    const healthy = await open();
    await subscribed(healthy, subscribeFrame('comments', params));
    expect(server.realtime.stats().connections).toBe(before + 2);

    // The slow client's TCP socket stops reading: the kernel buffers fill, then the server's.
    const tcp = (slow.socket as unknown as { _socket: Socket })._socket;
    tcp.pause();

    // A few through the API, then comment-sized changes straight onto the bus (thousands of
    // inserts through HTTP would take too long to fill the buffers).
    for (let i = 0; i < 5; i++) await postComment(owner.token, 'camp-slow', `${i} ${'y'.repeat(490)}`);
    const text = 'x'.repeat(500);
    let published = 5;
    let batch = 0;
    // About 5 MB fill the kernel buffers and the 1 MiB allowance; far more means no drop.
    const limitBytes = 32 * 1024 * 1024;
    while (server.realtime.stats().connections > before + 1 && published * 700 < limitBytes) {
      const changes: LiveChange[] = Array.from({ length: 50 }, (_, i) => {
        const uid = `slow-${batch}-${i}`;
        const doc: CommentDoc = {
          uid,
          text,
          time: Date.now(),
          threadId: null,
          source: 'player',
          public: true,
          private: false,
          pageUid: PAGE,
          campaignUid: 'camp-slow',
          user: { uid: owner.uid, name: '' },
          replies: [],
          verified: false,
          metaData: {},
        };
        return { type: 'added', docId: uid, doc };
      });
      await server.bus.publish(topic, changes);
      published += changes.length;
      batch += 1;
      // Let the gateway flush this tick's frame and the socket write it.
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(server.realtime.stats().connections, `still connected after ${published} changes`).toBe(
      before + 1,
    );

    // The healthy viewer got every change, in order, and is still connected.
    await healthy.nextFrame(
      (frame) =>
        frame.type === 'changes' && frame.id === id && frame.changes.at(-1)?.docId === `slow-${batch - 1}-49`,
      15_000,
    );
    const received = healthy.frames.flatMap((frame) =>
      frame.type === 'changes' && frame.id === id ? frame.changes : [],
    );
    expect(received).toHaveLength(published);
    expect(healthy.closed).toBe(false);

    // Reading again, the slow client finds its connection closed (the 4008 close frame is queued
    // behind megabytes it never read, and the server does not wait for it: 1006 is what arrives).
    tcp.resume();
    const { code } = await slow.waitClosed(15_000);
    expect([CLOSE_CODES.slowConsumer, 1006]).toContain(code);
    const slowChanges = slow.frames.flatMap((frame) => (frame.type === 'changes' ? frame.changes : []));
    expect(slowChanges.length).toBeLessThan(published);
  });
});

describe('access', () => {
  const OWNER_ONLY = new Set<LiveQueryName>([
    'checkout',
    'userComments',
    'notifications',
    'user',
    'chatStanding',
  ]);

  const STAFF_ONLY = new Set<LiveQueryName>(['controlRoom']);

  /** Params with ids of the fixture for every query of the catalogue (tsc checks it is complete). */
  const paramsOf = (userUid: string): { [N in LiveQueryName]: LiveQueryParamsOf<N> } => ({
    playerSettings: { pageUid: PAGE },
    'liveEvents.shop': { pageUid: PAGE },
    'liveEvents.byId': { ids: ['ev-live'] },
    'liveEvents.byCampaign': { campaignIds: [CAMPAIGN] },
    liveEventProducts: { eventId: 'ev-live' },
    campaignPresentations: { pageUid: PAGE, campaignUid: CAMPAIGN },
    onsiteEventUpdates: { storeIds: [PAGE] },
    checkout: { pageUid: PAGE, campaignUid: CAMPAIGN, userUid },
    purchases: { pageUid: PAGE, campaignUid: CAMPAIGN },
    comments: { pageUid: PAGE, campaignUid: CAMPAIGN },
    bulkComments: { pageUid: PAGE, campaignUid: CAMPAIGN },
    showChat: { pageUid: PAGE, campaignUid: CAMPAIGN },
    chatStanding: { pageUid: PAGE, userUid },
    reactions: { pageUid: PAGE, campaignUid: CAMPAIGN },
    userComments: { pageUid: PAGE, campaignUid: CAMPAIGN, userUid },
    notifications: { userUid, campaignUid: CAMPAIGN },
    user: { userUid },
    viewerCount: { eventId: 'ev-live' },
    controlRoom: { pageUid: PAGE, showUid: 'ev-live', withRevenue: false },
  });

  type Caller = 'anonymous' | 'other user' | 'owner';
  const cases = LIVE_QUERY_NAMES.flatMap((query) =>
    (['anonymous', 'other user', 'owner'] as Caller[]).map((caller) => ({ query, caller })),
  );

  it('covers every query of the catalogue', () => {
    expect(LIVE_QUERY_NAMES).toHaveLength(19);
    expect(cases).toHaveLength(57);
    for (const name of OWNER_ONLY) expect(LIVE_QUERY_NAMES).toContain(name);
  });

  it.each(cases)('$query as $caller', async ({ query, caller }) => {
    const client = await open();
    if (caller !== 'anonymous') {
      const as = caller === 'owner' ? owner : other;
      client.send(authFrame(as.token));
      expect(await client.nextFrame(isFrame('auth_result'))).toEqual({
        type: 'auth_result',
        userUid: as.uid,
      });
    }
    const params = paramsOf(owner.uid)[query];
    const frame = subscribeFrame(query, params as never);
    client.send(frame);
    const answer = await client.nextFrame(isAnswerTo(frame.id));
    // Staff data: none of these callers is staff of the store (control-room-live.test.ts has members).
    const expected = STAFF_ONLY.has(query)
      ? caller === 'anonymous'
        ? 'unauthenticated'
        : 'forbidden'
      : !OWNER_ONLY.has(query)
        ? 'snapshot'
        : caller === 'anonymous'
          ? 'unauthenticated'
          : caller === 'other user'
            ? 'forbidden'
            : 'snapshot';
    if (expected === 'snapshot') {
      expect(answer, JSON.stringify(answer)).toMatchObject({ type: 'snapshot', id: frame.id });
    } else {
      expect(answer).toMatchObject({ type: 'error', id: frame.id, code: expected });
    }
    if (query === 'user' && expected === 'snapshot') {
      expect(answer).toMatchObject({
        docs: [{ docId: owner.uid, doc: { uid: owner.uid, isAnonymous: true } }],
      });
    }
    if (query === 'playerSettings') expect(answer).toMatchObject({ docs: [{ docId: PAGE }] });
    if (query === 'liveEventProducts') expect((answer as { docs: unknown[] }).docs.length).toBeGreaterThan(0);
    client.close();
  });

  it('answers unknown ids of public lookups with not_found where the query has one', async () => {
    const client = await open();
    for (const frame of [
      subscribeFrame('playerSettings', { pageUid: 'no-such-page' }),
      subscribeFrame('liveEvents.shop', { pageUid: 'no-such-page' }),
      subscribeFrame('liveEventProducts', { eventId: 'no-such-event' }),
    ]) {
      client.send(frame);
      expect(await client.nextFrame(isAnswerTo(frame.id))).toMatchObject({
        type: 'error',
        id: frame.id,
        code: 'not_found',
      });
    }
  });

  it('treats an invalid token as anonymous and says so', async () => {
    const client = await open();
    client.send(authFrame('not.a.token'));
    expect(await client.nextFrame(isFrame('error'))).toMatchObject({ id: '', code: 'unauthenticated' });
    expect(await client.nextFrame(isFrame('auth_result'))).toEqual({ type: 'auth_result', userUid: null });
    const own = subscribeFrame('user', { userUid: owner.uid });
    client.send(own);
    expect(await client.nextFrame(isAnswerTo(own.id))).toMatchObject({
      type: 'error',
      code: 'unauthenticated',
    });
    await subscribed(client, subscribeFrame('comments', { pageUid: PAGE, campaignUid: CAMPAIGN }));

    // Signed in, then an invalid token: back to anonymous, and the owner's subscription is dropped.
    client.send(authFrame(owner.token));
    await client.nextFrame(isFrame('auth_result'));
    await subscribed(client, own);
    client.send(authFrame(`${owner.token}x`));
    expect(await client.nextFrame(isAnswerTo(own.id))).toMatchObject({
      type: 'error',
      code: 'unauthenticated',
    });
    expect(await client.nextFrame(isFrame('auth_result'))).toEqual({ type: 'auth_result', userUid: null });
  });

  it('drops owner-only subscriptions when the connection re-authenticates as another user', async () => {
    const client = await open();
    client.send(authFrame(owner.token));
    await client.nextFrame(isFrame('auth_result'));
    const own = subscribeFrame('user', { userUid: owner.uid });
    const ownComments = subscribeFrame('userComments', {
      pageUid: PAGE,
      campaignUid: CAMPAIGN,
      userUid: owner.uid,
    });
    const comments = subscribeFrame('comments', { pageUid: PAGE, campaignUid: CAMPAIGN });
    await subscribed(client, own);
    await subscribed(client, ownComments);
    await subscribed(client, comments);

    client.send(authFrame(other.token));
    expect(await client.nextFrame(isAnswerTo(own.id))).toMatchObject({ type: 'error', code: 'forbidden' });
    expect(await client.nextFrame(isAnswerTo(ownComments.id))).toMatchObject({
      type: 'error',
      code: 'forbidden',
    });
    expect(await client.nextFrame(isFrame('auth_result'))).toEqual({
      type: 'auth_result',
      userUid: other.uid,
    });
    const dropped = client.frames.length;

    // The owner's data no longer reaches this socket; public subscriptions go on.
    await server.bus.publish(userTopic(owner.uid), [
      { type: 'modified', docId: owner.uid, doc: { uid: owner.uid, name: 'leaked' } },
    ]);
    const doc = await postComment(owner.token, CAMPAIGN, 'after re-auth');
    await nextChange(client, comments.id, (change) => change.docId === doc.uid);
    const later = client.frames.slice(dropped);
    expect(
      later.filter((frame) => frame.type !== 'auth_result' && (!('id' in frame) || frame.id !== comments.id)),
    ).toEqual([]);

    // And subscribing to the owner's data again is refused.
    client.send(own);
    expect(await client.nextFrame(isAnswerTo(own.id))).toMatchObject({ type: 'error', code: 'forbidden' });
  });
});
