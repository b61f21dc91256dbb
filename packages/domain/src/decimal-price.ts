// Prices as people write them in spreadsheets ("249.00", "1,249.50", "249,5") ↔ integer minor units.

/**
 * Minor units of a decimal amount with at most `digits` decimals, or null when `text` is not one.
 * "." or "," may be the decimal mark; the other may group thousands ("1,249.00", "1.249,00").
 */
export function parseDecimalPrice(text: string, digits = 2): number | null {
  const trimmed = text.trim().replace(/\s/g, '');
  if (!/^\d[\d.,]*$/.test(trimmed)) return null;
  const lastMark = Math.max(trimmed.lastIndexOf('.'), trimmed.lastIndexOf(','));
  // A last mark followed by exactly three digits groups thousands ("1,249"), unless it is the only
  // mark in a currency with three decimals; a price like "1.249" is read as 1249.
  const fraction = lastMark === -1 ? '' : trimmed.slice(lastMark + 1);
  const isDecimalMark = lastMark !== -1 && fraction.length !== 3;
  const whole = (isDecimalMark ? trimmed.slice(0, lastMark) : trimmed).replace(/[.,]/g, '');
  const decimals = isDecimalMark ? fraction : '';
  if (!/^\d+$/.test(whole) || !/^\d*$/.test(decimals) || decimals.length > digits) return null;
  if (isDecimalMark && decimals.length === 0) return null;
  const value = Number(whole) * 10 ** digits + Number(decimals.padEnd(digits, '0') || '0');
  return Number.isSafeInteger(value) ? value : null;
}

/** Minor units as a decimal with `digits` decimals and "." as mark: 24900 → "249.00". */
export function formatDecimalPrice(minorUnits: number, digits = 2): string {
  if (digits === 0) return String(minorUnits);
  const text = String(Math.abs(minorUnits)).padStart(digits + 1, '0');
  return `${minorUnits < 0 ? '-' : ''}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}
