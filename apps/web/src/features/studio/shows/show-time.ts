import { INTL_TAG_BY_LOCALE, utcToZonedLocal } from '@vitrine/domain';
import type { Locale } from '@vitrine/protocol/vocabulary';

/**
 * An instant as the store's staff read it: date and time in the show's time zone, in the studio's
 * language, with the zone named when it is not the browser's own.
 */
export function formatShowTime(instant: number, timeZone: string, language: string): string {
  const sameZone = Intl.DateTimeFormat().resolvedOptions().timeZone === timeZone;
  // dateStyle/timeStyle cannot be combined with timeZoneName, so the fields are spelled out.
  return new Intl.DateTimeFormat(INTL_TAG_BY_LOCALE[language as Locale] ?? language, {
    timeZone,
    weekday: 'short',
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    ...(sameZone ? {} : { timeZoneName: 'short' }),
  }).format(instant);
}

/** The `<input type="datetime-local">` value of an instant in a zone. */
export const localInputValue = (instant: number, timeZone: string) => utcToZonedLocal(instant, timeZone);

/** The IANA time zones the browser knows, for the form's list (the server checks the name again). */
export function knownTimeZones(): string[] {
  const intl = Intl as typeof Intl & { supportedValuesOf?: (key: 'timeZone') => string[] };
  return intl.supportedValuesOf?.('timeZone') ?? ['UTC', 'Europe/Copenhagen'];
}
