/**
 * Wall-clock times in a named time zone (IANA, e.g. `Europe/Copenhagen`) and the instants they
 * are. The studio schedules a show in the store's time zone whatever the browser's zone is, so
 * the conversion cannot lean on `new Date(y, m, d)` (the machine's zone). Pure: uses the ICU time
 * zone data that every JavaScript engine ships with through Intl.
 */

/** A wall-clock time to the minute, as an `<input type="datetime-local">` holds it. */
export const LOCAL_DATE_TIME_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Whether the name is a time zone this engine knows (an IANA name such as `America/New_York`, or `UTC`). */
export function isValidTimeZone(timeZone: string): boolean {
  if (timeZone.length === 0 || timeZone.length > 64) return false;
  try {
    formatterOf(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The wall-clock fields of an instant in a zone; the instant's seconds are kept, milliseconds dropped. */
function wallClock(instant: number, timeZone: string) {
  const parts: Record<string, number> = {};
  for (const part of formatterOf(timeZone).formatToParts(new Date(instant))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year ?? 1970,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

/** How far the zone's wall clock is ahead of UTC at an instant, in ms (+3 600 000 for CET). */
export function timeZoneOffsetMs(instant: number, timeZone: string): number {
  const wall = wallClock(instant, timeZone);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return asUtc - (instant - (((instant % 1000) + 1000) % 1000));
}

/**
 * The instant a wall-clock time (`YYYY-MM-DDTHH:mm`) in a zone is. A time that happens twice
 * (clocks turned back) is the earlier one; a time that never happens (clocks turned forward) is
 * moved forward by the gap, as Temporal's "compatible" disambiguation does. Null for a malformed
 * or impossible date or an unknown zone.
 */
export function zonedLocalToUtc(local: string, timeZone: string): number | null {
  const match = LOCAL_DATE_TIME_PATTERN.exec(local);
  if (!match || !isValidTimeZone(timeZone)) return null;
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || hour > 23 || minute > 59) return null;
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  if (new Date(asUtc).getUTCDate() !== day) return null; // 31 April and the like
  // The zone's offsets a day either side cover any transition near this time.
  const before = timeZoneOffsetMs(asUtc - DAY_MS, timeZone);
  const after = timeZoneOffsetMs(asUtc + DAY_MS, timeZone);
  const fits = [before, after]
    .map((offset) => asUtc - offset)
    .filter((instant) => asUtc - timeZoneOffsetMs(instant, timeZone) === instant);
  if (fits.length > 0) return Math.min(...fits);
  return asUtc - before;
}

/** The wall-clock time (`YYYY-MM-DDTHH:mm`) of an instant in a zone. */
export function utcToZonedLocal(instant: number, timeZone: string): string {
  const wall = wallClock(instant, timeZone);
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  return `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}T${pad(wall.hour)}:${pad(wall.minute)}`;
}
