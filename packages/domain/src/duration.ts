/**
 * Formats a duration as minutes:seconds with two-digit seconds (spec §4, §9): 75 s → "1:15",
 * 3725 s → "62:05". Negative durations count as zero; fractions are truncated.
 */
export function formatDuration(totalSeconds: number): string {
  const whole = Number.isFinite(totalSeconds) ? Math.max(0, Math.floor(totalSeconds)) : 0;
  const minutes = Math.floor(whole / 60);
  const seconds = whole % 60;
  return `${minutes}:${String(seconds).padStart(2, '0')}`;
}
