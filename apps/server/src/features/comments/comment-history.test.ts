import { COMMENT_HISTORY_LIMIT, COMMENT_HISTORY_MS } from '@vitrine/domain';
import { type AuthSession, CommentDoc } from '@vitrine/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { CAMPAIGNS, interactionTestApp, PAGE } from '../../test-support/interaction-fixture.ts';

// Spec §7 "Realtime reads": the chat a viewer opens holds the public comments of the last 120
// minutes, at most 100, newest first (spec §9 "Comment history"); new ones follow on the topic.

const START = Date.UTC(2025, 4, 2, 19, 0, 0);
const { app, clock, post, signIn } = interactionTestApp(START);
let viewer: AuthSession;

beforeAll(async () => {
  viewer = await signIn();
});

async function commentIn(campaignUid: string, text: string): Promise<CommentDoc> {
  const response = await post(
    '/shopapiv2/comment/playerComment',
    { pageUid: PAGE, campaignUid, text },
    viewer.idToken,
  );
  expect(response.statusCode, response.body).toBe(200);
  return CommentDoc.parse(response.json());
}

/** The uids of the chat a viewer opening the campaign's show now gets, in its order. */
async function openedChat(campaignUid: string): Promise<string[]> {
  const entries = await app().services.liveQueries.comments.snapshot({ pageUid: PAGE, campaignUid });
  return entries.map((entry) => CommentDoc.parse(entry.doc).uid);
}

describe('the chat a viewer opens', () => {
  it('holds the comments of the last 120 minutes: one exactly that old stays, an older one is gone', async () => {
    const first = await commentIn(CAMPAIGNS.live, 'first!');
    clock.now += 1;
    const second = await commentIn(CAMPAIGNS.live, 'second');
    expect(await openedChat(CAMPAIGNS.live)).toEqual([second.uid, first.uid]);
    clock.now += COMMENT_HISTORY_MS;
    // `second` is now exactly 120 minutes old, `first` 1 ms older.
    expect(await openedChat(CAMPAIGNS.live)).toEqual([second.uid]);
    clock.now += 1;
    expect(await openedChat(CAMPAIGNS.live)).toEqual([]);
  });

  it('holds at most 100 comments, newest first: the oldest of 101 is left out', async () => {
    viewer = await signIn(); // the clock moved past the last one's id token
    const written: string[] = [];
    for (let index = 0; index <= COMMENT_HISTORY_LIMIT; index++) {
      clock.now += 1000;
      written.push((await commentIn(CAMPAIGNS.planned, `comment ${index}`)).uid);
    }
    const chat = await openedChat(CAMPAIGNS.planned);
    expect(chat).toHaveLength(COMMENT_HISTORY_LIMIT);
    expect(chat).toEqual(written.slice(1).reverse());
  });
});
