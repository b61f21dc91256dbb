import type { ControlRoomStats } from '@vitrine/protocol';
import { describe, expect, it } from 'vitest';
import { elapsedSeconds, latestFigures } from './room-figures.ts';

const figures = (at: number, viewers = 0) => ({ at, viewers }) as ControlRoomStats;

describe('latestFigures', () => {
  it('keeps the newer figures by the server clock, whatever arrives last', () => {
    const pushed = { figures: figures(2_000, 5), receivedAt: 10 };
    const lateRead = { figures: figures(1_000, 3), receivedAt: 20 };
    expect(latestFigures(null, lateRead)).toBe(lateRead);
    expect(latestFigures(pushed, lateRead)).toBe(pushed);
    expect(latestFigures(lateRead, pushed)).toBe(pushed);
  });

  it('keeps the first arrival of the same figures (the timer counts from it)', () => {
    const first = { figures: figures(2_000), receivedAt: 10 };
    expect(latestFigures(first, { figures: figures(2_000), receivedAt: 99 })).toBe(first);
  });
});

describe('elapsedSeconds', () => {
  it('counts from the start to now while live, to the end once ended, nothing before', () => {
    expect(elapsedSeconds({ liveStartTime: null, liveEndTime: null }, 5_000)).toBeNull();
    expect(elapsedSeconds({ liveStartTime: 1_000, liveEndTime: null }, 61_000)).toBe(60);
    expect(elapsedSeconds({ liveStartTime: 1_000, liveEndTime: 11_000 }, 61_000)).toBe(10);
  });
});
