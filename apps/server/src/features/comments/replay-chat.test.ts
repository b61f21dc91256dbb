import { type AuthSession, BulkCommentsDoc } from '@vitrine/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  interactionTestApp,
  LIVE_SHOW,
  LIVE_SHOW_STUDIO,
  PAGE,
} from '../../test-support/interaction-fixture.ts';
import { signInStaff, type TestStaffMember } from '../../test-support/studio-staff.ts';
import { commentLiveQueries } from './live-queries.ts';

// After End the replay replays the show's own chat in step with the video (issue 16 "Done
// when"): the bulk comments a recording's player reads are the show's chat as viewers last saw it.

const START = Date.UTC(2025, 4, 2, 19, 0, 0);
const { app, clock, commentOnLive, signIn, adminOk } = interactionTestApp(START);
let moderator: TestStaffMember;

beforeAll(async () => {
  moderator = await signInStaff(app(), PAGE, 'moderator');
});

async function comment(viewer: AuthSession, text: string, extra: object = {}) {
  clock.now += 1000;
  return commentOnLive(viewer.idToken, text, extra);
}

async function staff(method: 'POST' | 'PUT', url: string, payload: object) {
  clock.now += 11_000;
  const response = await app().server.inject({ method, url, headers: { ...moderator.headers }, payload });
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response.json();
}

async function replayChat() {
  const docs = await commentLiveQueries(app().db, () => clock.now).bulkComments.snapshot(LIVE_SHOW);
  return docs.map((entry) => BulkCommentsDoc.parse(entry.doc));
}

describe("the replay's chat", () => {
  it('is the show’s public chat in time order, with replies, without what moderators removed', async () => {
    const viola = await signIn();
    const troll = await signIn();
    const asks = await comment(viola, 'Is the mug dishwasher safe?');
    const rude = await comment(viola, 'rude words');
    await comment(troll, 'Buy followers at my site');
    const thanks = await comment(viola, 'Thanks, ordered!');
    await comment(viola, 'Me too', { threadId: asks.uid });

    const hidden = await staff('POST', `${LIVE_SHOW_STUDIO}/moderation/comments/${rude.uid}`, {
      action: 'hide',
      version: 0,
    });
    expect(hidden).toMatchObject({ state: 'hidden' });
    await staff('POST', `/staff/stores/${PAGE}/chat-bans`, { userUid: troll.user.uid });
    await staff('POST', `${LIVE_SHOW_STUDIO}/moderation/comments/${asks.uid}/answer`, {
      text: 'Yes, fully.',
      private: false,
      version: 0,
    });
    await staff('POST', `${LIVE_SHOW_STUDIO}/moderation/comments/${thanks.uid}/answer`, {
      text: 'Private thanks',
      private: true,
      version: 0,
    });

    const [doc] = await replayChat();
    expect(doc?.questions.map((question) => question.question)).toEqual([
      'Is the mug dishwasher safe?',
      'Thanks, ordered!',
    ]);
    const [first, second] = doc?.questions ?? [];
    expect(first).toMatchObject({ commentUid: asks.uid, time: asks.time, customerId: viola.user.uid });
    expect(first?.replies).toEqual([
      expect.objectContaining({ text: 'Me too' }),
      expect.objectContaining({ text: 'Yes, fully.' }),
    ]);
    expect(second?.replies).toEqual([]);
  });

  it('is the uploaded questions when the host put some', async () => {
    clock.now += 1000;
    await adminOk('PUT', `${LIVE_SHOW_STUDIO}/bulk-comments`, {
      questions: [{ commentUid: 'ig-1', question: 'From Instagram: colours?', time: clock.now }],
    });
    const [doc] = await replayChat();
    expect(doc?.questions.map((question) => question.question)).toEqual(['From Instagram: colours?']);
  });
});
