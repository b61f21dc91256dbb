import {
  BulkCommentsDoc,
  CommentDoc,
  CommentReply,
  NotificationDoc,
  RateLimitedError,
} from '@vitrine/protocol';
import { describe, expect, it } from 'vitest';
import {
  CAMPAIGNS,
  interactionTestApp,
  LIVE_SHOW,
  LIVE_SHOW_STUDIO,
  PAGE,
  studioShowPath,
} from '../../test-support/interaction-fixture.ts';
import { signInStaff } from '../../test-support/studio-staff.ts';
import { commentTopics } from './comment-records.ts';

const START = Date.UTC(2025, 4, 2, 19, 0, 0);
// The comment limit is on here (the shared test servers switch it off).
const { app, clock, admin, adminOk, post, commentOnLive, signIn, record } = interactionTestApp(START, {
  VITRINE_COMMENT_RATE_LIMIT: '5/10',
});

/** The live show in the studio, where the store (the admin key as its owner here) answers and verifies. */
const moderated = (commentUid: string) => `${LIVE_SHOW_STUDIO}/moderation/comments/${commentUid}`;

/** The store's answer to a fresh comment (moderation version 0), publicly or only to its author. */
const answer = (commentUid: string, text: string, isPrivate: boolean) =>
  admin('POST', `${moderated(commentUid)}/answer`, { text, private: isPrivate, version: 0 });

/** Moves the clock past the comment rate window, so each test starts with a fresh allowance. */
const nextWindow = () => {
  clock.now += 11_000;
};

describe('POST /shopapiv2/comment/playerComment', () => {
  it('stores the text as text and publishes it to the chat and the author', async () => {
    nextWindow();
    const viewer = await signIn();
    const chat = await record(commentTopics.publicComments(PAGE, CAMPAIGNS.live));
    const own = await record(commentTopics.userComments(PAGE, CAMPAIGNS.live, viewer.user.uid));
    const xss = '<img src=x onerror="alert(1)"> & <script>alert(2)</script>';
    const doc = await commentOnLive(viewer.idToken, `  ${xss}  `);
    expect(doc).toMatchObject({
      text: xss,
      public: true,
      private: false,
      verified: false,
      threadId: null,
      replies: [],
      user: { uid: viewer.user.uid, name: '' },
      time: clock.now,
    });
    expect(chat.changes).toEqual([{ type: 'added', docId: doc.uid, doc }]);
    expect(own.changes).toEqual([{ type: 'added', docId: doc.uid, doc }]);
    await chat.stop();
    await own.stop();
  });

  it('keeps the request shape of the first version (threadId and context optional)', async () => {
    nextWindow();
    const viewer = await signIn();
    const response = await post(
      '/shopapiv2/comment/playerComment',
      { ...LIVE_SHOW, text: 'hi', threadId: null, context: 'on_site' },
      viewer.idToken,
    );
    expect(response.statusCode).toBe(200);
  });

  it('follows the show status: vod never, planned and live by the page settings (allowed by default)', async () => {
    nextWindow();
    const viewer = await signIn();
    const planned = await post(
      '/shopapiv2/comment/playerComment',
      { pageUid: PAGE, campaignUid: CAMPAIGNS.planned, text: 'soon?' },
      viewer.idToken,
    );
    expect(planned.statusCode).toBe(200);
    const vod = await post(
      '/shopapiv2/comment/playerComment',
      { pageUid: PAGE, campaignUid: CAMPAIGNS.vod, text: 'late' },
      viewer.idToken,
    );
    expect(vod.statusCode).toBe(403);
    expect(vod.json()).toEqual({
      error: 'comments_closed',
      message: 'Comments are closed: this is a recorded show.',
    });
    const closed = await post(
      '/shopapiv2/comment/playerComment',
      { pageUid: `${PAGE}-quiet`, campaignUid: CAMPAIGNS.liveClosed, text: 'hello?' },
      viewer.idToken,
    );
    expect(closed.statusCode).toBe(403);
    expect(closed.json()).toEqual({
      error: 'comments_closed',
      message: 'Comments are turned off for this show.',
    });
    const unknown = await post(
      '/shopapiv2/comment/playerComment',
      { pageUid: PAGE, campaignUid: 'nope', text: 'x' },
      viewer.idToken,
    );
    expect(unknown.statusCode).toBe(404);
  });

  it('limits each user to 5 comments per 10 s with a clear 429', async () => {
    nextWindow();
    const viewer = await signIn();
    const other = await signIn();
    for (let i = 0; i < 5; i++) await commentOnLive(viewer.idToken, `message ${i}`);
    clock.now += 4_000;
    const limited = await post(
      '/shopapiv2/comment/playerComment',
      { ...LIVE_SHOW, text: 'one more' },
      viewer.idToken,
    );
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('6');
    expect(RateLimitedError.parse(limited.json())).toEqual({
      error: 'rate_limited',
      message: 'You are commenting too fast. Please wait 6 seconds before commenting again.',
      retryAfterMs: 6_000,
    });
    // Another viewer is not affected; after the window the first may post again.
    await commentOnLive(other.idToken, 'me too');
    clock.now += 6_000;
    await commentOnLive(viewer.idToken, 'back again');
  });

  it('rejects malformed comments with 400 and anonymous callers with 401', async () => {
    nextWindow();
    const viewer = await signIn();
    const cases: Array<[object, string]> = [
      [{ ...LIVE_SHOW, text: '   ' }, 'text: must not be empty'],
      [{ ...LIVE_SHOW, text: 'x'.repeat(501) }, 'text: must be at most 500 characters'],
      [{ ...LIVE_SHOW, text: 42 }, 'text: Invalid input: expected string, received number'],
      [
        { ...LIVE_SHOW, text: 'x', pageUid: '../etc' },
        'pageUid: may contain only letters, digits, "-" and "_"',
      ],
      [{ ...LIVE_SHOW, text: 'x', html: true }, 'Unrecognized key: "html"'],
    ];
    for (const [payload, message] of cases) {
      const response = await post('/shopapiv2/comment/playerComment', payload, viewer.idToken);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json()).toEqual({ error: 'invalid_request', message });
    }
    expect((await post('/shopapiv2/comment/playerComment', { ...LIVE_SHOW, text: 'x' })).statusCode).toBe(
      401,
    );
  });
});

describe('replies, edits and the verified flag', () => {
  it('a reply names its parent in threadId, travels alone and is summarised in the stored parent', async () => {
    nextWindow();
    const asker = await signIn();
    const answerer = await signIn();
    const question = await commentOnLive(asker.idToken, 'Does it come in blue?');
    const chat = await record(commentTopics.publicComments(PAGE, CAMPAIGNS.live));
    const askerTopic = await record(commentTopics.userComments(PAGE, CAMPAIGNS.live, asker.user.uid));
    const reply = await commentOnLive(answerer.idToken, 'It does!', { threadId: question.uid });
    expect(reply.threadId).toBe(question.uid);
    // Only the reply goes out (its size, not its thread's): viewers put it under its parent.
    expect(chat.changes.map((change) => [change.type, change.docId])).toEqual([['added', reply.uid]]);
    expect(askerTopic.changes).toEqual([]);
    // The stored parent (what a snapshot sends) summarises it.
    const [stored] = await app().db.query<{ replies: unknown[] }>(
      'SELECT replies FROM comments WHERE uid = $1',
      [question.uid],
    );
    expect((stored?.replies ?? []).map((entry) => CommentReply.parse(entry))).toEqual([
      { uid: reply.uid, text: 'It does!', time: reply.time, user: reply.user, public: true, verified: false },
    ]);
    await chat.stop();
    await askerTopic.stop();

    // The author edits the reply; the parent's summary follows.
    const editChat = await record(commentTopics.publicComments(PAGE, CAMPAIGNS.live));
    const edit = await post(
      '/shopapiv2/comment/editComment',
      { ...LIVE_SHOW, commentUid: reply.uid, text: 'It does, in navy.' },
      answerer.idToken,
    );
    expect(edit.statusCode, edit.body).toBe(200);
    expect(CommentDoc.parse(edit.json())).toMatchObject({ text: 'It does, in navy.', editedAt: clock.now });
    const parentAfterEdit = CommentDoc.parse(
      editChat.changes.find((change) => change.docId === question.uid)?.doc,
    );
    expect((parentAfterEdit.replies[0] as CommentReply).text).toBe('It does, in navy.');
    await editChat.stop();

    const foreign = await post(
      '/shopapiv2/comment/editComment',
      { ...LIVE_SHOW, commentUid: question.uid, text: 'hacked' },
      answerer.idToken,
    );
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toEqual({ error: 'forbidden', message: 'You can only edit your own comments.' });
    const missing = await post(
      '/shopapiv2/comment/editComment',
      { ...LIVE_SHOW, commentUid: 'nope', text: 'x' },
      answerer.idToken,
    );
    expect(missing.statusCode).toBe(404);
    const bad = await post(
      '/shopapiv2/comment/editComment',
      { ...LIVE_SHOW, commentUid: reply.uid, text: '' },
      answerer.idToken,
    );
    expect(bad.statusCode).toBe(400);
  });

  it('the store marks a comment verified: moderators may, viewers may not', async () => {
    nextWindow();
    const viewer = await signIn();
    const doc = await commentOnLive(viewer.idToken, 'Verified buyer here');
    const chat = await record(commentTopics.publicComments(PAGE, CAMPAIGNS.live));
    const url = `${moderated(doc.uid)}/verified`;
    const verified = CommentDoc.parse(await adminOk('PUT', url, { verified: true }));
    expect(verified.verified).toBe(true);
    expect(chat.changes).toEqual([{ type: 'modified', docId: doc.uid, doc: verified }]);
    await chat.stop();
    const moderator = await signInStaff(app(), PAGE, 'moderator');
    const unverified = await app().server.inject({
      method: 'PUT',
      url,
      headers: moderator.headers,
      payload: { verified: false },
    });
    expect(unverified.statusCode, unverified.body).toBe(200);
    expect(CommentDoc.parse(unverified.json()).verified).toBe(false);
    const unauthorised = await app().server.inject({ method: 'PUT', url, payload: { verified: true } });
    expect(unauthorised.statusCode).toBe(401);
    const viewerTry = await app().server.inject({
      method: 'PUT',
      url,
      headers: { authorization: `Bearer ${viewer.idToken}` },
      payload: { verified: true },
    });
    expect(viewerTry.statusCode).toBe(403);
    expect((await admin('PUT', url, {})).statusCode).toBe(400);
    expect((await admin('PUT', `${moderated('nope')}/verified`, { verified: true })).statusCode).toBe(404);
  });
});

describe('private host replies', () => {
  it('reach only their recipient, as a comment in userComments and a host-reply notification', async () => {
    nextWindow();
    const asker = await signIn();
    const bystander = await signIn();
    const question = await commentOnLive(asker.idToken, 'Where is my order?');
    const chat = await record(commentTopics.publicComments(PAGE, CAMPAIGNS.live));
    const askerComments = await record(commentTopics.userComments(PAGE, CAMPAIGNS.live, asker.user.uid));
    const bystanderComments = await record(
      commentTopics.userComments(PAGE, CAMPAIGNS.live, bystander.user.uid),
    );
    const askerNotifications = await record(`notifications:${asker.user.uid}`);
    const bystanderNotifications = await record(`notifications:${bystander.user.uid}`);

    const answered = await answer(question.uid, 'Sent today!', true);
    expect(answered.statusCode, answered.body).toBe(200);
    expect(answered.json()).toMatchObject({
      uid: question.uid,
      question: 'answered',
      answeredHow: 'private',
    });
    expect(askerComments.changes.map((change) => change.type)).toEqual(['added']);
    const reply = CommentDoc.parse(askerComments.changes[0]?.doc);
    expect(reply).toMatchObject({
      public: false,
      private: true,
      verified: true,
      threadId: question.uid,
      source: 'host',
    });
    expect(reply.user.name).toBe(`Shop ${PAGE}`);

    expect(chat.changes).toEqual([]);
    expect(bystanderComments.changes).toEqual([]);
    expect(bystanderNotifications.changes).toEqual([]);
    expect(askerComments.changes[0]?.docId).toBe(reply.uid);
    const notification = NotificationDoc.parse(askerNotifications.changes[0]?.doc);
    expect(notification).toMatchObject({
      notificationType: 'message',
      notificationSubType: 'host reply',
      notificationData: { title: `Shop ${PAGE}`, body: 'Sent today!', uid: reply.uid },
      threadId: question.uid,
      campaignUid: CAMPAIGNS.live,
      created: clock.now,
    });
    for (const topic of [chat, askerComments, bystanderComments, askerNotifications, bystanderNotifications])
      await topic.stop();

    // Stored so that only the recipient's userComments query returns it.
    const rows = await app().db.query('SELECT is_public, recipient_uid FROM comments WHERE uid = $1', [
      reply.uid,
    ]);
    expect(rows).toEqual([{ is_public: false, recipient_uid: asker.user.uid }]);
    // The public parent does not list the private reply.
    const [parent] = await app().db.query<{ replies: unknown[] }>(
      'SELECT replies FROM comments WHERE uid = $1',
      [question.uid],
    );
    expect(parent?.replies).toEqual([]);

    // The recipient answers in the private thread: it stays between them and the host.
    nextWindow();
    const chatAgain = await record(commentTopics.publicComments(PAGE, CAMPAIGNS.live));
    const thanks = await commentOnLive(asker.idToken, 'Thank you!', { threadId: reply.uid });
    expect(thanks).toMatchObject({ public: false, private: true, threadId: reply.uid });
    expect(chatAgain.changes).toEqual([]);
    await chatAgain.stop();
    const [stored] = await app().db.query('SELECT recipient_uid FROM comments WHERE uid = $1', [thanks.uid]);
    expect(stored).toEqual({ recipient_uid: reply.user.uid });
    // Anyone else gets no sign that the private comment exists.
    const intruder = await post(
      '/shopapiv2/comment/playerComment',
      { ...LIVE_SHOW, text: 'me?', threadId: reply.uid },
      bystander.idToken,
    );
    expect(intruder.statusCode).toBe(404);
    expect(intruder.json().message).toBe(`No comment "${reply.uid}".`);

    // The store's staff read everything, private included; a viewer reads none of it.
    const hostView = await adminOk('GET', `${LIVE_SHOW_STUDIO}/comments?limit=500`);
    const uids = hostView.comments.map((doc: { uid: string }) => doc.uid);
    expect(uids).toEqual(expect.arrayContaining([question.uid, reply.uid, thanks.uid]));
    expect((await admin('GET', `${LIVE_SHOW_STUDIO}/comments?limit=0`)).statusCode).toBe(400);
    const noKey = await app().server.inject({ method: 'GET', url: `${LIVE_SHOW_STUDIO}/comments` });
    expect(noKey.statusCode).toBe(401);
    const asViewer = await app().server.inject({
      method: 'GET',
      url: `${LIVE_SHOW_STUDIO}/comments`,
      headers: { authorization: `Bearer ${asker.idToken}` },
    });
    expect(asViewer.statusCode).toBe(403);
  });

  it('a public host reply joins the chat as its own change, and the stored parent', async () => {
    nextWindow();
    const asker = await signIn();
    const question = await commentOnLive(asker.idToken, 'Is shipping free?');
    const chat = await record(commentTopics.publicComments(PAGE, CAMPAIGNS.live));
    expect((await answer(question.uid, 'Yes, over 500 kr.', false)).statusCode).toBe(200);
    const added = chat.changes.filter((change) => change.type === 'added');
    expect(added).toHaveLength(1);
    const reply = CommentDoc.parse(added[0]?.doc);
    expect(reply).toMatchObject({ text: 'Yes, over 500 kr.', threadId: question.uid, verified: true });
    expect(reply.user.name).toBe(`Shop ${PAGE}`);
    await chat.stop();
    const [stored] = await app().db.query<{ replies: Array<{ uid: string }> }>(
      'SELECT replies FROM comments WHERE uid = $1',
      [question.uid],
    );
    expect(stored?.replies.map((entry) => entry.uid)).toEqual([reply.uid]);
    expect((await answer('nope', 'x', false)).statusCode).toBe(404);
    expect((await answer(question.uid, '', false)).statusCode).toBe(400);
  });
});

describe('bulk comments', () => {
  it("the host replaces a show's bulk comments; viewers get the document", async () => {
    const topic = await record(commentTopics.bulkComments(PAGE, CAMPAIGNS.vod));
    const url = `${studioShowPath(CAMPAIGNS.vod)}/bulk-comments`;
    const doc = BulkCommentsDoc.parse(
      await adminOk('PUT', url, {
        questions: [
          { commentUid: 'q1', question: 'How long is the cable?', time: START - 60_000, customerName: 'Ole' },
        ],
      }),
    );
    expect(doc.questions).toEqual([
      {
        commentUid: 'q1',
        question: 'How long is the cable?',
        time: START - 60_000,
        source: 'external',
        customerId: '',
        customerName: 'Ole',
        replies: [],
      },
    ]);
    expect(topic.changes).toEqual([{ type: 'modified', docId: CAMPAIGNS.vod, doc }]);
    await topic.stop();
    expect(
      (await admin('PUT', url, { questions: [{ commentUid: 'q1', question: '', time: 1 }] })).json().message,
    ).toBe('questions.0.question: must not be empty');
    expect((await admin('PUT', url, { questions: 'all' })).statusCode).toBe(400);
    expect(
      (await admin('PUT', `/staff/stores/${PAGE}/shows/nope/bulk-comments`, { questions: [] })).statusCode,
    ).toBe(404);
    const anonymous = await app().server.inject({ method: 'PUT', url, payload: { questions: [] } });
    expect(anonymous.statusCode).toBe(401);
    // Hosts and owners prepare a show; a moderator or a viewer may not.
    const viewer = await signIn();
    const moderator = await signInStaff(app(), PAGE, 'moderator');
    const host = await signInStaff(app(), PAGE, 'host');
    const as = (headers: { authorization: string }) =>
      app().server.inject({ method: 'PUT', url, headers, payload: { questions: [] } });
    expect((await as({ authorization: `Bearer ${viewer.idToken}` })).statusCode).toBe(403);
    expect((await as(moderator.headers)).statusCode).toBe(403);
    expect((await as(host.headers)).statusCode).toBe(200);
  });
});
