import type { CsvFile } from '@vitrine/protocol';

/**
 * Saves a CSV the server answered (as JSON: calls carry a bearer, so a plain link could not
 * download it). A byte-order mark makes spreadsheets read the text as UTF-8.
 */
export function saveCsv(file: CsvFile): void {
  const blob = new Blob(['\ufeff', file.csv], { type: 'text/csv;charset=utf-8' });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = file.filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}

/** A date input's value (yyyy-mm-dd, the browser's day) as milliseconds: its start, or the next day's. */
export function dayStart(value: string, nextDay = false): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const [year, month, day] = value.split('-').map(Number) as [number, number, number];
  return new Date(year, month - 1, day + (nextDay ? 1 : 0)).getTime();
}
