import {
  type AuthSession,
  ChatBan,
  CommentDoc,
  ModeratedComment,
  ModerationBoard,
  ShowChatState,
} from '@vitrine/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { CAMPAIGNS, interactionTestApp, LIVE_SHOW, PAGE } from '../../test-support/interaction-fixture.ts';
import { createTestStore, signInStaff, type TestStaffMember } from '../../test-support/studio-staff.ts';
import { adminHeaders } from '../../test-support/test-app.ts';
import { commentTopics } from './comment-records.ts';
import { BANNED_FROM_CHAT } from './comment-service.ts';
import { moderationTopics } from './moderation-records.ts';
import { CANNOT_BAN_SELF, CANNOT_BAN_STAFF } from './moderation-service.ts';

const START = Date.UTC(2025, 4, 2, 19, 0, 0);
const { app, clock, post, commentOnLive, signIn, record } = interactionTestApp(START, {
  VITRINE_MODERATION_RATE_LIMIT: '60/10',
});
const SHOW = `ev-${CAMPAIGNS.live}`;
const SHOW_PATH = `/staff/stores/${PAGE}/shows/${SHOW}`;
let moderator: TestStaffMember;
let secondModerator: TestStaffMember;
let host: TestStaffMember;

beforeAll(async () => {
  moderator = await signInStaff(app(), PAGE, 'moderator');
  secondModerator = await signInStaff(app(), PAGE, 'moderator');
  host = await signInStaff(app(), PAGE, 'host');
});

/** A fresh moderation-rate window per step: the flood test is the only one meant to hit it. */
const tick = (ms = 11_000) => {
  clock.now += ms;
};

const comment = (viewer: AuthSession, text: string, extra?: object) =>
  commentOnLive(viewer.idToken, text, extra);

function staffCall(
  member: { headers: object } | null,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
) {
  return app().server.inject({
    method,
    url,
    headers: member ? { ...member.headers } : adminHeaders,
    ...(payload ? { payload } : {}),
  });
}

async function moderate(member: TestStaffMember, commentUid: string, action: string, version: number) {
  return staffCall(member, 'POST', `${SHOW_PATH}/moderation/comments/${commentUid}`, { action, version });
}

async function board(member: TestStaffMember = moderator) {
  const response = await staffCall(member, 'GET', `${SHOW_PATH}/moderation`);
  expect(response.statusCode, response.body).toBe(200);
  return ModerationBoard.parse(response.json());
}

const viewersSee = async () =>
  (await app().services.liveQueries.comments.snapshot(LIVE_SHOW)).map((entry) => entry.docId);

describe('hiding and unhiding', () => {
  it('takes a comment out of every viewer’s chat at once and shows moderators who did it', async () => {
    tick();
    const viewer = await signIn();
    const doc = await comment(viewer, 'Rude words here');
    expect(await viewersSee()).toContain(doc.uid);
    const chat = await record(commentTopics.publicComments(PAGE, CAMPAIGNS.live));

    const hidden = await moderate(moderator, doc.uid, 'hide', 0);
    expect(hidden.statusCode, hidden.body).toBe(200);
    const hiddenComment = ModeratedComment.parse(hidden.json());
    expect(hiddenComment).toMatchObject({ state: 'hidden', version: 1 });
    expect(hiddenComment.moderatedBy).toMatch(/^Staff /);
    expect(chat.changes).toEqual([{ type: 'removed', docId: doc.uid, doc: null }]);
    expect(await viewersSee()).not.toContain(doc.uid);

    const seen = await board(secondModerator);
    expect(seen.comments.find((entry) => entry.uid === doc.uid)).toMatchObject({
      state: 'hidden',
      moderatedBy: hiddenComment.moderatedBy,
    });
    expect(seen.log[0]).toMatchObject({
      action: 'hide',
      commentUid: doc.uid,
      actor: hiddenComment.moderatedBy,
    });

    const unhidden = await moderate(moderator, doc.uid, 'unhide', 1);
    expect(unhidden.statusCode, unhidden.body).toBe(200);
    expect(chat.changes.at(-1)).toMatchObject({ type: 'added', docId: doc.uid });
    expect(await viewersSee()).toContain(doc.uid);
    chat.stop();
  });

  it('removes a hidden reply from its parent’s summary of replies too', async () => {
    tick();
    const asker = await signIn();
    const replier = await signIn();
    const parent = await comment(asker, 'Nice jacket');
    const reply = await comment(replier, 'Spam reply', { threadId: parent.uid });
    const chat = await record(commentTopics.publicComments(PAGE, CAMPAIGNS.live));
    expect((await moderate(moderator, reply.uid, 'hide', 0)).statusCode).toBe(200);
    const parentChange = chat.changes.find((change) => change.docId === parent.uid);
    expect(CommentDoc.parse(parentChange?.doc).replies).toEqual([]);
    chat.stop();
  });
});

describe('two staff on one comment', () => {
  it('refuses a stale action with 409 naming what the other did', async () => {
    tick();
    const viewer = await signIn();
    const doc = await comment(viewer, 'What sizes are there?');
    expect((await moderate(moderator, doc.uid, 'hide', 0)).statusCode).toBe(200);
    // The second moderator still sees version 0 and answers it.
    const answer = await staffCall(
      secondModerator,
      'POST',
      `${SHOW_PATH}/moderation/comments/${doc.uid}/answer`,
      {
        text: 'S to XL',
        private: false,
        version: 0,
      },
    );
    expect(answer.statusCode, answer.body).toBe(409);
    expect(answer.json()).toMatchObject({ error: 'moderation_conflict' });
    expect(answer.json().message).toMatch(/now hidden by Staff \d+/);
    // With the current version it is still refused: a hidden comment is not answered.
    const again = await staffCall(
      secondModerator,
      'POST',
      `${SHOW_PATH}/moderation/comments/${doc.uid}/answer`,
      {
        text: 'S to XL',
        private: false,
        version: 1,
      },
    );
    expect(again.statusCode, again.body).toBe(409);
    expect(again.json().message).toMatch(/hidden .*unhide it before answering/);
  });
});

describe('questions', () => {
  it('takes a signed-in shopper’s private question to the host into the queue, never into the chat (issue 27)', async () => {
    tick();
    const anonymous = await signIn();
    // An anonymous viewer has no account the host could answer: asked to sign in.
    const refused = await post(
      '/shopapiv2/comment/playerComment',
      { ...LIVE_SHOW, text: 'Does it come in blue?', toHost: true },
      anonymous.idToken,
    );
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'account_required' });

    const signedUp = await post(
      '/functions/auth/signUp',
      { email: `asker-${clock.now}@example.com`, password: 'correct horse battery', name: 'Asker' },
      anonymous.idToken,
    );
    expect(signedUp.statusCode, signedUp.body).toBe(200);
    const shopper = signedUp.json() as AuthSession;
    const chat = await record(commentTopics.publicComments(PAGE, CAMPAIGNS.live));
    // No question mark needed: a private line to the host is a question by its nature.
    const asked = await comment(shopper, 'My size is between two, which one', { toHost: true });
    expect(asked).toMatchObject({ public: false, threadId: null });
    expect(chat.changes).toEqual([]);
    await chat.stop();
    const seen = await board(host);
    expect(seen.questions.find((entry) => entry.uid === asked.uid)).toMatchObject({ question: 'open' });
    // A private question is never an answer inside someone's thread.
    const threaded = await post(
      '/shopapiv2/comment/playerComment',
      { ...LIVE_SHOW, text: 'and also?', toHost: true, threadId: asked.uid },
      shopper.idToken,
    );
    expect(threaded.statusCode).toBe(400);
  });

  it('queues a comment that asks something, and a public answer reaches the chat with who answered', async () => {
    tick();
    const viewer = await signIn();
    const question = await comment(viewer, 'Is it waterproof?');
    const statement = await comment(viewer, 'I like it');
    let seen = await board();
    expect(seen.questions.map((entry) => entry.uid)).toContain(question.uid);
    expect(seen.questions.map((entry) => entry.uid)).not.toContain(statement.uid);

    const flagged = await moderate(moderator, statement.uid, 'flagQuestion', 0);
    expect(ModeratedComment.parse(flagged.json())).toMatchObject({ question: 'open' });

    const chat = await record(commentTopics.publicComments(PAGE, CAMPAIGNS.live));
    const answered = await staffCall(
      host,
      'POST',
      `${SHOW_PATH}/moderation/comments/${question.uid}/answer`,
      {
        text: 'Yes, fully.',
        private: false,
        version: 0,
      },
    );
    expect(answered.statusCode, answered.body).toBe(200);
    expect(ModeratedComment.parse(answered.json())).toMatchObject({
      question: 'answered',
      answeredHow: 'public',
    });
    const reply = chat.changes.find((change) => change.type === 'added');
    expect(CommentDoc.parse(reply?.doc)).toMatchObject({
      text: 'Yes, fully.',
      threadId: question.uid,
      public: true,
    });

    const privately = await staffCall(
      host,
      'POST',
      `${SHOW_PATH}/moderation/comments/${statement.uid}/answer`,
      {
        text: 'Thanks!',
        private: true,
        version: 1,
      },
    );
    expect(privately.statusCode, privately.body).toBe(200);
    seen = await board();
    expect(seen.questions.find((entry) => entry.uid === statement.uid)).toMatchObject({
      question: 'answered',
      answeredHow: 'private',
    });
    expect(seen.questions.find((entry) => entry.uid === question.uid)?.answeredBy).toMatch(/^Staff /);
    chat.stop();
  });
});

describe('bans', () => {
  it('removes the viewer’s comments for everyone, refuses their comments with a clear message, and lifts', async () => {
    tick();
    const troll = await signIn();
    const first = await comment(troll, 'first');
    const second = await comment(troll, 'second');
    const chat = await record(commentTopics.publicComments(PAGE, CAMPAIGNS.live));
    const standing = await record(moderationTopics.chatStanding(PAGE, troll.user.uid));

    const banned = await staffCall(moderator, 'POST', `/staff/stores/${PAGE}/chat-bans`, {
      userUid: troll.user.uid,
      reason: 'spam',
    });
    expect(banned.statusCode, banned.body).toBe(201);
    expect(ChatBan.parse(banned.json())).toMatchObject({ userUid: troll.user.uid, reason: 'spam' });
    expect(
      chat.changes
        .filter((change) => change.type === 'removed')
        .map((change) => change.docId)
        .sort(),
    ).toEqual([first.uid, second.uid].sort());
    expect(standing.changes.at(-1)?.doc).toMatchObject({ banned: true });
    const seen = await viewersSee();
    expect(seen).not.toContain(first.uid);
    expect(seen).not.toContain(second.uid);

    const refused = await post(
      '/shopapiv2/comment/playerComment',
      { ...LIVE_SHOW, text: 'let me in' },
      troll.idToken,
    );
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'banned', message: BANNED_FROM_CHAT });
    expect((await board()).bans.map((ban) => ban.userUid)).toContain(troll.user.uid);

    tick();
    const lifted = await staffCall(moderator, 'DELETE', `/staff/stores/${PAGE}/chat-bans/${troll.user.uid}`);
    expect(lifted.statusCode, lifted.body).toBe(204);
    expect(await viewersSee()).toContain(first.uid);
    expect(standing.changes.at(-1)?.doc).toMatchObject({ banned: false });
    await comment(troll, 'sorry');
    chat.stop();
    standing.stop();
  });

  it('refuses banning oneself or the store’s staff with 422', async () => {
    tick();
    const self = await staffCall(moderator, 'POST', `/staff/stores/${PAGE}/chat-bans`, {
      userUid: moderator.userUid,
    });
    expect(self.statusCode, self.body).toBe(422);
    expect(self.json()).toMatchObject({ error: 'cannot_ban', message: CANNOT_BAN_SELF });
    const staffMember = await staffCall(moderator, 'POST', `/staff/stores/${PAGE}/chat-bans`, {
      userUid: host.userUid,
    });
    expect(staffMember.statusCode, staffMember.body).toBe(422);
    expect(staffMember.json().message).toBe(CANNOT_BAN_STAFF);
    const storeItself = await staffCall(moderator, 'POST', `/staff/stores/${PAGE}/chat-bans`, {
      userUid: `host-${PAGE}`,
    });
    expect(storeItself.statusCode).toBe(422);
  });
});

describe('other stores', () => {
  it('refuses a moderator of another store (403) and a show of another store (404)', async () => {
    tick();
    const otherStore = await createTestStore(app(), 'moderation-other-store');
    const outsider = await signInStaff(app(), otherStore, 'owner');
    const viewer = await signIn();
    const doc = await comment(viewer, 'hello');
    expect((await moderate(outsider, doc.uid, 'hide', 0)).statusCode).toBe(403);
    const ban = await staffCall(outsider, 'POST', `/staff/stores/${PAGE}/chat-bans`, {
      userUid: viewer.user.uid,
    });
    expect(ban.statusCode).toBe(403);
    // Their own store in the path, our show: unknown there.
    const crossShow = await staffCall(
      outsider,
      'POST',
      `/staff/stores/${otherStore}/shows/${SHOW}/moderation/comments/${doc.uid}`,
      { action: 'hide', version: 0 },
    );
    expect(crossShow.statusCode).toBe(404);
    expect(await viewersSee()).toContain(doc.uid);
  });
});

describe('a flood of moderation actions', () => {
  it('is limited per staff member with 429 and retryAfterMs, while viewers keep commenting', async () => {
    tick();
    const viewer = await signIn();
    const doc = await comment(viewer, 'flood target');
    let version = 0;
    let limited: Awaited<ReturnType<typeof moderate>> | null = null;
    for (let i = 0; i < 70 && !limited; i++) {
      const response = await moderate(moderator, doc.uid, version % 2 === 0 ? 'hide' : 'unhide', version);
      if (response.statusCode === 429) limited = response;
      else {
        expect(response.statusCode, response.body).toBe(200);
        version++;
      }
    }
    expect(version).toBe(60);
    expect(limited?.json()).toMatchObject({ error: 'rate_limited' });
    expect(limited?.json().retryAfterMs).toBeGreaterThan(0);
    // Another moderator and the viewers are not slowed by it.
    expect((await moderate(secondModerator, doc.uid, 'hide', version)).statusCode).toBe(200);
    await comment(viewer, 'still here');
  });
});

describe('slow mode, announcements and blocked words', () => {
  it('makes each viewer wait between comments in slow mode', async () => {
    tick();
    const viewer = await signIn();
    const set = await staffCall(moderator, 'PUT', `${SHOW_PATH}/moderation/slow-mode`, { seconds: 30 });
    expect(ShowChatState.parse(set.json())).toMatchObject({ slowModeSeconds: 30 });
    await comment(viewer, 'one');
    clock.now += 10_000;
    const early = await post(
      '/shopapiv2/comment/playerComment',
      { ...LIVE_SHOW, text: 'two' },
      viewer.idToken,
    );
    expect(early.statusCode, early.body).toBe(429);
    expect(early.json()).toMatchObject({ error: 'slow_mode', retryAfterMs: 20_000, slowModeSeconds: 30 });
    clock.now += 20_000;
    await comment(viewer, 'two');
    const tooLong = await staffCall(moderator, 'PUT', `${SHOW_PATH}/moderation/slow-mode`, {
      seconds: 100_000,
    });
    expect(tooLong.statusCode).toBe(400);
    await staffCall(moderator, 'PUT', `${SHOW_PATH}/moderation/slow-mode`, { seconds: 0 });
  });

  it('pins an announcement for viewers as plain text, and unpins it', async () => {
    tick();
    const topic = await record(moderationTopics.showChat(PAGE, CAMPAIGNS.live));
    const text = '<b>Free shipping</b> tonight';
    const pinned = await staffCall(moderator, 'PUT', `${SHOW_PATH}/moderation/announcement`, { text });
    expect(pinned.statusCode, pinned.body).toBe(200);
    expect(topic.changes.at(-1)?.doc).toMatchObject({ announcement: { text, pinnedAt: clock.now } });
    const [snapshot] = await app().services.liveQueries.showChat.snapshot(LIVE_SHOW);
    expect(snapshot?.doc).toMatchObject({ announcement: { text } });
    await staffCall(moderator, 'PUT', `${SHOW_PATH}/moderation/announcement`, { text: null });
    expect(topic.changes.at(-1)?.doc).toMatchObject({ announcement: null });
    topic.stop();
  });

  it('holds a comment with a blocked word for review, or masks it, as the store chose', async () => {
    tick();
    const viewer = await signIn();
    const saved = await staffCall(moderator, 'PUT', `/staff/stores/${PAGE}/chat-moderation`, {
      blockedWords: ['Scam'],
      blockedWordAction: 'hold',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const chat = await record(commentTopics.publicComments(PAGE, CAMPAIGNS.live));
    const held = await comment(viewer, 'This is a SCÁM!');
    expect(held.held).toBe(true);
    expect(chat.changes).toEqual([]);
    expect(await viewersSee()).not.toContain(held.uid);
    const heldOnBoard = (await board()).held.find((entry) => entry.uid === held.uid);
    expect(heldOnBoard).toMatchObject({ state: 'held', version: 0 });
    expect((await moderate(moderator, held.uid, 'approve', 0)).statusCode).toBe(200);
    expect(chat.changes.at(-1)).toMatchObject({ type: 'added', docId: held.uid });

    // A rejected one never reaches the chat, and leaves its author's own list.
    const own = await record(commentTopics.userComments(PAGE, CAMPAIGNS.live, viewer.user.uid));
    const rejected = await comment(viewer, 'another scam');
    expect(own.changes.at(-1)).toMatchObject({ type: 'added', docId: rejected.uid, doc: { held: true } });
    expect((await moderate(moderator, rejected.uid, 'reject', 0)).statusCode).toBe(200);
    expect(own.changes.at(-1)).toEqual({ type: 'removed', docId: rejected.uid, doc: null });
    expect(chat.changes.map((change) => change.docId)).not.toContain(rejected.uid);
    const deleted = await comment(viewer, 'scam again');
    expect((await moderate(moderator, deleted.uid, 'delete', 0)).statusCode).toBe(200);
    expect(own.changes.at(-1)).toEqual({ type: 'removed', docId: deleted.uid, doc: null });
    own.stop();

    await staffCall(moderator, 'PUT', `/staff/stores/${PAGE}/chat-moderation`, {
      blockedWords: ['scam'],
      blockedWordAction: 'mask',
    });
    const masked = await comment(viewer, 'scam alert, not scammy');
    expect(masked.text).toBe('**** alert, not scammy');
    expect((await board()).comments.find((entry) => entry.uid === masked.uid)?.originalText).toBe(
      'scam alert, not scammy',
    );
    await staffCall(moderator, 'PUT', `/staff/stores/${PAGE}/chat-moderation`, {
      blockedWords: [],
      blockedWordAction: 'hold',
    });
    chat.stop();
  });
});
