/**
 * An iCalendar file (RFC 5545) with one event, for viewers to add a show to their calendar.
 * Pure: the server answers it at a public route; tests check the format line by line.
 */

/** How long a show is put in a calendar when its end is not known yet. */
export const SHOW_CALENDAR_DEFAULT_DURATION_MS = 60 * 60_000;

/** RFC 5545 §3.1: content lines are folded so none is longer than 75 octets (CRLF excluded). */
const MAX_LINE_OCTETS = 75;

export interface CalendarEvent {
  /** Globally unique and stable, so adding the file again updates the entry (e.g. `<id>@host`). */
  uid: string;
  /** When the file was made (DTSTAMP), ms since the epoch. */
  stamp: number;
  start: number;
  /** The end, ms since the epoch; `durationMs` when unknown. */
  end?: number | null;
  durationMs?: number;
  summary: string;
  description?: string;
  url?: string;
  /** The product name in PRODID, e.g. `-//Vitrine//Shows//EN`. */
  productId: string;
}

/** An instant as an RFC 5545 UTC DATE-TIME: `20260115T180000Z`. */
export function calendarUtcTime(instant: number): string {
  return new Date(instant)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z');
}

/** A duration as an RFC 5545 DURATION value: `PT1H30M`, `P1DT2H`, `PT0S`. */
export function calendarDuration(ms: number): string {
  let seconds = Math.max(0, Math.round(ms / 1000));
  const days = Math.floor(seconds / 86_400);
  seconds -= days * 86_400;
  const hours = Math.floor(seconds / 3_600);
  seconds -= hours * 3_600;
  const minutes = Math.floor(seconds / 60);
  seconds -= minutes * 60;
  const time = `${hours ? `${hours}H` : ''}${minutes ? `${minutes}M` : ''}${seconds ? `${seconds}S` : ''}`;
  if (!days && !time) return 'PT0S';
  return `P${days ? `${days}D` : ''}${time ? `T${time}` : ''}`;
}

/** RFC 5545 §3.3.11 TEXT: backslash, semicolon and comma escaped, line breaks as `\n`. */
export function escapeCalendarText(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n')
    .replace(/\p{Cc}/gu, (control) => (control === '\t' ? ' ' : ''));
}

/**
 * Folds a content line into pieces of at most 75 octets of UTF-8, each continuation starting
 * with a space (RFC 5545 §3.1), never splitting a character.
 */
export function foldCalendarLine(line: string): string[] {
  const lines: string[] = [];
  let current = '';
  let octets = 0;
  for (const character of line) {
    const size = utf8Octets(character);
    // A continuation's leading space counts toward its 75 octets.
    if (octets + size > MAX_LINE_OCTETS) {
      lines.push(current);
      current = ` ${character}`;
      octets = 1 + size;
    } else {
      current += character;
      octets += size;
    }
  }
  lines.push(current);
  return lines;
}

/** How many octets a character takes in UTF-8 (the domain has no TextEncoder: it runs anywhere). */
function utf8Octets(character: string): number {
  const code = character.codePointAt(0) ?? 0;
  return code <= 0x7f ? 1 : code <= 0x7ff ? 2 : code <= 0xffff ? 3 : 4;
}

/** The calendar file's text: CRLF line endings, folded lines, one VEVENT. */
export function buildCalendarFile(event: CalendarEvent): string {
  const end =
    event.end !== undefined && event.end !== null && event.end > event.start
      ? `DTEND:${calendarUtcTime(event.end)}`
      : `DURATION:${calendarDuration(event.durationMs ?? SHOW_CALENDAR_DEFAULT_DURATION_MS)}`;
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:${event.productId}`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:${event.uid}`,
    `DTSTAMP:${calendarUtcTime(event.stamp)}`,
    `DTSTART:${calendarUtcTime(event.start)}`,
    end,
    `SUMMARY:${escapeCalendarText(event.summary)}`,
    ...(event.description ? [`DESCRIPTION:${escapeCalendarText(event.description)}`] : []),
    // URI values are not TEXT: they are written as they are (RFC 5545 §3.3.13).
    ...(event.url ? [`URL:${event.url}`] : []),
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.flatMap(foldCalendarLine).join('\r\n')}\r\n`;
}
