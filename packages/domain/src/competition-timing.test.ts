import { describe, expect, it } from 'vitest';
import {
  acceptsEntries,
  COMPETITION_LATE_ENTRY_GRACE_MS,
  COMPETITION_STATE_CHANGES_LIMIT,
  type CompetitionStateChange,
  competitionAsReached,
  competitionClosedAt,
  competitionReached,
  stampReached,
  withStateChange,
} from './competition-timing.ts';
import { DEFAULT_BROADCAST_DELAY_MS, DELAYED_CDN_PROVIDER } from './constants.ts';
import { noticeVideoDelayMs } from './stream-clock.ts';
import { NO_DELAYS, type TimingFields, timingRecord } from './test-support/cue-fixtures.ts';

const START = Date.UTC(2026, 10, 24, 8, 0, 0);

/** Live and on the CDN from START, a minute after its planned start, without delays. */
const STARTS = { cdnVideoStartTime: START, liveStartTime: START, eventStartTimestamp: START - 60_000 };
const record = (overrides: Partial<TimingFields> = {}) =>
  timingRecord(STARTS, { ...NO_DELAYS, ...overrides });

const OPENED = START + 30_000;
const CLOSED = START + 90_000;
const DRAWN = START + 100_000;

const opened: CompetitionStateChange = { at: OPENED, openForParticipation: true, playing: true };
const closed: CompetitionStateChange = { at: CLOSED, openForParticipation: false, playing: true };

/** A raffle as the server sends it after the host opened it, closed it and drew Ada. */
const drawnRaffle = {
  uid: 'raffle',
  openForParticipation: false,
  playing: true,
  stateChanges: [opened, closed],
  winners: [{ name: 'Ada', drawnAt: DRAWN }],
};

describe('stampReached', () => {
  it('on a live stream: when the frame on screen is the stamped moment (plus the broadcast delay)', () => {
    expect(stampReached(OPENED, record(), { clock: 'stream', playingDateMs: OPENED - 1 })).toBe(false);
    expect(stampReached(OPENED, record(), { clock: 'stream', playingDateMs: OPENED })).toBe(true);
    const delayed = record({ broadcastDelayMs: 750 });
    expect(stampReached(OPENED, delayed, { clock: 'stream', playingDateMs: OPENED + 749 })).toBe(false);
    expect(stampReached(OPENED, delayed, { clock: 'stream', playingDateMs: OPENED + 750 })).toBe(true);
  });

  it('on a replay: at the stamp’s offset into the video, as cues are placed', () => {
    expect(stampReached(OPENED, record(), { clock: 'video', seconds: 29.99 })).toBe(false);
    expect(stampReached(OPENED, record(), { clock: 'video', seconds: 30 })).toBe(true);
    const cdnStartedLater = record({ cdnVideoStartTime: START + 10_000 });
    expect(stampReached(OPENED, cdnStartedLater, { clock: 'video', seconds: 19.9 })).toBe(false);
    expect(stampReached(OPENED, cdnStartedLater, { clock: 'video', seconds: 20 })).toBe(true);
  });

  it('without a stream clock: after the spec’s broadcast and CDN delays (external video providers)', () => {
    const provider = record({ cdn: DELAYED_CDN_PROVIDER, broadcastDelayMs: null, cdnDelayMs: null });
    const delay = DEFAULT_BROADCAST_DELAY_MS + 5000;
    expect(stampReached(OPENED, provider, { clock: 'wall', nowMs: OPENED + delay - 1 })).toBe(false);
    expect(stampReached(OPENED, provider, { clock: 'wall', nowMs: OPENED + delay })).toBe(true);
  });
});

describe('competitionAsReached', () => {
  const at = (playingDateMs: number) => (stamp: number) =>
    stampReached(stamp, record(), { clock: 'stream', playingDateMs });

  it('hides a competition opened after the frame on screen, then opens it when the video gets there', () => {
    const open = { ...drawnRaffle, openForParticipation: true, stateChanges: [opened], winners: [] };
    const now = OPENED + 4000;
    expect(competitionAsReached(open, at(OPENED - 1), now)).toMatchObject({
      openForParticipation: false,
      playing: false,
    });
    expect(competitionAsReached(open, at(OPENED), now)).toMatchObject({
      openForParticipation: true,
      playing: true,
    });
  });

  it('keeps it open for a delayed viewer until their video reaches the closing, within the late-entry grace', () => {
    const viewer = at(CLOSED - 4000);
    expect(competitionAsReached(drawnRaffle, viewer, CLOSED)).toMatchObject({ openForParticipation: true });
    expect(competitionAsReached(drawnRaffle, at(CLOSED), CLOSED + 4000)).toMatchObject({
      openForParticipation: false,
      playing: true,
    });
    // The server no longer takes entries: a replay (or a viewer far behind) is never offered to join.
    expect(competitionAsReached(drawnRaffle, viewer, CLOSED + COMPETITION_LATE_ENTRY_GRACE_MS)).toMatchObject(
      { openForParticipation: false, playing: true },
    );
  });

  it('tells the winners only once the draw is reached', () => {
    expect(competitionAsReached(drawnRaffle, at(DRAWN - 1), DRAWN).winners).toEqual([]);
    expect(competitionAsReached(drawnRaffle, at(DRAWN), DRAWN).winners).toEqual([
      { name: 'Ada', drawnAt: DRAWN },
    ]);
  });

  it('replays the same history on the video’s offsets', () => {
    const video = (seconds: number) => (stamp: number) =>
      stampReached(stamp, record(), { clock: 'video', seconds });
    const later = DRAWN + 86_400_000;
    expect(competitionAsReached(drawnRaffle, video(10), later)).toMatchObject({
      playing: false,
      winners: [],
    });
    expect(competitionAsReached(drawnRaffle, video(31), later)).toMatchObject({
      playing: true,
      openForParticipation: false,
    });
    expect(competitionAsReached(drawnRaffle, video(100), later).winners).toHaveLength(1);
  });

  it('shows a competition without stamps (from before them) as the server says', () => {
    const legacy = { openForParticipation: true, playing: true, winners: [{ name: 'Bo' }] };
    expect(competitionAsReached(legacy, () => false, START)).toEqual(legacy);
  });

  it('competitionReached: whether anything stamped is still to come', () => {
    expect(competitionReached(drawnRaffle, at(DRAWN - 1))).toBe(false);
    expect(competitionReached(drawnRaffle, at(DRAWN))).toBe(true);
  });
});

describe('state changes and entries', () => {
  it('records a change only when the state differs, with stamps that never go back', () => {
    const none = withStateChange([], { openForParticipation: false, playing: false }, opened, OPENED);
    expect(none).toEqual([opened]);
    expect(withStateChange(none, opened, { openForParticipation: true, playing: true }, OPENED + 5)).toEqual([
      opened,
    ]);
    const stepBack = withStateChange(none, opened, closed, OPENED - 1000);
    expect(stepBack.at(-1)).toEqual({ ...closed, at: OPENED });
  });

  it('keeps the last changes only', () => {
    let changes: CompetitionStateChange[] = [];
    let state = { openForParticipation: false, playing: false };
    for (let i = 0; i < COMPETITION_STATE_CHANGES_LIMIT + 10; i++) {
      const next = { openForParticipation: !state.openForParticipation, playing: true };
      changes = withStateChange(changes, state, next, START + i);
      state = next;
    }
    expect(changes).toHaveLength(COMPETITION_STATE_CHANGES_LIMIT);
    expect(changes.at(-1)?.at).toBe(START + COMPETITION_STATE_CHANGES_LIMIT + 9);
  });

  it('takes entries while open and for the grace after closing, never for one that was never open', () => {
    expect(competitionClosedAt([opened, closed])).toBe(CLOSED);
    expect(competitionClosedAt([opened])).toBeNull();
    expect(competitionClosedAt([{ at: START, openForParticipation: false, playing: true }])).toBeNull();
    expect(acceptsEntries(drawnRaffle, CLOSED + COMPETITION_LATE_ENTRY_GRACE_MS - 1)).toBe(true);
    expect(acceptsEntries(drawnRaffle, CLOSED + COMPETITION_LATE_ENTRY_GRACE_MS)).toBe(false);
    expect(acceptsEntries({ openForParticipation: false }, START)).toBe(false);
    expect(acceptsEntries({ openForParticipation: true }, START)).toBe(true);
  });
});

describe('noticeVideoDelayMs', () => {
  it('is the delay the player measured when it has one', () => {
    expect(noticeVideoDelayMs(3200, record({ broadcastDelayMs: 750 }))).toBe(3200);
    expect(noticeVideoDelayMs(0, record({ cdn: DELAYED_CDN_PROVIDER, cdnDelayMs: null }))).toBe(0);
  });

  it('falls back to the spec’s broadcast and CDN delays without a measurement', () => {
    const provider = record({ cdn: DELAYED_CDN_PROVIDER, broadcastDelayMs: null, cdnDelayMs: null });
    expect(noticeVideoDelayMs(null, provider)).toBe(DEFAULT_BROADCAST_DELAY_MS + 5000);
    expect(noticeVideoDelayMs(Number.NaN, record())).toBe(0);
  });
});
