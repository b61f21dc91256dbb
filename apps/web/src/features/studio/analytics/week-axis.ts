/** A week in seconds: the weekly chart's x is each week's start, in seconds. */
export const WEEK_SECONDS = 7 * 24 * 60 * 60;

/**
 * The weekly chart's x span (issue 33 item 13): half a week either side of the first and last
 * week, so one week of data is one tick in the middle of a week-wide axis, not a span of years
 * with its labels over each other (the chart's own range for a lone point).
 */
export function weekAxisRange(weekStarts: readonly number[]): [number, number] | undefined {
  if (weekStarts.length === 0) return undefined;
  const first = Math.min(...weekStarts);
  const last = Math.max(...weekStarts);
  return [first - WEEK_SECONDS / 2, last + WEEK_SECONDS / 2];
}

/** The room one tick's label takes (a medium date), in CSS pixels. */
const LABEL_WIDTH_PX = 110;

/**
 * The weekly chart's ticks: the weeks themselves (so a tick's date is a week's start), every
 * k-th week when the axis is too narrow to label each one.
 */
export function weekTicks(weekStarts: readonly number[], axisWidthPx: number): number[] {
  const room = Math.max(1, Math.floor(axisWidthPx / LABEL_WIDTH_PX));
  const step = Math.max(1, Math.ceil(weekStarts.length / room));
  return weekStarts.filter((_week, index) => index % step === 0);
}
