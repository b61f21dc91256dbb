import { describe, expect, it } from 'vitest';
import {
  buildCalendarFile,
  calendarDuration,
  calendarUtcTime,
  escapeCalendarText,
  foldCalendarLine,
} from './calendar-file.ts';

/** UTF-8 octets: each %XX of the URI encoding is one. */
const octets = (text: string) => encodeURIComponent(text).replace(/%[0-9A-F]{2}/g, 'x').length;

const show = {
  uid: 'ev-1@live.example.com',
  stamp: Date.UTC(2026, 0, 2, 3, 4, 5),
  start: Date.UTC(2026, 0, 15, 18, 0),
  summary: 'Autumn show',
  url: 'https://live.example.com/widget/shop/campaign/c1/event/ev-1',
  productId: '-//Vitrine//Shows//EN',
};

describe('buildCalendarFile', () => {
  it('writes one VEVENT with UID, DTSTAMP, DTSTART in UTC, a DURATION, SUMMARY and URL, CRLF-ended', () => {
    const file = buildCalendarFile(show);
    expect(file).toBe(
      [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//Vitrine//Shows//EN',
        'CALSCALE:GREGORIAN',
        'METHOD:PUBLISH',
        'BEGIN:VEVENT',
        'UID:ev-1@live.example.com',
        'DTSTAMP:20260102T030405Z',
        'DTSTART:20260115T180000Z',
        'DURATION:PT1H',
        'SUMMARY:Autumn show',
        'URL:https://live.example.com/widget/shop/campaign/c1/event/ev-1',
        'END:VEVENT',
        'END:VCALENDAR',
        '',
      ].join('\r\n'),
    );
    expect(file.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
  });

  it('writes DTEND when the end is known', () => {
    const file = buildCalendarFile({ ...show, end: Date.UTC(2026, 0, 15, 19, 30) });
    expect(file).toContain('\r\nDTEND:20260115T193000Z\r\n');
    expect(file).not.toContain('DURATION');
  });

  it('escapes text and keeps a hostile name from adding properties', () => {
    const file = buildCalendarFile({
      ...show,
      summary: 'Sale; 50%, off\\now\r\nATTENDEE:mailto:x@example.com',
      description: 'Line one\nLine two',
    });
    expect(file).toContain('SUMMARY:Sale\\; 50%\\, off\\\\now\\nATTENDEE:mailto:x@example.com\r\n');
    expect(file).toContain('DESCRIPTION:Line one\\nLine two\r\n');
    expect(file.split('\r\n').filter((line) => line.startsWith('ATTENDEE'))).toEqual([]);
  });

  it('folds long lines at 75 octets, multi-byte characters kept whole, and unfolds to the original', () => {
    const summary = `Koreansk aften: ${'라이브 쇼핑 '.repeat(12)}and æøå`;
    const file = buildCalendarFile({ ...show, summary });
    const lines = file.split('\r\n');
    for (const line of lines) expect(octets(line)).toBeLessThanOrEqual(75);
    expect(lines.filter((line) => line.startsWith(' ')).length).toBeGreaterThan(1);
    const unfolded = file.replace(/\r\n /g, '');
    expect(unfolded).toContain(`SUMMARY:${summary}\r\n`);
  });
});

describe('the parts', () => {
  it('formats UTC times and durations', () => {
    expect(calendarUtcTime(Date.UTC(2026, 11, 31, 23, 59, 59, 999))).toBe('20261231T235959Z');
    expect(calendarDuration(90 * 60_000)).toBe('PT1H30M');
    expect(calendarDuration(26 * 3_600_000)).toBe('P1DT2H');
    expect(calendarDuration(0)).toBe('PT0S');
    expect(calendarDuration(45_000)).toBe('PT45S');
  });

  it('escapes TEXT', () => {
    expect(escapeCalendarText('a,b;c\\d\ne')).toBe('a\\,b\\;c\\\\d\\ne');
  });

  it('leaves a line of exactly 75 octets alone and folds one of 76', () => {
    expect(foldCalendarLine('x'.repeat(75))).toEqual(['x'.repeat(75)]);
    expect(foldCalendarLine('x'.repeat(76))).toEqual(['x'.repeat(75), ' x']);
  });
});
