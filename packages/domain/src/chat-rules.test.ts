import { describe, expect, it } from 'vitest';
import {
  bulkCommentVisible,
  commentsAllowed,
  isPrivateMessageFresh,
  newestComment,
  reactionAllowed,
  unseenCommentCount,
  WINNER_NOTICE_RECHECK_MS,
  winnerNoticeWaitMs,
  winnerNotificationShowAt,
} from './chat-rules.ts';

describe('commentsAllowed', () => {
  it('allows planned and live shows by default and follows the page settings', () => {
    expect(commentsAllowed('planned', {})).toBe(true);
    expect(commentsAllowed('live', {})).toBe(true);
    expect(commentsAllowed('planned', { allowCommentsOnPrelive: false })).toBe(false);
    expect(commentsAllowed('live', { allowCommentsOnLive: false, allowCommentsOnPrelive: true })).toBe(false);
    expect(commentsAllowed('live', { allowCommentsOnPrelive: false })).toBe(true);
  });

  it('never allows comments on a recording, whatever the settings say', () => {
    expect(commentsAllowed('vod', { allowCommentsOnLive: true, allowCommentsOnPrelive: true })).toBe(false);
  });
});

describe('unseen comments', () => {
  const chat = [
    { uid: 'a', time: 100, replies: [{ time: 150 }] },
    { uid: 'b', time: 200 },
    { uid: 'c', time: 300, replies: [{ time: 310 }, { time: 320 }] },
  ];

  it('counts every comment and reply after the last seen one', () => {
    expect(unseenCommentCount(chat, { uid: 'b', time: 200 })).toBe(3);
    expect(unseenCommentCount(chat, { uid: 'a', time: 100 })).toBe(5);
  });

  it('counts a late reply to an old comment', () => {
    expect(
      unseenCommentCount([{ uid: 'a', time: 100, replies: [{ time: 500 }] }], { uid: 'x', time: 400 }),
    ).toBe(1);
  });

  it('counts everything without a last seen comment and nothing once all is seen', () => {
    expect(unseenCommentCount(chat, null)).toBe(6);
    const newest = newestComment(chat);
    expect(newest).toEqual({ uid: 'c', time: 320 });
    expect(unseenCommentCount(chat, newest)).toBe(0);
  });

  it('breaks ties in the same millisecond by uid so the last seen comment never counts', () => {
    const same = [
      { uid: 'a', time: 100 },
      { uid: 'b', time: 100 },
    ];
    expect(newestComment(same)).toEqual({ uid: 'b', time: 100 });
    expect(unseenCommentCount(same, { uid: 'a', time: 100 })).toBe(1);
    expect(unseenCommentCount(same, { uid: 'b', time: 100 })).toBe(0);
    expect(newestComment([])).toBeNull();
  });
});

describe('bulkCommentVisible', () => {
  const liveStart = 1_000_000;
  it('shows a comment once the video reaches its offset', () => {
    expect(bulkCommentVisible(liveStart + 5000, liveStart, 4999)).toBe(false);
    expect(bulkCommentVisible(liveStart + 5000, liveStart, 5000)).toBe(true);
  });
  it('keeps comments from up to 10 minutes before the live start and drops older ones', () => {
    expect(bulkCommentVisible(liveStart - 10 * 60_000, liveStart, 0)).toBe(true);
    expect(bulkCommentVisible(liveStart - 10 * 60_000 - 1, liveStart, 0)).toBe(false);
  });
});

describe('notification timing', () => {
  it('shows private-message notifications only while newer than 30 seconds', () => {
    expect(isPrivateMessageFresh(1000, 1000 + 29_999)).toBe(true);
    expect(isPrivateMessageFresh(1000, 1000 + 30_000)).toBe(false);
  });
  it('shows a winner notice after the video delay plus 5 seconds', () => {
    expect(winnerNotificationShowAt(10_000, 5750)).toBe(20_750);
    expect(winnerNotificationShowAt(10_000, -20)).toBe(15_000);
  });
  it('looks at a waiting winner notice again every 250 ms, so a shrinking delay shows it on time', () => {
    // Due in 6 s: the next look is a recheck, not a 6 s timer.
    expect(winnerNoticeWaitMs(16_000, 10_000)).toBe(WINNER_NOTICE_RECHECK_MS);
    // Due sooner than a recheck: a timer for exactly then.
    expect(winnerNoticeWaitMs(10_100, 10_000)).toBe(100);
    // Due now, within the slack, or past (the delay shrank): shown now.
    expect(winnerNoticeWaitMs(10_010, 10_000)).toBeNull();
    expect(winnerNoticeWaitMs(9_000, 10_000)).toBeNull();
  });
  it('shows a notice within one recheck of its moment while the player catches up', () => {
    // A viewer 2.4 s behind whose player gains 100 ms a second: her delay at time t.
    const created = 10_000;
    const delayAt = (t: number) => Math.max(1000, 2400 - (t - created) / 10);
    let now = created;
    for (
      let wait = winnerNoticeWaitMs(winnerNotificationShowAt(created, delayAt(now)), now);
      wait !== null;
    ) {
      now += wait;
      wait = winnerNoticeWaitMs(winnerNotificationShowAt(created, delayAt(now)), now);
    }
    // The moment with the delay she has when it shows.
    const due = winnerNotificationShowAt(created, delayAt(now));
    expect(now - due).toBeLessThanOrEqual(WINNER_NOTICE_RECHECK_MS / 10);
    expect(now).toBeGreaterThanOrEqual(due - 15);
  });
});

describe('reactionAllowed', () => {
  it('lets one reaction through per 2 seconds', () => {
    expect(reactionAllowed(null, 0)).toBe(true);
    expect(reactionAllowed(1000, 2999)).toBe(false);
    expect(reactionAllowed(1000, 3000)).toBe(true);
  });
});
