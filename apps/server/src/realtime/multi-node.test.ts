import { randomUUID } from 'node:crypto';
import type { CommentDoc } from '@vitrine/protocol';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { commentTopics } from '../features/comments/comment-records.ts';
import {
  anonymousToken,
  connect,
  isAnswerTo,
  isChangeOf,
  isFrame,
  openSharedDatabase,
  postCommentOverHttp,
  putAllAsAdmin,
  type RealtimeTestClient,
  startTestServer,
  subscribeFrame,
  type TestServer,
} from '../test-support/realtime-test-client.ts';
import {
  redisReachable,
  removeRedisKeys,
  requireRedis,
  TEST_REDIS_URL,
} from '../test-support/redis-prerequisite.ts';
import { openTestDatabase } from '../test-support/test-app.ts';
import type { ChangeBus } from './change-bus.ts';
import { createRedisChangeBus } from './redis-change-bus.ts';

const REDIS_URL = TEST_REDIS_URL;
/** The two nodes' buses share it, like the nodes of one deployment; its keys are removed in afterAll. */
const PREFIX = `vitrine-test:multi-node:${randomUUID()}:`;
const PAGE = 'shop-nodes';
const CAMPAIGN = 'camp-nodes';
const params = { pageUid: PAGE, campaignUid: CAMPAIGN };
const subscription = subscribeFrame('comments', params);
const topic = commentTopics.publicComments(PAGE, CAMPAIGN);

let db: Awaited<ReturnType<typeof openTestDatabase>>;
let secondDb: Awaited<ReturnType<typeof openSharedDatabase>>;
let busA: ChangeBus;
let busB: ChangeBus;
let nodeA: TestServer;
let nodeB: TestServer;
let token: string;
const busErrors: Error[] = [];
const clients: RealtimeTestClient[] = [];
/** Every comment posted by this file, in order. */
const posted: string[] = [];

async function open(node: TestServer) {
  const client = await connect(node.wsUrl);
  clients.push(client);
  return client;
}

/** Posts a comment through a node's real HTTP port. */
async function postComment(node: TestServer, text: string): Promise<CommentDoc> {
  const doc = await postCommentOverHttp(node, token, params, text);
  posted.push(doc.uid);
  return doc;
}

async function subscribeSnapshot(client: RealtimeTestClient, resume?: { seq: number }) {
  client.send(resume ? { ...subscription, resume } : subscription);
  return client.nextFrame(isAnswerTo(subscription.id));
}

/** The changes frame of the comments subscription that carries comment `uid`. */
const carrying = (uid: string) => isChangeOf(subscription.id, uid);

beforeAll(async () => {
  await requireRedis();
  db = await openTestDatabase();
  // One database for both nodes: a second pool on the same schema (PostgreSQL) or the same PGlite.
  secondDb = await openSharedDatabase(db);
  const onError = (error: Error) => busErrors.push(error);
  busA = await createRedisChangeBus({
    url: REDIS_URL,
    keyPrefix: PREFIX,
    connectionName: 'vitrine-test-node-a',
    onError,
  });
  busB = await createRedisChangeBus({
    url: REDIS_URL,
    keyPrefix: PREFIX,
    connectionName: 'vitrine-test-node-b',
    onError,
  });
  nodeA = await startTestServer({ db, bus: busA });
  nodeB = await startTestServer({ db: secondDb, bus: busB });

  await putAllAsAdmin(nodeA, [
    [`/admin/pages/${PAGE}`, { name: 'Two nodes' }],
    [`/admin/pages/${PAGE}/campaigns/${CAMPAIGN}`, { name: 'Shared' }],
  ]);
  // Signed in on node B: node A verifies the token with the signing key both read from the database.
  token = await anonymousToken(nodeB);
});

afterEach(() => {
  expect(busErrors).toEqual([]);
});

afterAll(async () => {
  for (const client of clients) if (!client.closed) client.socket.terminate();
  await nodeB?.close();
  await nodeA?.close();
  await busA?.close();
  await busB?.close();
  await secondDb?.close();
  await db?.dispose();
  if (!(await redisReachable())) return;
  await removeRedisKeys(PREFIX);
  const admin = new Redis(REDIS_URL);
  try {
    expect(await admin.keys(`${PREFIX}*`)).toEqual([]);
  } finally {
    admin.disconnect();
  }
});

describe('two nodes on one database and one Redis bus', () => {
  it('a comment posted on one node reaches viewers on both, with the same seq', async () => {
    const viewerA = await open(nodeA);
    const viewerB = await open(nodeB);
    expect(await subscribeSnapshot(viewerA)).toMatchObject({ type: 'snapshot' });
    expect(await subscribeSnapshot(viewerB)).toMatchObject({ type: 'snapshot' });

    const fromA = await postComment(nodeA, 'posted on node A');
    const onA = await viewerA.nextFrame(carrying(fromA.uid));
    const onB = await viewerB.nextFrame(carrying(fromA.uid));
    expect(onB).toEqual(onA);
    expect(onB).toMatchObject({ changes: [{ type: 'added', docId: fromA.uid, doc: fromA }] });
    const seq = (onA as { seq: number }).seq;
    expect(seq).toBe(await busB.currentSeq(topic));

    // And the other way round, numbered on from the same sequence.
    const fromB = await postComment(nodeB, 'posted on node B');
    const nextA = await viewerA.nextFrame(carrying(fromB.uid));
    const nextB = await viewerB.nextFrame(carrying(fromB.uid));
    expect(nextA).toEqual(nextB);
    expect((nextA as { seq: number }).seq).toBe(seq + 1);
    expect(viewerA.invalidFrames).toEqual([]);
    expect(viewerB.invalidFrames).toEqual([]);
  });

  it('a client dropped by node A resumes on node B with exactly the changes it missed', async () => {
    const client = await open(nodeA);
    await subscribeSnapshot(client);
    const seen = await postComment(nodeA, 'seen before the drop');
    const last = await client.nextFrame(carrying(seen.uid));
    const lastSeq = (last as { seq: number }).seq;
    client.socket.terminate();
    await client.waitClosed();

    const missed: CommentDoc[] = [];
    for (const [node, text] of [
      [nodeA, 'missed 1 (A)'],
      [nodeB, 'missed 2 (B)'],
      [nodeA, 'missed 3 (A)'],
    ] as const) {
      missed.push(await postComment(node, text));
    }

    const resumed = await open(nodeB);
    const answer = await subscribeSnapshot(resumed, { seq: lastSeq });
    // Replayed from the shared log, not a snapshot.
    expect(answer).toMatchObject({ type: 'changes', id: subscription.id, seq: lastSeq + 3 });
    expect(answer.type === 'changes' && answer.changes).toEqual(
      missed.map((doc) => ({ type: 'added', docId: doc.uid, doc })),
    );

    // Live again on node B, numbered on.
    const after = await postComment(nodeA, 'after the resume');
    const live = await resumed.nextFrame(carrying(after.uid));
    expect(live).toMatchObject({ seq: lastSeq + 4, changes: [{ docId: after.uid }] });
    const delivered = resumed.frames.flatMap((frame) =>
      isFrame('changes', subscription.id)(frame) && frame.type === 'changes' ? frame.changes : [],
    );
    expect(delivered.map((change) => change.docId)).toEqual([...missed, after].map((doc) => doc.uid));
  });

  it('a resume point from before the log forces a snapshot on the other node', async () => {
    const client = await open(nodeB);
    // seq 1 was never issued by this (time-based) sequence: the server cannot replay from it.
    const answer = await subscribeSnapshot(client, { seq: 1 });
    expect(answer).toMatchObject({ type: 'snapshot', seq: await busA.currentSeq(topic) });
    expect(answer.type === 'snapshot' && answer.docs.map((doc) => doc.docId).sort()).toEqual(
      [...posted].sort(),
    );
    expect(posted.length).toBeGreaterThan(0);
  });
});
