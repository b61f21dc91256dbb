import { utcToZonedLocal } from '@vitrine/domain';

/**
 * An instant as the store's staff read it: date and time in the show's time zone, in the studio's
 * language, with the zone named when it is not the browser's own.
 */
export function formatShowTime(instant: number, timeZone: string, language: string): string {
  const sameZone = Intl.DateTimeFormat().resolvedOptions().timeZone === timeZone;
  return new Intl.DateTimeFormat(language, {
    timeZone,
    dateStyle: 'medium',
    timeStyle: 'short',
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
