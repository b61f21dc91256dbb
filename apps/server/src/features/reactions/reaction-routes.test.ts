import { CreateReactionResponse, RateLimitedError, ReactionDoc } from '@vitrine/protocol';
import { describe, expect, it } from 'vitest';
import { CAMPAIGNS, interactionTestApp, PAGE } from '../../test-support/interaction-fixture.ts';
import { reactionTopic } from './live-queries.ts';

const START = Date.UTC(2025, 4, 3, 19, 0, 0);
const { app, clock, post, signIn, record } = interactionTestApp(START);
const live = { pageUid: PAGE, campaignUid: CAMPAIGNS.live };

const react = (token: string | undefined, payload: object = live) =>
  post('/shopapiv2/reaction/createReaction', payload, token);

describe('POST /shopapiv2/reaction/createReaction', () => {
  it('defaults to love, uses the server clock, and allows one per 2 s per viewer', async () => {
    const viewer = await signIn();
    const first = await react(viewer.idToken, { ...live, time: 1 });
    expect(first.statusCode, first.body).toBe(200);
    expect(CreateReactionResponse.parse(first.json())).toMatchObject({ type: 'love', time: clock.now });

    clock.now += 1_500;
    const tooSoon = await react(viewer.idToken, { ...live, type: 'fire' });
    expect(tooSoon.statusCode).toBe(429);
    expect(RateLimitedError.parse(tooSoon.json())).toEqual({
      error: 'rate_limited',
      message: 'One reaction every 2 seconds, please.',
      retryAfterMs: 500,
    });
    // Another viewer is not held back.
    const other = await signIn();
    expect((await react(other.idToken)).statusCode).toBe(200);

    clock.now += 500;
    const again = await react(viewer.idToken, { ...live, type: 'fire' });
    expect(again.statusCode).toBe(200);
    expect(again.json().type).toBe('fire');
    const rows = await app().db.query(
      'SELECT type, user_uid FROM reactions WHERE user_uid = $1 ORDER BY time',
      [viewer.user.uid],
    );
    expect(rows).toEqual([
      { type: 'love', user_uid: viewer.user.uid },
      { type: 'fire', user_uid: viewer.user.uid },
    ]);
  });

  it('holds under concurrent requests of one viewer: exactly one of ten gets through', async () => {
    clock.now += 10_000;
    const viewer = await signIn();
    const answers = await Promise.all(Array.from({ length: 10 }, () => react(viewer.idToken)));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, ...Array(9).fill(429)]);
  });

  it('publishes a quiet tick reaction by reaction, and folds a busy tick into counts per type', async () => {
    clock.now += 10_000;
    await app().services.reactions.flush();
    const topic = await record(reactionTopic(PAGE, CAMPAIGNS.live));
    const single = await signIn();
    await react(single.idToken, { ...live, type: 'wow' });
    await app().services.reactions.flush();
    expect(topic.changes).toHaveLength(1);
    const lone = ReactionDoc.parse(topic.changes[0]?.doc);
    expect(lone).toMatchObject({ type: 'wow', pageUid: PAGE, campaignUid: CAMPAIGNS.live, time: clock.now });
    expect(lone.count).toBeUndefined();

    const viewers = await Promise.all(Array.from({ length: 30 }, () => signIn()));
    await Promise.all(
      viewers.map((viewer, i) => react(viewer.idToken, { ...live, type: i % 3 === 0 ? 'clap' : 'love' })),
    );
    await app().services.reactions.flush();
    const burst = topic.changes.slice(1).map((change) => ReactionDoc.parse(change.doc));
    // Every reaction is counted once; a tick may fire while the requests are still arriving,
    // so the burst can span ticks, but each tick sends one doc per type, not one per reaction.
    const totals: Record<string, number> = {};
    for (const doc of burst) totals[doc.type] = (totals[doc.type] ?? 0) + (doc.count ?? 1);
    expect(totals).toEqual({ clap: 10, love: 20 });
    expect(burst.length).toBeLessThanOrEqual(6);
    expect(burst.some((doc) => (doc.count ?? 1) > 1)).toBe(true);
    await topic.stop();
  });

  it('publishes on its own after a tick', async () => {
    clock.now += 10_000;
    const topic = await record(reactionTopic(PAGE, CAMPAIGNS.live));
    const viewer = await signIn();
    await react(viewer.idToken, { ...live, type: 'laugh' });
    await expect.poll(() => topic.changes.length, { timeout: 2_000 }).toBe(1);
    await topic.stop();
  });

  it('answers 400 for malformed input, 401 without a token, 404 for an unknown campaign', async () => {
    clock.now += 10_000;
    const viewer = await signIn();
    const cases: Array<[object, string]> = [
      [
        { ...live, type: 'angry' },
        'type: Invalid option: expected one of "love"|"like"|"laugh"|"wow"|"clap"|"fire"',
      ],
      [{ pageUid: PAGE }, 'campaignUid: Invalid input: expected string, received undefined'],
      [{ ...live, count: 1000 }, 'Unrecognized key: "count"'],
      [{ ...live, time: -1 }, 'time: Too small: expected number to be >=0'],
    ];
    for (const [payload, message] of cases) {
      const response = await react(viewer.idToken, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json()).toEqual({ error: 'invalid_request', message });
    }
    expect((await react(undefined)).statusCode).toBe(401);
    const unknown = await react(viewer.idToken, { pageUid: PAGE, campaignUid: 'nope' });
    expect(unknown.statusCode).toBe(404);
  });
});
