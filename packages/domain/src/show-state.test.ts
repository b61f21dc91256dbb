import type { LiveEvent } from '@vitrine/protocol';
import type { EventCurrentStatus } from '@vitrine/protocol/vocabulary';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  canPurchase,
  isShowExpired,
  pricesHidden,
  type ShowState,
  type ShowStateRecord,
  showState,
} from './show-state.ts';

const NOW = Date.UTC(2024, 5, 1, 12, 0, 0);

function record(currentStatus: EventCurrentStatus, deadline: number | null): ShowStateRecord {
  return { event: { currentStatus }, campaign: { deadline } };
}

describe('isShowExpired', () => {
  it('accepts the protocol LiveEvent (spec §3 "Live event record")', () => {
    expectTypeOf<LiveEvent>().toExtend<ShowStateRecord>();
  });

  it('is expired once the campaign deadline is past (spec §4 "Once the campaign deadline is past, the show is expired")', () => {
    expect(isShowExpired(record('vod', NOW - 1), NOW)).toBe(true);
  });

  it('is not expired at the deadline itself or before it (spec §4 "deadline is past")', () => {
    expect(isShowExpired(record('vod', NOW), NOW)).toBe(false);
    expect(isShowExpired(record('vod', NOW + 1), NOW)).toBe(false);
  });

  it('never expires without a deadline (spec §3 "campaign: deadline")', () => {
    expect(isShowExpired(record('vod', null), NOW)).toBe(false);
  });
});

describe('showState', () => {
  it('is live for a live event, even past the deadline (spec §4 "Show states for viewers: live")', () => {
    expect(showState(record('live', null), NOW, false)).toBe('live');
    expect(showState(record('live', NOW - 1), NOW, true)).toBe('live');
  });

  it('is planned for a planned event (spec §4 "currentStatus values are planned (prelive)")', () => {
    expect(showState(record('planned', NOW + 1), NOW, false)).toBe('planned');
  });

  it('is recorded for a vod before the deadline, still shoppable (spec §4 "A recorded show is marked \'still shoppable\'")', () => {
    expect(showState(record('vod', NOW + 60_000), NOW, false)).toBe('recorded');
    expect(showState(record('vod', null), NOW, false)).toBe('recorded');
  });

  it('is ended when the video has played to its end (spec §4 "The ended state offers to rewatch")', () => {
    expect(showState(record('vod', NOW + 60_000), NOW, true)).toBe('ended');
  });

  it('is expired for a vod past the deadline, whether or not it ended (spec §4, §8 "Video expired")', () => {
    expect(showState(record('vod', NOW - 1), NOW, false)).toBe('expired');
    expect(showState(record('vod', NOW - 1), NOW, true)).toBe('expired');
  });
});

describe('canPurchase', () => {
  it('blocks purchases only when expired (spec §8 "Video expired, products can no longer be purchased")', () => {
    const states: ShowState[] = ['live', 'planned', 'recorded', 'ended', 'expired'];
    expect(states.filter(canPurchase)).toEqual(['live', 'planned', 'recorded', 'ended']);
  });
});

describe('pricesHidden', () => {
  it('hides prices of an expired show (spec §4 "This hides prices")', () => {
    expect(pricesHidden('expired', false)).toBe(true);
  });

  it('hides prices when the page setting hidePrices is on (spec §3 "Page player settings" hidePrices)', () => {
    expect(pricesHidden('live', true)).toBe(true);
    expect(pricesHidden('recorded', true)).toBe(true);
  });

  it('shows prices otherwise (spec §4 "Link mode and basket mode")', () => {
    expect(pricesHidden('live', false)).toBe(false);
    expect(pricesHidden('recorded', false)).toBe(false);
    expect(pricesHidden('ended', false)).toBe(false);
    expect(pricesHidden('planned', false)).toBe(false);
  });
});
