import { type CompetitionAdminView, DrawWinnersResponse } from '@vitrine/protocol';
import { describe, expect, it } from 'vitest';
import { ABUSE_LIMITS } from '../../http/abuse-limits.ts';
import {
  anonymousViewersOwnAddresses,
  interactionTestApp,
  LIVE_SHOW,
  LIVE_SHOW_COMPETITIONS,
  LIVE_SHOW_STUDIO,
  PAGE,
} from '../../test-support/interaction-fixture.ts';
import { CONTACT_REQUIRED_MESSAGE, PERSON_ALREADY_VOTED_MESSAGE } from './competition-service.ts';

// Issue 12 item 5: poll stuffing and raffle capture with many cheap anonymous accounts, performed
// through the public API with the abuse limits on and the store's integrity settings.

const START = Date.UTC(2025, 4, 4, 19, 0, 0);
const { app, clock, admin, adminOk, createCompetition } = interactionTestApp(START, {
  VITRINE_ABUSE_LIMITS: 'on',
});

/** Anonymous viewers, each from an address of its own (sign-ups are limited per address). */
const viewer = anonymousViewersOwnAddresses(app, 2);

/** A POST as a viewer from the one address all of this file's attacks come from. */
function post(url: string, token: string, payload: object) {
  return app().server.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${token}` },
    payload,
    remoteAddress: '198.51.100.20',
  });
}

const participate = (token: string, body: object) =>
  post('/shopapiv2/competition/participate', token, { ...LIVE_SHOW, ...body });

async function leaveContact(token: string, email: string) {
  const response = await post('/shopapiv2/contact/capture', token, {
    ...LIVE_SHOW,
    email,
    name: 'Viewer',
    consent: true,
  });
  expect(response.statusCode, response.body).toBe(200);
}

async function setIntegrity(integritySettings: object) {
  await adminOk('PUT', `/admin/pages/${PAGE}`, {
    name: PAGE,
    language: 'da',
    currency: 'DKK',
    integritySettings,
  });
}

describe('poll: one vote per person (pollVotes: perPerson)', () => {
  it('refuses a poll stuffed from many anonymous accounts; counts each person once', async () => {
    await setIntegrity({ pollVotes: 'perPerson' });
    const poll = await createCompetition({
      type: 'poll',
      name: 'Which colour?',
      options: [
        { id: 'red', text: 'Red' },
        { id: 'blue', text: 'Blue' },
      ],
      openForParticipation: true,
    });
    // The stuffer: 150 fresh anonymous accounts voting red, without contact details…
    const stuffers = await Promise.all(Array.from({ length: 150 }, () => viewer()));
    for (const [index, stuffer] of stuffers.entries()) {
      clock.now += 1_000; // within the per-address entry limit; this attack is about identities
      const response = await participate(stuffer.idToken, {
        competitionUid: poll.uid,
        text: `red ${index}`,
        optionId: 'red',
      });
      expect(response.statusCode, response.body).toBe(403);
      expect(response.json()).toEqual({ error: 'contact_required', message: CONTACT_REQUIRED_MESSAGE });
    }
    // …then with one contact e-mail shared by ten of them: one vote.
    const sharing = stuffers.slice(0, 10);
    for (const stuffer of sharing) await leaveContact(stuffer.idToken, 'Stuffer@Example.com');
    const answers = [];
    for (const stuffer of sharing) {
      answers.push(
        await participate(stuffer.idToken, { competitionUid: poll.uid, text: 'red again', optionId: 'red' }),
      );
    }
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, ...Array(9).fill(409)]);
    expect(answers[1]?.json()).toEqual({
      error: 'already_participated',
      message: PERSON_ALREADY_VOTED_MESSAGE,
    });
    // Five real people: each leaves their own contact and votes blue.
    for (let person = 0; person < 5; person++) {
      const voter = await viewer();
      await leaveContact(voter.idToken, `person${person}@example.com`);
      expect(
        (await participate(voter.idToken, { competitionUid: poll.uid, text: 'blue', optionId: 'blue' }))
          .statusCode,
      ).toBe(200);
    }
    const views = (await adminOk('GET', LIVE_SHOW_COMPETITIONS)).competitions as CompetitionAdminView[];
    expect(views.find((view) => view.uid === poll.uid)?.tally).toEqual({ red: 1, blue: 5 });
  });
});

describe('raffle: contactable winners only (raffleWinners: contactable)', () => {
  it('draws only among entrants with contact details, each person once', async () => {
    await setIntegrity({ raffleWinners: 'contactable' });
    const raffle = await createCompetition({
      type: 'raffle',
      name: 'Bag raffle',
      openForParticipation: true,
    });
    // An attacker enters 30 anonymous accounts without contact details.
    for (let index = 0; index < 30; index++) {
      clock.now += 1_000;
      const response = await participate((await viewer()).idToken, {
        competitionUid: raffle.uid,
        text: 'me!',
      });
      expect(response.statusCode, response.body).toBe(200); // may enter, cannot win
    }
    // Two contactable people; a second account with the first one's contact is the same person.
    const ann = await viewer();
    const annAgain = await viewer();
    const bo = await viewer();
    await leaveContact(ann.idToken, 'ann@example.com');
    await leaveContact(annAgain.idToken, 'ann@example.com');
    await leaveContact(bo.idToken, 'bo@example.com');
    expect((await participate(ann.idToken, { competitionUid: raffle.uid, text: 'me' })).statusCode).toBe(200);
    expect(
      (await participate(annAgain.idToken, { competitionUid: raffle.uid, text: 'me too' })).statusCode,
    ).toBe(409);
    expect((await participate(bo.idToken, { competitionUid: raffle.uid, text: 'me' })).statusCode).toBe(200);

    const { winners } = DrawWinnersResponse.parse(
      await adminOk('POST', `${LIVE_SHOW_STUDIO}/control-room/competitions/${raffle.uid}/draw`, { count: 3 }),
    );
    expect(winners.map((winner) => winner.userUid).sort()).toEqual([ann.user.uid, bo.user.uid].sort());
    const none = await admin('POST', `${LIVE_SHOW_STUDIO}/control-room/competitions/${raffle.uid}/draw`, {});
    expect(none.statusCode).toBe(409);
  });
});

describe('competition entries per user and per address', () => {
  it('refuses one user hammering the entry call after the per-user cap', async () => {
    await setIntegrity({});
    clock.now += 5 * 60_000;
    const raffle = await createCompetition({ type: 'raffle', name: 'Hammered', openForParticipation: true });
    expect(raffle.type).toBe('raffle');
    const hammer = await viewer();
    const statuses = [];
    for (let attempt = 0; attempt < 50; attempt++) {
      statuses.push(
        (await participate(hammer.idToken, { competitionUid: raffle.uid, text: `entry ${attempt}` }))
          .statusCode,
      );
    }
    const { max } = ABUSE_LIMITS.competitionEntry.perUser;
    expect(statuses).toEqual([200, ...Array(max - 1).fill(409), ...Array(50 - max).fill(429)]);
  });
});
