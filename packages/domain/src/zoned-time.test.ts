import { describe, expect, it } from 'vitest';
import { isValidTimeZone, timeZoneOffsetMs, utcToZonedLocal, zonedLocalToUtc } from './zoned-time.ts';

const HOUR = 3_600_000;

describe('zonedLocalToUtc', () => {
  it('reads a winter time in Copenhagen as UTC+1', () => {
    expect(zonedLocalToUtc('2026-01-15T19:00', 'Europe/Copenhagen')).toBe(Date.UTC(2026, 0, 15, 18, 0));
  });

  it('reads a summer time in Copenhagen as UTC+2', () => {
    expect(zonedLocalToUtc('2026-07-01T19:00', 'Europe/Copenhagen')).toBe(Date.UTC(2026, 6, 1, 17, 0));
  });

  it('reads zones west of UTC and with half-hour offsets', () => {
    expect(zonedLocalToUtc('2026-03-01T09:30', 'America/New_York')).toBe(Date.UTC(2026, 2, 1, 14, 30));
    expect(zonedLocalToUtc('2026-03-01T09:30', 'Asia/Kolkata')).toBe(Date.UTC(2026, 2, 1, 4, 0));
    expect(zonedLocalToUtc('2026-03-01T09:30', 'Asia/Seoul')).toBe(Date.UTC(2026, 2, 1, 0, 30));
  });

  it('moves a time skipped when clocks go forward on by the gap (29 March 2026, 02:30 Copenhagen)', () => {
    expect(zonedLocalToUtc('2026-03-29T02:30', 'Europe/Copenhagen')).toBe(Date.UTC(2026, 2, 29, 1, 30));
    expect(utcToZonedLocal(Date.UTC(2026, 2, 29, 1, 30), 'Europe/Copenhagen')).toBe('2026-03-29T03:30');
  });

  it('takes the earlier of a time that happens twice when clocks go back (25 October 2026, 02:30)', () => {
    expect(zonedLocalToUtc('2026-10-25T02:30', 'Europe/Copenhagen')).toBe(Date.UTC(2026, 9, 25, 0, 30));
  });

  it('refuses malformed input, impossible dates and unknown zones', () => {
    expect(zonedLocalToUtc('2026-04-31T10:00', 'Europe/Copenhagen')).toBeNull();
    expect(zonedLocalToUtc('2026-13-01T10:00', 'Europe/Copenhagen')).toBeNull();
    expect(zonedLocalToUtc('2026-01-01T24:00', 'Europe/Copenhagen')).toBeNull();
    expect(zonedLocalToUtc('2026-01-01 10:00', 'Europe/Copenhagen')).toBeNull();
    expect(zonedLocalToUtc('2026-01-01T10:00', 'Mars/Olympus_Mons')).toBeNull();
  });
});

describe('utcToZonedLocal', () => {
  it('is the inverse of zonedLocalToUtc for every hour of a year with transitions', () => {
    for (const zone of ['Europe/Copenhagen', 'America/New_York', 'Australia/Sydney', 'UTC']) {
      for (let instant = Date.UTC(2026, 0, 1); instant < Date.UTC(2027, 0, 1); instant += HOUR) {
        const local = utcToZonedLocal(instant, zone);
        const back = zonedLocalToUtc(local, zone) as number;
        // Twice-happening hours map back to the earlier instant, which shows the same wall clock.
        expect(utcToZonedLocal(back, zone)).toBe(local);
        expect(back <= instant).toBe(true);
      }
    }
    // 35,040 conversions through Intl: about a second alone, over 5 s on a saturated machine.
  }, 30_000);

  it('drops seconds', () => {
    expect(utcToZonedLocal(Date.UTC(2026, 5, 1, 12, 34, 56, 789), 'UTC')).toBe('2026-06-01T12:34');
  });
});

describe('timeZoneOffsetMs and isValidTimeZone', () => {
  it('tells the offset, with daylight saving time', () => {
    expect(timeZoneOffsetMs(Date.UTC(2026, 0, 1), 'Europe/Oslo')).toBe(HOUR);
    expect(timeZoneOffsetMs(Date.UTC(2026, 6, 1), 'Europe/Oslo')).toBe(2 * HOUR);
    expect(timeZoneOffsetMs(Date.UTC(2026, 6, 1, 0, 0, 0, 500), 'UTC')).toBe(0);
  });

  it('knows IANA names and refuses others', () => {
    expect(isValidTimeZone('Europe/Warsaw')).toBe(true);
    expect(isValidTimeZone('UTC')).toBe(true);
    expect(isValidTimeZone('')).toBe(false);
    expect(isValidTimeZone('Europe/Nowhere')).toBe(false);
  });
});
