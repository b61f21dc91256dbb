import { type AuthSession, VIEWER_ID_HEADER } from '@vitrine/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { interactionTestApp, LIVE_SHOW, PAGE } from '../../test-support/interaction-fixture.ts';
import { signInStaff, type TestStaffMember } from '../../test-support/studio-staff.ts';
import { BANNED_FROM_CHAT } from './comment-service.ts';
import { BANNED_FROM_TAKING_PART } from './viewer-bans.ts';

/**
 * Ban evasion (issue 33 §4): a banned viewer comes back with a new anonymous account. From the
 * same browser (the player's viewer id) they are still banned, from the same address too when
 * the store bans by address; reactions and competition entries respect the ban.
 */
const START = Date.UTC(2025, 4, 6, 19, 0, 0);
const { app, clock, createCompetition, signIn } = interactionTestApp(START);
let moderator: TestStaffMember;
let raffleUid: string;

beforeAll(async () => {
  moderator = await signInStaff(app(), PAGE, 'moderator');
  const raffle = await createCompetition({
    type: 'raffle',
    name: 'Evasion raffle',
    cues: [{ start: START }],
    openForParticipation: true,
    playing: true,
  });
  raffleUid = raffle.uid;
});

/** One browser: its viewer id and its network address. */
interface Browser {
  device: string;
  address: string;
}

function send(viewer: AuthSession, from: Browser, url: string, payload: object) {
  clock.now += 3_000; // past the reaction and comment limits
  return app().server.inject({
    method: 'POST',
    url,
    remoteAddress: from.address,
    headers: { authorization: `Bearer ${viewer.idToken}`, [VIEWER_ID_HEADER]: from.device },
    payload,
  });
}
const comment = (viewer: AuthSession, from: Browser, text: string) =>
  send(viewer, from, '/shopapiv2/comment/playerComment', { ...LIVE_SHOW, text });
const react = (viewer: AuthSession, from: Browser) =>
  send(viewer, from, '/shopapiv2/reaction/createReaction', { ...LIVE_SHOW, type: 'love' });
const enter = (viewer: AuthSession, from: Browser) =>
  send(viewer, from, '/shopapiv2/competition/participate', {
    ...LIVE_SHOW,
    competitionUid: raffleUid,
    text: 'Me!',
  });

async function ban(userUid: string) {
  const answer = await app().server.inject({
    method: 'POST',
    url: `/staff/stores/${PAGE}/chat-bans`,
    headers: moderator.headers,
    payload: { userUid, reason: 'spam' },
  });
  expect(answer.statusCode, answer.body).toBe(201);
}
async function setBanByAddress(banByAddress: boolean) {
  const answer = await app().server.inject({
    method: 'PUT',
    url: `/staff/stores/${PAGE}/chat-moderation`,
    headers: moderator.headers,
    payload: { blockedWords: [], blockedWordAction: 'hold', banByAddress },
  });
  expect(answer.statusCode, answer.body).toBe(200);
  expect(answer.json()).toMatchObject({ banByAddress });
}

describe('a ban covers the device', () => {
  it('refuses a new anonymous account from the banned browser: comments, reactions, entries', async () => {
    const browser = { device: 'troll-browser-0001', address: '203.0.113.41' };
    const troll = await signIn();
    expect((await comment(troll, browser, 'buy my stuff')).statusCode).toBe(200);
    await ban(troll.user.uid);

    // Evasion: a new anonymous account in the same browser, even from another network.
    const again = await signIn();
    const elsewhere = { device: browser.device, address: '198.51.100.41' };
    const refused = await comment(again, elsewhere, 'I am back');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'banned', message: BANNED_FROM_CHAT });
    const reaction = await react(again, elsewhere);
    expect(reaction.statusCode).toBe(403);
    expect(reaction.json()).toMatchObject({ error: 'banned', message: BANNED_FROM_TAKING_PART });
    expect((await enter(again, elsewhere)).statusCode).toBe(403);
    // The banned account itself cannot react or enter either.
    expect((await react(troll, browser)).statusCode).toBe(403);
    expect((await enter(troll, browser)).statusCode).toBe(403);

    // Someone else on the troll's network, with the store not banning by address, takes part.
    const neighbour = await signIn();
    const nextDoor = { device: 'neighbour-browser-02', address: browser.address };
    expect((await comment(neighbour, nextDoor, 'Lovely colours')).statusCode).toBe(200);
    expect((await react(neighbour, nextDoor)).statusCode).toBe(200);
    expect((await enter(neighbour, nextDoor)).statusCode).toBe(200);

    // Unbanned: the browser may take part again.
    const lifted = await app().server.inject({
      method: 'DELETE',
      url: `/staff/stores/${PAGE}/chat-bans/${troll.user.uid}`,
      headers: moderator.headers,
    });
    expect(lifted.statusCode).toBe(204);
    expect((await comment(again, elsewhere, 'Sorry')).statusCode).toBe(200);
  });
});

describe('a ban covers the address when the store says so', () => {
  it('refuses a new account from a new browser on the banned address, and keeps no address in clear', async () => {
    await setBanByAddress(true);
    const browser = { device: 'troll-browser-0003', address: '203.0.113.43' };
    const troll = await signIn();
    expect((await comment(troll, browser, 'spam spam')).statusCode).toBe(200);
    await ban(troll.user.uid);

    // Evasion: cleared storage (a new viewer id) and a new anonymous account, same network.
    const again = await signIn();
    const fresh = { device: 'fresh-browser-00004', address: browser.address };
    expect((await comment(again, fresh, 'hello again')).statusCode).toBe(403);
    expect((await react(again, fresh)).statusCode).toBe(403);
    expect((await enter(again, fresh)).statusCode).toBe(403);
    // From another network with a new browser they are someone else.
    const away = { device: 'other-browser-00005', address: '198.51.100.43' };
    expect((await comment(again, away, 'hello')).statusCode).toBe(200);

    // A day later the address is someone else's.
    clock.now += 25 * 60 * 60_000;
    const later = await signIn();
    expect(
      (await comment(later, { device: 'later-browser-0006', address: browser.address }, 'hi')).statusCode,
    ).toBe(200);

    const marks = await app().db.query<{ mark: string }>(
      `SELECT mark FROM chat_viewer_marks UNION ALL SELECT mark FROM chat_ban_marks`,
    );
    expect(marks.length).toBeGreaterThan(0);
    expect(marks.some((row) => row.mark.includes('203.0.113'))).toBe(false);
    moderator = await signInStaff(app(), PAGE, 'moderator'); // the day outlived the id token
    await setBanByAddress(false);
  });
});
