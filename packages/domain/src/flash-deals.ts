import type { ViewerMoment } from './competition-timing.ts';
import { broadcastDelayMs, type CueTimingRecord, cdnDelayMs, timeInVideo } from './cue-timing.ts';
import { streamClockCueTime } from './stream-clock.ts';

/**
 * Flash deals on the stream clock (issue 30 §3, TikTok LIVE Flash Deal the anchor): a deal price
 * for one product (or variant) of a live show, a countdown before it opens, a duration, a total
 * and a per-shopper limit. The host's start is stamped by the server like a cue, so its opening
 * and its end fall on the same video frame for every viewer whatever her delay; the server takes
 * the deal price for an add made before the end as the viewer saw it.
 */

/** The countdown before a started deal opens: 10 s to 5 minutes. */
export const FLASH_DEAL_COUNTDOWN_MIN_SEC = 10;
export const FLASH_DEAL_COUNTDOWN_MAX_SEC = 300;
/** How long an open deal lasts: 1 to 20 minutes. */
export const FLASH_DEAL_DURATION_MIN_SEC = 60;
export const FLASH_DEAL_DURATION_MAX_SEC = 20 * 60;
/** The most units one deal offers (a sanity bound, far above a show's flash deal). */
export const FLASH_DEAL_MAX_UNITS = 100_000;

/**
 * How far an add's stamped position may lie behind the viewer's measured delay (reports are
 * 30 s apart and a player's delay drifts): a small tolerance, never more.
 */
export const FLASH_DEAL_POSITION_TOLERANCE_MS = 1000;
/** The most delay a viewer may claim, measured or not: a viewer further behind gets the regular terms. */
export const FLASH_DEAL_MAX_VIEWER_DELAY_MS = 30_000;
/** The delay assumed for a viewer whose player never reported one (a typical HLS delay with room). */
export const FLASH_DEAL_UNMEASURED_DELAY_MS = 6000;

/** How long a live viewer keeps seeing "Deal has ended" after the end reached her screen. */
export const FLASH_DEAL_ENDED_NOTICE_MS = 15_000;

/** The refusal of an add after the deal's end as the viewer saw it. */
export const FLASH_DEAL_ENDED_MESSAGE = 'Deal has ended';

/** What the host prepares; prices in minor units per currency. */
export interface FlashDealTerms {
  prices: Readonly<Record<string, number>>;
  countdownSec: number;
  durationSec: number;
  totalUnits: number;
  perShopperLimit: number;
}

/** One problem of prepared terms: the field and what is wrong. */
export interface FlashDealProblem {
  field: keyof FlashDealTerms;
  message: string;
}

/**
 * The problems of a deal's terms against the product's (or variant's) regular prices (empty when
 * valid): a deal price in at least one currency, each below the regular price there; the
 * countdown and duration within their bounds; limits of at least 1, the per-shopper one within the total.
 */
export function flashDealProblems(
  terms: FlashDealTerms,
  regularPrices: Readonly<Record<string, number | undefined>>,
): FlashDealProblem[] {
  const problems: FlashDealProblem[] = [];
  const currencies = Object.keys(terms.prices);
  if (currencies.length === 0) problems.push({ field: 'prices', message: 'needs a deal price' });
  for (const currency of currencies) {
    const price = terms.prices[currency] as number;
    const regular = regularPrices[currency];
    if (!Number.isInteger(price) || price < 0) {
      problems.push({ field: 'prices', message: `${currency}: must be a whole number of minor units` });
    } else if (regular === undefined) {
      problems.push({ field: 'prices', message: `${currency}: the product has no regular price in it` });
    } else if (price >= regular) {
      problems.push({
        field: 'prices',
        message: `${currency}: must be below the regular price (${regular})`,
      });
    }
  }
  const within = (value: number, min: number, max: number) =>
    Number.isInteger(value) && value >= min && value <= max;
  if (!within(terms.countdownSec, FLASH_DEAL_COUNTDOWN_MIN_SEC, FLASH_DEAL_COUNTDOWN_MAX_SEC)) {
    problems.push({
      field: 'countdownSec',
      message: `must be ${FLASH_DEAL_COUNTDOWN_MIN_SEC}–${FLASH_DEAL_COUNTDOWN_MAX_SEC} seconds`,
    });
  }
  if (!within(terms.durationSec, FLASH_DEAL_DURATION_MIN_SEC, FLASH_DEAL_DURATION_MAX_SEC)) {
    problems.push({
      field: 'durationSec',
      message: `must be ${FLASH_DEAL_DURATION_MIN_SEC / 60}–${FLASH_DEAL_DURATION_MAX_SEC / 60} minutes`,
    });
  }
  if (!within(terms.totalUnits, 1, FLASH_DEAL_MAX_UNITS)) {
    problems.push({ field: 'totalUnits', message: `must be 1–${FLASH_DEAL_MAX_UNITS}` });
  }
  if (!within(terms.perShopperLimit, 1, Math.max(1, terms.totalUnits))) {
    problems.push({ field: 'perShopperLimit', message: 'must be at least 1 and at most the total units' });
  }
  return problems;
}

/** A deal's stamps: when the host started it and, if so, ended it early (server ms), and its timing. */
export interface FlashDealStamps {
  startedAt: number | null;
  endedAt: number | null;
  countdownSec: number;
  durationSec: number;
}

/** The server moment the deal opens (its countdown over); null before it is started. */
export function flashDealOpensAt(deal: FlashDealStamps): number | null {
  if (deal.startedAt === null) return null;
  return deal.startedAt + deal.countdownSec * 1000;
}

/**
 * The server moment the deal ends: its duration after it opens, or the host's early end when
 * sooner (an end during the countdown: the deal never opens). Null before it is started.
 */
export function flashDealEndsAt(deal: FlashDealStamps): number | null {
  const opensAt = flashDealOpensAt(deal);
  if (opensAt === null) return null;
  const planned = opensAt + deal.durationSec * 1000;
  return deal.endedAt === null ? planned : Math.min(planned, deal.endedAt);
}

/** When the deal opens and ends (server stamps, ms), or null while it has not opened. */
function flashDealSpan(deal: FlashDealStamps): { opensAt: number; endsAt: number } | null {
  const opensAt = flashDealOpensAt(deal);
  const endsAt = flashDealEndsAt(deal);
  return opensAt === null || endsAt === null ? null : { opensAt, endsAt };
}

/** Over for every viewer, whatever her delay (none may claim to be further behind): nothing of it is live any more. */
export function flashDealOverForAll(deal: FlashDealStamps, record: CueTimingRecord, nowMs: number): boolean {
  const endsAt = flashDealEndsAt(deal);
  if (endsAt === null) return deal.endedAt !== null;
  return (
    nowMs >
    streamClockCueTime(endsAt, record) + FLASH_DEAL_MAX_VIEWER_DELAY_MS + FLASH_DEAL_POSITION_TOLERANCE_MS
  );
}

/**
 * Where on the stream clock (the frames' program date time, ms) the server takes an add to have
 * been made: the viewer's stamped position, kept plausible — never ahead of the live edge (now),
 * never further behind than her measured delay (capped) plus a small tolerance. Without a stamped
 * position (no stream clock: an external provider's stream), the spec's delays place her.
 */
export function plausibleStreamPosition(input: {
  claimedMs: number | null;
  nowMs: number;
  measuredDelayMs: number | null;
  record: CueTimingRecord;
}): number {
  const { claimedMs, nowMs, measuredDelayMs, record } = input;
  if (claimedMs === null || !Number.isFinite(claimedMs)) return nowMs - cdnDelayMs(record);
  const delay =
    measuredDelayMs === null || !Number.isFinite(measuredDelayMs)
      ? FLASH_DEAL_UNMEASURED_DELAY_MS
      : Math.max(0, measuredDelayMs);
  const behind = Math.min(FLASH_DEAL_MAX_VIEWER_DELAY_MS, delay) + FLASH_DEAL_POSITION_TOLERANCE_MS;
  return Math.min(nowMs, Math.max(claimedMs, nowMs - behind));
}

/** What an add at a stream position gets: the deal price, or not yet, or no more. */
export type FlashDealVerdict = 'deal' | 'notStarted' | 'ended';

/**
 * The acceptance rule: the deal price for an add whose (plausible) stream position lies in
 * [opening, end) as both are placed on the stream clock like cues; refused after.
 */
export function flashDealVerdict(
  deal: FlashDealStamps,
  record: CueTimingRecord,
  streamPositionMs: number,
): FlashDealVerdict {
  const span = flashDealSpan(deal);
  if (span === null) return deal.endedAt === null ? 'notStarted' : 'ended';
  if (streamPositionMs >= streamClockCueTime(span.endsAt, record)) return 'ended';
  if (streamPositionMs < streamClockCueTime(span.opensAt, record)) return 'notStarted';
  return 'deal';
}

/**
 * Milliseconds until a viewer at `moment` reaches what the server stamped at `stampMs` (≤ 0:
 * reached), with the placement cues and competitions get (competition-timing stampReached).
 */
export function msUntilStamp(stampMs: number, record: CueTimingRecord, moment: ViewerMoment): number {
  switch (moment.clock) {
    case 'stream':
      return streamClockCueTime(stampMs, record) - moment.playingDateMs;
    case 'video':
      return (timeInVideo(stampMs, record) - moment.seconds) * 1000;
    case 'wall':
      return stampMs + broadcastDelayMs(record) + cdnDelayMs(record) - moment.nowMs;
  }
}

/**
 * What a viewer sees of a deal: nothing before the host's start reaches her video; a countdown to
 * its opening; the open deal with the time left; ended (for FLASH_DEAL_ENDED_NOTICE_MS on a live
 * show, then gone). Every boundary is a stamp on the stream
 * clock, so each falls on the same frame for every viewer. A replay (the video clock) never offers
 * the deal price: a started deal shows as ended there.
 */
export type FlashDealView =
  | { phase: 'hidden' }
  | { phase: 'countdown'; msLeft: number }
  | { phase: 'open'; msLeft: number }
  | { phase: 'ended' };

export function flashDealAsSeen(
  deal: FlashDealStamps,
  record: CueTimingRecord,
  moment: ViewerMoment,
): FlashDealView {
  const span = flashDealSpan(deal);
  if (deal.startedAt === null || span === null) return { phase: 'hidden' };
  if (msUntilStamp(deal.startedAt, record, moment) > 0) return { phase: 'hidden' };
  if (moment.clock === 'video') return { phase: 'ended' };
  const untilEnd = msUntilStamp(span.endsAt, record, moment);
  if (untilEnd <= -FLASH_DEAL_ENDED_NOTICE_MS) return { phase: 'hidden' };
  if (untilEnd <= 0) return { phase: 'ended' };
  const untilOpen = msUntilStamp(span.opensAt, record, moment);
  if (untilOpen > 0) return { phase: 'countdown', msLeft: untilOpen };
  return { phase: 'open', msLeft: untilEnd };
}

/** The deal as a replay chapter: from its opening to its end, in video seconds (null if it never opened). */
export function flashDealChapter(
  deal: FlashDealStamps,
  record: CueTimingRecord,
): { start: number; end: number } | null {
  const span = flashDealSpan(deal);
  if (span === null || span.endsAt <= span.opensAt) return null;
  return { start: timeInVideo(span.opensAt, record), end: timeInVideo(span.endsAt, record) };
}

/** "m:ss" of a countdown or time left, rounded up to the second (0:00 only at the end). */
export function formatDealClock(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}
