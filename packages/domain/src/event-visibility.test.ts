import type { EventCurrentStatus } from '@vitrine/protocol/vocabulary';
import { describe, expect, it } from 'vitest';
import {
  campaignShowStatus,
  groupShopEvents,
  isShownOnShopPage,
  leadShopEvent,
  type ShopVisibilityFields,
  shopCardCover,
} from './event-visibility.ts';

const NOW = Date.UTC(2024, 5, 1, 12, 0, 0);
const MINUTE = 60_000;

interface TestEvent extends ShopVisibilityFields {
  id: string;
}

function record(
  currentStatus: EventCurrentStatus,
  eventStartTimestamp: number,
  options: { status?: string; deadline?: number | null; id?: string } = {},
): TestEvent {
  return {
    id: options.id ?? `${currentStatus}-${eventStartTimestamp}`,
    event: { status: options.status ?? 'public', currentStatus, eventStartTimestamp },
    campaign: { deadline: options.deadline === undefined ? null : options.deadline },
  };
}

describe('isShownOnShopPage: planned events', () => {
  it('shows public planned events starting in the future (spec §4 "Event status and display")', () => {
    expect(isShownOnShopPage(record('planned', NOW + 60 * MINUTE), NOW)).toBe(true);
  });

  it('shows public planned events starting right now (spec §4 "Event status and display")', () => {
    expect(isShownOnShopPage(record('planned', NOW), NOW)).toBe(true);
  });

  it('shows planned events that started 14 minutes ago, inside the grace (spec §4, §9)', () => {
    expect(isShownOnShopPage(record('planned', NOW - 14 * MINUTE), NOW)).toBe(true);
  });

  it('shows planned events starting exactly 15 minutes (900000 ms) ago (spec §4 "no earlier than 15 minutes ago", §9)', () => {
    expect(isShownOnShopPage(record('planned', NOW - 900_000), NOW)).toBe(true);
  });

  it('shows planned events starting 15 minutes minus 1 ms (899999 ms) ago (spec §4, §9)', () => {
    expect(isShownOnShopPage(record('planned', NOW - 899_999), NOW)).toBe(true);
  });

  it('hides planned events starting 15 minutes plus 1 ms (900001 ms) ago (spec §4, §9)', () => {
    expect(isShownOnShopPage(record('planned', NOW - 900_001), NOW)).toBe(false);
  });

  it('hides planned events that started an hour ago (spec §4, §9)', () => {
    expect(isShownOnShopPage(record('planned', NOW - 60 * MINUTE), NOW)).toBe(false);
  });

  it('ignores the campaign deadline for planned events (spec §4: the deadline rule is for vod only)', () => {
    expect(isShownOnShopPage(record('planned', NOW, { deadline: NOW - 60 * MINUTE }), NOW)).toBe(true);
  });
});

describe('isShownOnShopPage: live events', () => {
  it('shows public live events whatever their start time (spec §4 "public live events")', () => {
    expect(isShownOnShopPage(record('live', NOW), NOW)).toBe(true);
    expect(isShownOnShopPage(record('live', NOW - 24 * 60 * MINUTE), NOW)).toBe(true);
    expect(isShownOnShopPage(record('live', NOW + 60 * MINUTE), NOW)).toBe(true);
  });

  it('shows public live events even when the campaign deadline is long past (spec §4 "public live events")', () => {
    expect(isShownOnShopPage(record('live', NOW, { deadline: NOW - 24 * 60 * MINUTE }), NOW)).toBe(true);
  });
});

describe('isShownOnShopPage: vod events', () => {
  it('shows vod events whose campaign deadline is in the future (spec §4 "Event status and display")', () => {
    expect(isShownOnShopPage(record('vod', NOW - 600 * MINUTE, { deadline: NOW + 60 * MINUTE }), NOW)).toBe(
      true,
    );
  });

  it('shows vod events whose campaign deadline was exactly 15 minutes (900000 ms) ago (spec §4, §9)', () => {
    expect(isShownOnShopPage(record('vod', NOW - 600 * MINUTE, { deadline: NOW - 900_000 }), NOW)).toBe(true);
  });

  it('shows vod events whose campaign deadline was 899999 ms ago, 1 ms inside the grace (spec §4, §9)', () => {
    expect(isShownOnShopPage(record('vod', NOW - 600 * MINUTE, { deadline: NOW - 899_999 }), NOW)).toBe(true);
  });

  it('hides vod events whose campaign deadline was 900001 ms ago, 1 ms past the grace (spec §4, §9)', () => {
    expect(isShownOnShopPage(record('vod', NOW - 600 * MINUTE, { deadline: NOW - 900_001 }), NOW)).toBe(
      false,
    );
  });

  it('judges vod events by the campaign deadline, not by their start time (spec §4 "Event status and display")', () => {
    expect(isShownOnShopPage(record('vod', NOW, { deadline: NOW - 60 * MINUTE }), NOW)).toBe(false);
  });

  it('shows vod events with a null campaign deadline, which never expire (spec §4; documented choice)', () => {
    expect(isShownOnShopPage(record('vod', NOW - 24 * 60 * MINUTE, { deadline: null }), NOW)).toBe(true);
  });

  it('treats a deadline of 0 (the epoch) as a real, long-past deadline rather than as absent (spec §4, §9)', () => {
    expect(isShownOnShopPage(record('vod', NOW, { deadline: 0 }), NOW)).toBe(false);
  });
});

describe('isShownOnShopPage: event status must be public', () => {
  const nonPublic = ['private', 'draft', 'hidden', 'deleted', 'Public', 'PUBLIC', ' public', ''];

  for (const status of nonPublic) {
    it(`hides a live event with status ${JSON.stringify(status)} (spec §4 "public is required for an event to be displayed")`, () => {
      expect(isShownOnShopPage(record('live', NOW, { status }), NOW)).toBe(false);
    });
  }

  it('hides non-public planned events inside the 15-minute window (spec §4 "public is required", §9)', () => {
    expect(isShownOnShopPage(record('planned', NOW + MINUTE, { status: 'private' }), NOW)).toBe(false);
  });

  it('hides non-public vod events, including those with a null deadline (spec §4 "public is required")', () => {
    expect(isShownOnShopPage(record('vod', NOW, { status: 'private', deadline: null }), NOW)).toBe(false);
    expect(isShownOnShopPage(record('vod', NOW, { status: 'draft', deadline: NOW + MINUTE }), NOW)).toBe(
      false,
    );
  });
});

describe('groupShopEvents', () => {
  it('splits shown events into live, planned and vod rows (spec §4 "Event status and display")', () => {
    const live = record('live', NOW - 5 * MINUTE, { id: 'live' });
    const planned = record('planned', NOW + 5 * MINUTE, { id: 'planned' });
    const vod = record('vod', NOW - 60 * MINUTE, { id: 'vod', deadline: NOW + MINUTE });
    const groups = groupShopEvents([vod, planned, live], NOW);
    expect(groups.live.map((r) => r.id)).toEqual(['live']);
    expect(groups.planned.map((r) => r.id)).toEqual(['planned']);
    expect(groups.vod.map((r) => r.id)).toEqual(['vod']);
  });

  it('orders planned events soonest first (spec §4 "Event status and display")', () => {
    const records = [
      record('planned', NOW + 30 * MINUTE, { id: 'p30' }),
      record('planned', NOW - 10 * MINUTE, { id: 'p-10' }),
      record('planned', NOW + 5 * MINUTE, { id: 'p5' }),
    ];
    expect(groupShopEvents(records, NOW).planned.map((r) => r.id)).toEqual(['p-10', 'p5', 'p30']);
  });

  it('orders live events by start time, earliest first (spec §4 "Event status and display")', () => {
    const records = [
      record('live', NOW - 5 * MINUTE, { id: 'l5' }),
      record('live', NOW - 50 * MINUTE, { id: 'l50' }),
      record('live', NOW - 20 * MINUTE, { id: 'l20' }),
    ];
    expect(groupShopEvents(records, NOW).live.map((r) => r.id)).toEqual(['l50', 'l20', 'l5']);
  });

  it('orders vod events newest first by start time (spec §4 "Event status and display")', () => {
    const records = [
      record('vod', NOW - 3 * 60 * MINUTE, { id: 'v3h', deadline: null }),
      record('vod', NOW - 1 * 60 * MINUTE, { id: 'v1h', deadline: null }),
      record('vod', NOW - 2 * 60 * MINUTE, { id: 'v2h', deadline: null }),
    ];
    expect(groupShopEvents(records, NOW).vod.map((r) => r.id)).toEqual(['v1h', 'v2h', 'v3h']);
  });

  it('leaves out hidden events from every row: non-public, stale planned and expired vod (spec §4, §9)', () => {
    const records = [
      record('live', NOW, { id: 'private-live', status: 'private' }),
      record('planned', NOW - 900_001, { id: 'stale-planned' }),
      record('planned', NOW - 900_000, { id: 'edge-planned' }),
      record('vod', NOW - 60 * MINUTE, { id: 'expired-vod', deadline: NOW - 900_001 }),
      record('vod', NOW - 60 * MINUTE, { id: 'edge-vod', deadline: NOW - 900_000 }),
    ];
    const groups = groupShopEvents(records, NOW);
    expect(groups.live).toEqual([]);
    expect(groups.planned.map((r) => r.id)).toEqual(['edge-planned']);
    expect(groups.vod.map((r) => r.id)).toEqual(['edge-vod']);
  });

  it('returns three empty rows for no events (spec §4 "Event status and display")', () => {
    expect(groupShopEvents([], NOW)).toEqual({ live: [], planned: [], vod: [] });
  });

  it('does not reorder or mutate the input list (spec §4 "Event status and display")', () => {
    const records = [
      record('planned', NOW + 30 * MINUTE, { id: 'b' }),
      record('planned', NOW + 5 * MINUTE, { id: 'a' }),
    ];
    const snapshot = JSON.parse(JSON.stringify(records));
    groupShopEvents(records, NOW);
    expect(records).toEqual(snapshot);
  });

  it('returns the same record objects it was given, so extra fields survive (spec §4 "Event status and display")', () => {
    const live = record('live', NOW, { id: 'keep-me' });
    expect(groupShopEvents([live], NOW).live[0]).toBe(live);
  });
});

describe('campaignShowStatus', () => {
  it('is live when any published event is live', () => {
    expect(campaignShowStatus(['vod', 'live', 'planned'])).toBe('live');
    expect(campaignShowStatus(['live'])).toBe('live');
  });

  it('is planned when none is live and one is planned, or when no event is set up yet', () => {
    expect(campaignShowStatus(['vod', 'planned'])).toBe('planned');
    expect(campaignShowStatus([])).toBe('planned');
  });

  it('is vod when every event is a recording', () => {
    expect(campaignShowStatus(['vod'])).toBe('vod');
    expect(campaignShowStatus(['vod', 'vod'])).toBe('vod');
  });
});

describe('the shop page’s lead card', () => {
  it('is the first live show, else the first upcoming one, else the newest recording', () => {
    const groups = groupShopEvents(
      [record('vod', NOW - 60 * MINUTE, { id: 'old' }), record('planned', NOW + MINUTE, { id: 'soon' })],
      NOW,
    );
    expect(leadShopEvent(groups)?.id).toBe('soon');
    expect(leadShopEvent({ ...groups, live: [record('live', NOW, { id: 'on' })] })?.id).toBe('on');
    expect(leadShopEvent({ ...groups, planned: [] })?.id).toBe('old');
    expect(leadShopEvent({ live: [], planned: [], vod: [] })).toBeNull();
  });

  it('shows the cover photo, else the live video’s cover, else its format’s picture', () => {
    const format = { picture: '/format.jpg' };
    expect(
      shopCardCover({ coverPhotoPath: '/cover.jpg', liveVideoCover: '/live.jpg', liveVideoFormat: format }),
    ).toBe('/cover.jpg');
    expect(
      shopCardCover({ coverPhotoPath: null, liveVideoCover: '/live.jpg', liveVideoFormat: format }),
    ).toBe('/live.jpg');
    expect(shopCardCover({ coverPhotoPath: null, liveVideoCover: null, liveVideoFormat: format })).toBe(
      '/format.jpg',
    );
    expect(shopCardCover({ coverPhotoPath: null, liveVideoCover: null, liveVideoFormat: null })).toBeNull();
  });
});
