import { describe, expect, it } from 'vitest';
import type { CueTimingRecord } from './cue-timing.ts';
import {
  FLASH_DEAL_ENDED_MESSAGE,
  FLASH_DEAL_ENDED_NOTICE_MS,
  FLASH_DEAL_MAX_VIEWER_DELAY_MS,
  FLASH_DEAL_POSITION_TOLERANCE_MS,
  type FlashDealStamps,
  flashDealAsSeen,
  flashDealChapter,
  flashDealEndsAt,
  flashDealOpensAt,
  flashDealOverForAll,
  flashDealProblems,
  flashDealVerdict,
  formatDealClock,
  plausibleStreamPosition,
} from './flash-deals.ts';

const LIVE_START = 1_700_000_000_000;
const record: CueTimingRecord = {
  event: {
    cdn: null,
    broadcastDelayMs: 750,
    cdnDelayMs: null,
    cdnVideoStartTime: null,
    liveStartTime: LIVE_START,
    eventStartTimestamp: LIVE_START,
  },
};
const STARTED = LIVE_START + 600_000;
const deal: FlashDealStamps = { startedAt: STARTED, endedAt: null, countdownSec: 30, durationSec: 120 };
/** The deal's end on the stream clock: the frame whose program date time this is. */
const END_ON_STREAM = STARTED + 30_000 + 120_000 + 750;

describe('flash deal terms', () => {
  const terms = {
    prices: { DKK: 5000 },
    countdownSec: 10,
    durationSec: 60,
    totalUnits: 10,
    perShopperLimit: 2,
  };
  it('takes valid terms at the bounds', () => {
    expect(flashDealProblems(terms, { DKK: 9900 })).toEqual([]);
    expect(flashDealProblems({ ...terms, countdownSec: 300, durationSec: 1200 }, { DKK: 9900 })).toEqual([]);
  });
  it('refuses a price not below the regular one, or in a currency the product lacks', () => {
    expect(flashDealProblems({ ...terms, prices: { DKK: 9900 } }, { DKK: 9900 })[0]?.field).toBe('prices');
    expect(flashDealProblems({ ...terms, prices: { EUR: 100 } }, { DKK: 9900 })[0]?.field).toBe('prices');
    expect(flashDealProblems({ ...terms, prices: {} }, { DKK: 9900 })[0]?.field).toBe('prices');
  });
  it('refuses countdowns, durations and limits out of bounds', () => {
    const fields = (changed: Partial<typeof terms>) =>
      flashDealProblems({ ...terms, ...changed }, { DKK: 9900 }).map((problem) => problem.field);
    expect(fields({ countdownSec: 9 })).toEqual(['countdownSec']);
    expect(fields({ countdownSec: 301 })).toEqual(['countdownSec']);
    expect(fields({ durationSec: 59 })).toEqual(['durationSec']);
    expect(fields({ durationSec: 20 * 60 + 1 })).toEqual(['durationSec']);
    expect(fields({ totalUnits: 0, perShopperLimit: 1 })).toEqual(['totalUnits']);
    expect(fields({ perShopperLimit: 0 })).toEqual(['perShopperLimit']);
    expect(fields({ perShopperLimit: 11 })).toEqual(['perShopperLimit']);
  });
});

describe('flash deal stamps', () => {
  it('opens after its countdown and ends after its duration, or at an early end', () => {
    expect(flashDealOpensAt(deal)).toBe(STARTED + 30_000);
    expect(flashDealEndsAt(deal)).toBe(STARTED + 150_000);
    expect(flashDealEndsAt({ ...deal, endedAt: STARTED + 60_000 })).toBe(STARTED + 60_000);
    expect(flashDealEndsAt({ ...deal, startedAt: null })).toBeNull();
  });
});

describe('the acceptance rule on the stream clock', () => {
  const verdictAt = (claimedMs: number, nowMs: number, measuredDelayMs: number | null) =>
    flashDealVerdict(deal, record, plausibleStreamPosition({ claimedMs, nowMs, measuredDelayMs, record }));

  it('an add 100 ms before the end in her stream time gets the deal; one after does not', () => {
    expect(verdictAt(END_ON_STREAM - 100, END_ON_STREAM + 1500, 1600)).toBe('deal');
    expect(verdictAt(END_ON_STREAM + 100, END_ON_STREAM + 1500, 1600)).toBe('ended');
    expect(FLASH_DEAL_ENDED_MESSAGE).toBe('Deal has ended');
  });

  it('a viewer 3 s behind gets the same end: her add 100 ms before it, arriving 3 s later, still counts', () => {
    const behind = 3000;
    expect(verdictAt(END_ON_STREAM - 100, END_ON_STREAM - 100 + behind, behind)).toBe('deal');
    expect(verdictAt(END_ON_STREAM + 100, END_ON_STREAM + 100 + behind, behind)).toBe('ended');
  });

  it('a position further behind than her measured delay plus the tolerance is moved up to it', () => {
    const now = END_ON_STREAM + 3000;
    // Claims to be 3 s behind but measured 1 s behind: taken as 2 s behind at most → ended.
    expect(verdictAt(END_ON_STREAM - 100, now, 1000)).toBe('ended');
    expect(
      plausibleStreamPosition({ claimedMs: now - 10_000, nowMs: now, measuredDelayMs: 1000, record }),
    ).toBe(now - 1000 - FLASH_DEAL_POSITION_TOLERANCE_MS);
    // Never beyond the cap, whatever the measured delay.
    expect(
      plausibleStreamPosition({ claimedMs: now - 120_000, nowMs: now, measuredDelayMs: 90_000, record }),
    ).toBe(now - FLASH_DEAL_MAX_VIEWER_DELAY_MS - FLASH_DEAL_POSITION_TOLERANCE_MS);
  });

  it('a position ahead of the live edge counts as the edge', () => {
    const now = STARTED + 31_000;
    expect(plausibleStreamPosition({ claimedMs: now + 60_000, nowMs: now, measuredDelayMs: 0, record })).toBe(
      now,
    );
    expect(verdictAt(END_ON_STREAM + 1000, STARTED + 31_000, 0)).toBe('deal');
  });

  it('before the opening (countdown) the deal is not yet on; an unstarted deal never', () => {
    const opensOnStream = STARTED + 30_000 + 750;
    expect(verdictAt(opensOnStream - 100, opensOnStream, 0)).toBe('notStarted');
    expect(verdictAt(opensOnStream, opensOnStream + 10, 0)).toBe('deal');
    expect(flashDealVerdict({ ...deal, startedAt: null }, record, STARTED)).toBe('notStarted');
  });

  it('an early end by the host ends it on the stream clock too', () => {
    const ended = { ...deal, endedAt: STARTED + 40_000 };
    expect(flashDealVerdict(ended, record, STARTED + 40_000 + 750 - 1)).toBe('deal');
    expect(flashDealVerdict(ended, record, STARTED + 40_000 + 750)).toBe('ended');
    expect(flashDealVerdict({ ...deal, startedAt: null, endedAt: STARTED }, record, STARTED)).toBe('ended');
  });
});

describe('what a viewer sees', () => {
  it('every viewer, whatever her delay, sees the countdown and the end on the same frame (program date time)', () => {
    // What she sees depends on the frame on her screen only; her delay only says when (wall time) she sees it.
    const seenAt = (playingDateMs: number) =>
      flashDealAsSeen(deal, record, { clock: 'stream', playingDateMs });
    expect(seenAt(STARTED + 749).phase).toBe('hidden');
    expect(seenAt(STARTED + 750)).toEqual({ phase: 'countdown', msLeft: 30_000 });
    expect(seenAt(END_ON_STREAM - 1)).toEqual({ phase: 'open', msLeft: 1 });
    expect(seenAt(END_ON_STREAM).phase).toBe('ended');
    // The notice goes after a while on a live show.
    expect(seenAt(END_ON_STREAM + FLASH_DEAL_ENDED_NOTICE_MS).phase).toBe('hidden');
  });

  it('the replay shows a started deal as ended (no deal price), and marks it as a chapter', () => {
    const videoAt = (seconds: number) => flashDealAsSeen(deal, record, { clock: 'video', seconds });
    expect(videoAt(1).phase).toBe('hidden');
    expect(videoAt(620).phase).toBe('ended');
    expect(videoAt(700).phase).toBe('ended');
    expect(flashDealChapter(deal, record)).toEqual({ start: 630.75, end: 750.75 });
    expect(flashDealChapter({ ...deal, endedAt: STARTED + 1000 }, record)).toBeNull();
  });

  it('a show without a stream clock places the stamps with the spec delays', () => {
    expect(flashDealAsSeen(deal, record, { clock: 'wall', nowMs: STARTED + 31_000 }).phase).toBe('open');
  });

  it('is over for everyone once the furthest-behind viewer passed the end', () => {
    expect(flashDealOverForAll(deal, record, END_ON_STREAM + 1000)).toBe(false);
    expect(flashDealOverForAll(deal, record, END_ON_STREAM + 40_000)).toBe(true);
  });

  it('formats the clock', () => {
    expect(formatDealClock(61_001)).toBe('1:02');
    expect(formatDealClock(0)).toBe('0:00');
  });
});
