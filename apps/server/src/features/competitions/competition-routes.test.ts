import { COMPETITION_LATE_ENTRY_GRACE_MS } from '@vitrine/domain';
import {
  CampaignPresentationDoc,
  CommentDoc,
  CompetitionAdminView,
  DrawWinnersResponse,
  NotificationDoc,
  ParticipateResponse,
  UserDoc,
} from '@vitrine/protocol';
import { describe, expect, it } from 'vitest';
import {
  CAMPAIGNS,
  interactionTestApp,
  LIVE_SHOW,
  LIVE_SHOW_COMPETITIONS,
  LIVE_SHOW_STUDIO,
  PAGE,
} from '../../test-support/interaction-fixture.ts';
import { seededRandomInt } from '../../test-support/seeded-random.ts';
import { commentTopics } from '../comments/comment-records.ts';
import { eventTopics } from '../events/event-service.ts';
import { drawUniformly } from './competition-service.ts';

const START = Date.UTC(2025, 4, 4, 19, 0, 0);
const { app, clock, admin, adminOk, createCompetition, post, signIn, record } = interactionTestApp(START);

const participate = (token: string, body: object) =>
  post('/shopapiv2/competition/participate', { ...LIVE_SHOW, ...body }, token);

describe('drawUniformly', () => {
  it('picks distinct items, every item equally often (chi-square over 30,000 draws)', () => {
    const items = ['a', 'b', 'c', 'd', 'e'];
    const counts: Record<string, number> = Object.fromEntries(items.map((item) => [item, 0]));
    const draws = 30_000;
    // A seeded source: the statistic is the same on every run, so the test cannot flake, and a
    // shuffle that favours some positions still shows as a large chi-square.
    const pick = seededRandomInt(20_250_504);
    for (let i = 0; i < draws; i++)
      for (const drawn of drawUniformly(items, 2, pick)) counts[drawn] = (counts[drawn] ?? 0) + 1;
    const expected = (draws * 2) / items.length;
    const chiSquare = items.reduce(
      (sum, item) => sum + ((counts[item] as number) - expected) ** 2 / expected,
      0,
    );
    // 4 degrees of freedom: p = 0.001 at 18.47.
    expect(chiSquare).toBeLessThan(18.47);
    const pair = drawUniformly(items, 2);
    expect(new Set(pair).size).toBe(2);
    expect(drawUniformly(items, 10)).toHaveLength(5);
    expect(items).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
});

describe('raffle: present, participate, draw, notify', () => {
  it('goes from presentation to winner notification', async () => {
    const presentations = await record(eventTopics.campaignPresentation(PAGE, CAMPAIGNS.live));
    const raffle = await createCompetition({
      type: 'raffle',
      name: 'Spring raffle',
      presentationPrimaryText: '<p>Win a <b>bag</b></p>',
      cues: [{ start: START }],
      openForParticipation: true,
      playing: true,
    });
    expect(raffle).toMatchObject({
      type: 'raffle',
      participantCount: 0,
      winners: [],
      cues: [{ start: START, end: null }],
    });
    // Viewers get it in the campaign presentation document, without host-only fields.
    const doc = CampaignPresentationDoc.parse(presentations.changes.at(-1)?.doc);
    expect(doc.competitions?.[0]).toMatchObject({
      uid: raffle.uid,
      name: 'Spring raffle',
      openForParticipation: true,
    });
    expect(doc.competitions?.[0]).not.toHaveProperty('correctOptionId');
    expect(doc.competitions?.[0]).not.toHaveProperty('winnerDetails');

    const ann = await signIn();
    const bo = await signIn();
    const cy = await signIn();
    const annUser = await record(`user:${ann.user.uid}`);
    const chat = await record(commentTopics.publicComments(PAGE, CAMPAIGNS.live));

    // Empty text is ignored: nothing is recorded.
    const ignored = await participate(ann.idToken, { competitionUid: raffle.uid, text: '   ' });
    expect(ParticipateResponse.parse(ignored.json())).toEqual({ status: 'ignored' });
    expect(chat.changes).toEqual([]);

    const joined = ParticipateResponse.parse(
      (await participate(ann.idToken, { competitionUid: raffle.uid, text: 'Me please!' })).json(),
    );
    expect(joined.status).toBe('participated');
    // The comment came first, tagged with the competition; then the participation.
    const posted = CommentDoc.parse(chat.changes[0]?.doc);
    expect(posted).toMatchObject({ text: 'Me please!', metaData: { competitionUid: raffle.uid } });
    expect(joined).toEqual({ status: 'participated', commentUid: posted.uid });
    expect(UserDoc.parse(annUser.changes.at(-1)?.doc).competitionsParticipated).toEqual([raffle.uid]);

    const twice = await participate(ann.idToken, { competitionUid: raffle.uid, text: 'again' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toEqual({
      error: 'already_participated',
      message: 'You have already taken part in this competition.',
    });
    for (const viewer of [bo, cy]) {
      expect((await participate(viewer.idToken, { competitionUid: raffle.uid, text: 'me' })).statusCode).toBe(
        200,
      );
    }
    expect(
      CampaignPresentationDoc.parse(presentations.changes.at(-1)?.doc).competitions?.[0]?.participantCount,
    ).toBe(3);

    // Dismissal is recorded on the user.
    const dismissed = await post(
      '/shopapiv2/competition/dismiss',
      { ...LIVE_SHOW, competitionUid: raffle.uid },
      ann.idToken,
    );
    expect(dismissed.json()).toEqual({ ok: true });
    expect(UserDoc.parse(annUser.changes.at(-1)?.doc).competitionsDismissed).toEqual([raffle.uid]);

    // The host closes it and draws: one of the three wins, and only the winner is notified.
    const closed = CompetitionAdminView.parse(
      await adminOk('PATCH', `${LIVE_SHOW_STUDIO}/competitions/${raffle.uid}`, {
        openForParticipation: false,
        playing: false,
      }),
    );
    expect(closed).toMatchObject({ openForParticipation: false, playing: false, participantCount: 3 });
    // Past the grace a closed competition takes no more entries (the grace is tested below).
    clock.now += COMPETITION_LATE_ENTRY_GRACE_MS;
    const late = await participate((await signIn()).idToken, { competitionUid: raffle.uid, text: 'late' });
    expect(late.statusCode).toBe(409);
    expect(late.json().error).toBe('competition_closed');

    const inboxes = await Promise.all(
      [ann, bo, cy].map((viewer) => record(`notifications:${viewer.user.uid}`)),
    );
    const { winners } = DrawWinnersResponse.parse(
      await adminOk('POST', `${LIVE_SHOW_STUDIO}/control-room/competitions/${raffle.uid}/draw`, {}),
    );
    expect(winners).toHaveLength(1);
    const winnerIndex = [ann, bo, cy].findIndex((viewer) => viewer.user.uid === winners[0]?.userUid);
    expect(winnerIndex).toBeGreaterThanOrEqual(0);
    inboxes.forEach((inbox, index) => {
      expect(inbox.changes, `viewer ${index}`).toHaveLength(index === winnerIndex ? 1 : 0);
    });
    const notice = NotificationDoc.parse(inboxes[winnerIndex]?.changes[0]?.doc);
    expect(notice).toMatchObject({
      notificationType: 'competition',
      notificationSubType: 'competition',
      notificationData: { title: 'Spring raffle', body: 'Congratulations, you won!', uid: raffle.uid },
      metaData: { competitionUid: raffle.uid, isCompetitionWinner: true },
      created: clock.now,
    });
    expect(
      CampaignPresentationDoc.parse(presentations.changes.at(-1)?.doc).competitions?.[0]?.winners,
    ).toHaveLength(1);
    // The winner's entry comment is flagged in the chat.
    const [winnerComment] = await app().db.query<{ meta_data: object }>(
      'SELECT meta_data FROM comments WHERE user_uid = $1 AND page_uid = $2',
      [winners[0]?.userUid, PAGE],
    );
    expect(winnerComment?.meta_data).toEqual({ competitionUid: raffle.uid, isCompetitionWinner: true });

    // The next draws take the others, then there is nobody left.
    const rest = DrawWinnersResponse.parse(
      await adminOk('POST', `${LIVE_SHOW_STUDIO}/control-room/competitions/${raffle.uid}/draw`, { count: 5 }),
    );
    expect(rest.winners).toHaveLength(2);
    expect(new Set([...winners, ...rest.winners].map((winner) => winner.userUid)).size).toBe(3);
    const none = await admin('POST', `${LIVE_SHOW_STUDIO}/control-room/competitions/${raffle.uid}/draw`, {});
    expect(none.statusCode).toBe(409);
    expect(none.json().error).toBe('no_participants');

    // A notice reaches every participant.
    expect(
      await adminOk('POST', `${LIVE_SHOW_STUDIO}/control-room/competitions/${raffle.uid}/announce`, {
        title: 'Thanks!',
        body: 'Winners are contacted.',
      }),
    ).toEqual({
      notified: 3,
    });
    for (const inbox of inboxes) await inbox.stop();
    await presentations.stop();
    await annUser.stop();
    await chat.stop();
  });
});

describe('competitions on the stream clock (issue 15 §9)', () => {
  it('stamps opening, closing and the draw with the server clock; a closed one takes entries for the grace', async () => {
    const presentations = await record(eventTopics.campaignPresentation(PAGE, CAMPAIGNS.live));
    const viewerDoc = (uid: string) =>
      CampaignPresentationDoc.parse(presentations.changes.at(-1)?.doc).competitions?.find(
        (c) => c.uid === uid,
      );
    const openedAt = clock.now;
    const poll = await createCompetition({
      type: 'poll',
      name: 'Oak or ash?',
      options: [
        { id: 'oak', text: 'Oak' },
        { id: 'ash', text: 'Ash' },
      ],
      openForParticipation: true,
      playing: true,
    });
    expect(viewerDoc(poll.uid)?.stateChanges).toEqual([
      { at: openedAt, openForParticipation: true, playing: true },
    ]);
    // A change of its texts is no change of state: nothing is stamped.
    clock.now += 1000;
    await adminOk('PATCH', `${LIVE_SHOW_STUDIO}/competitions/${poll.uid}`, { name: 'Oak or ash, really?' });
    expect(viewerDoc(poll.uid)?.stateChanges).toHaveLength(1);

    clock.now += 20_000;
    const closedAt = clock.now;
    await adminOk('PATCH', `${LIVE_SHOW_STUDIO}/competitions/${poll.uid}`, { openForParticipation: false });
    expect(viewerDoc(poll.uid)?.stateChanges).toEqual([
      { at: openedAt, openForParticipation: true, playing: true },
      { at: closedAt, openForParticipation: false, playing: true },
    ]);

    // A viewer 4 s behind still saw it open: the vote counts within the grace…
    clock.now = closedAt + COMPETITION_LATE_ENTRY_GRACE_MS - 1;
    const behind = await signIn();
    const inTime = await participate(behind.idToken, {
      competitionUid: poll.uid,
      text: 'Oak',
      optionId: 'oak',
    });
    expect(inTime.statusCode, inTime.body).toBe(200);
    // …and not after it.
    clock.now = closedAt + COMPETITION_LATE_ENTRY_GRACE_MS;
    const tooLate = await participate((await signIn()).idToken, {
      competitionUid: poll.uid,
      text: 'Ash',
      optionId: 'ash',
    });
    expect(tooLate.statusCode).toBe(409);
    expect(tooLate.json().error).toBe('competition_closed');

    clock.now += 5000;
    const drawnAt = clock.now;
    await adminOk('POST', `${LIVE_SHOW_STUDIO}/control-room/competitions/${poll.uid}/draw`, {});
    expect(viewerDoc(poll.uid)?.winners).toEqual([{ name: expect.any(String), drawnAt }]);
    await presentations.stop();
  });

  it('never takes entries for a competition that was never open', async () => {
    const prepared = await createCompetition({ type: 'raffle', name: 'Prepared raffle', playing: true });
    expect(prepared.stateChanges).toEqual([{ at: clock.now, openForParticipation: false, playing: true }]);
    const entry = await participate((await signIn()).idToken, { competitionUid: prepared.uid, text: 'me' });
    expect(entry.statusCode).toBe(409);
  });
});

describe('polls and quizzes', () => {
  it('tallies poll votes live and needs a valid option', async () => {
    const poll = await createCompetition({
      type: 'poll',
      name: 'Which colour?',
      options: [
        { id: 'red', text: 'Red' },
        { id: 'blue', text: 'Blue' },
      ],
      openForParticipation: true,
    });
    expect(poll.tally).toEqual({ red: 0, blue: 0 });
    const presentations = await record(eventTopics.campaignPresentation(PAGE, CAMPAIGNS.live));
    for (const option of ['red', 'blue', 'blue']) {
      const viewer = await signIn();
      const response = await participate(viewer.idToken, {
        competitionUid: poll.uid,
        text: option,
        optionId: option,
      });
      expect(response.statusCode, response.body).toBe(200);
    }
    const latest = CampaignPresentationDoc.parse(presentations.changes.at(-1)?.doc);
    expect(latest.competitions?.find((c) => c.uid === poll.uid)?.tally).toEqual({ red: 1, blue: 2 });
    await presentations.stop();
    const viewer = await signIn();
    const noOption = await participate(viewer.idToken, {
      competitionUid: poll.uid,
      text: 'green',
      optionId: 'green',
    });
    expect(noOption.statusCode).toBe(400);
    expect(noOption.json().message).toBe("optionId: must be one of the competition's options");
  });

  it('keeps a poll vote out of the public chat: the voter and the host still see it (issue 13 §8)', async () => {
    const poll = await createCompetition({
      type: 'poll',
      name: 'Which wood?',
      options: [
        { id: 'oak', text: 'Oak' },
        { id: 'ash', text: 'Ash' },
      ],
      openForParticipation: true,
    });
    const voter = await signIn();
    const chat = await record(commentTopics.publicComments(PAGE, CAMPAIGNS.live));
    const own = await record(commentTopics.userComments(PAGE, CAMPAIGNS.live, voter.user.uid));
    const voted = await participate(voter.idToken, {
      competitionUid: poll.uid,
      text: 'Oak',
      optionId: 'oak',
    });
    expect(voted.statusCode, voted.body).toBe(200);
    const answer = ParticipateResponse.parse(voted.json());
    const commentUid = answer.status === 'participated' ? answer.commentUid : null;
    expect(commentUid).not.toBeNull();
    expect(chat.changes).toEqual([]);
    expect(CommentDoc.parse(own.changes.at(-1)?.doc)).toMatchObject({
      uid: commentUid,
      text: 'Oak',
      public: false,
      metaData: { competitionUid: poll.uid },
    });
    const host = await adminOk('GET', `${LIVE_SHOW_STUDIO}/comments`);
    expect(
      CommentDoc.array()
        .parse(host.comments)
        .map((comment) => comment.uid),
    ).toContain(commentUid);
    await chat.stop();
    await own.stop();
  });

  it('draws quiz winners only among right answers, and keeps the answer from viewers', async () => {
    const quiz = await createCompetition({
      type: 'quiz',
      name: 'Guess the price',
      options: [
        { id: 'a', text: '100 kr' },
        { id: 'b', text: '200 kr' },
      ],
      correctOptionId: 'b',
      openForParticipation: true,
    });
    const wrong = await signIn();
    const right = await signIn();
    await participate(wrong.idToken, { competitionUid: quiz.uid, text: '100', optionId: 'a' });
    await participate(right.idToken, { competitionUid: quiz.uid, text: '200', optionId: 'b' });
    const { winners } = DrawWinnersResponse.parse(
      await adminOk('POST', `${LIVE_SHOW_STUDIO}/control-room/competitions/${quiz.uid}/draw`, { count: 2 }),
    );
    expect(winners.map((winner) => winner.userUid)).toEqual([right.user.uid]);
    const [presentation] = await app().db.query<{ data: { competitions: object[] } }>(
      'SELECT data FROM campaign_presentations WHERE page_uid = $1 AND campaign_uid = $2',
      [PAGE, CAMPAIGNS.live],
    );
    expect(JSON.stringify(presentation?.data)).not.toContain('correctOptionId');
  });
});

describe('validation and authorization', () => {
  it('answers 400 for malformed competitions and requests', async () => {
    const cases: Array<[object, string]> = [
      [{ type: 'poll', name: 'No options' }, 'options: a poll or quiz needs at least 2 options'],
      [{ type: 'lottery', name: 'x' }, 'type: Invalid option: expected one of "raffle"|"quiz"|"poll"'],
      [{ type: 'raffle', name: '' }, 'name: Too small: expected string to have >=1 characters'],
      [
        { type: 'raffle', name: 'x', cues: [{ start: -5 }] },
        'cues.0.start: Too small: expected number to be >=0',
      ],
    ];
    for (const [body, message] of cases) {
      const response = await admin('POST', LIVE_SHOW_COMPETITIONS, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json()).toEqual({ error: 'invalid_request', message });
    }
    const dup = await admin('POST', LIVE_SHOW_COMPETITIONS, {
      type: 'poll',
      name: 'dup',
      options: [
        { id: 'x', text: 'X' },
        { id: 'x', text: 'Y' },
      ],
    });
    expect(dup.json().message).toBe('options: option ids must be unique');
    const badAnswer = await admin('POST', LIVE_SHOW_COMPETITIONS, {
      type: 'quiz',
      name: 'q',
      options: [
        { id: 'x', text: 'X' },
        { id: 'y', text: 'Y' },
      ],
      correctOptionId: 'z',
    });
    expect(badAnswer.json().message).toBe('correctOptionId: must be one of the option ids');
    expect(
      (await admin('POST', `/staff/stores/${PAGE}/shows/nope/competitions`, { type: 'raffle', name: 'x' }))
        .statusCode,
    ).toBe(404);
    expect((await admin('PATCH', `${LIVE_SHOW_COMPETITIONS}/nope`, { playing: true })).statusCode).toBe(404);
    expect((await admin('PATCH', `${LIVE_SHOW_COMPETITIONS}/nope`, { uid: 'x' })).statusCode).toBe(400);
    expect(
      (await admin('POST', `${LIVE_SHOW_STUDIO}/control-room/competitions/nope/draw`, { count: 0 }))
        .statusCode,
    ).toBe(400);

    const viewer = await signIn();
    expect((await participate(viewer.idToken, { competitionUid: 'nope', text: 'x' })).statusCode).toBe(404);
    expect((await participate(viewer.idToken, { text: 'x' })).statusCode).toBe(400);
    expect((await post('/shopapiv2/competition/dismiss', { ...LIVE_SHOW }, viewer.idToken)).statusCode).toBe(
      400,
    );
  });

  it("keeps the competition calls to the store's staff (or the admin key) and viewer calls behind a sign-in", async () => {
    const viewer = await signIn();
    for (const [method, url] of [
      ['GET', LIVE_SHOW_COMPETITIONS],
      ['POST', LIVE_SHOW_COMPETITIONS],
      ['PATCH', `${LIVE_SHOW_COMPETITIONS}/x`],
      ['POST', `${LIVE_SHOW_STUDIO}/control-room/competitions/x/draw`],
      ['POST', `${LIVE_SHOW_STUDIO}/control-room/competitions/x/announce`],
    ] as const) {
      const anonymous = await app().server.inject({ method, url, payload: {} });
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
      const asViewer = await app().server.inject({
        method,
        url,
        payload: {},
        headers: { authorization: `Bearer ${viewer.idToken}` },
      });
      // A viewer is signed in but no staff of the store.
      expect(asViewer.statusCode, `${method} ${url} as viewer`).toBe(403);
    }
    expect(
      (await post('/shopapiv2/competition/participate', { ...LIVE_SHOW, competitionUid: 'x', text: 'x' }))
        .statusCode,
    ).toBe(401);
    const list = await adminOk('GET', LIVE_SHOW_COMPETITIONS);
    expect(list.competitions.length).toBeGreaterThanOrEqual(3);
  });
});
