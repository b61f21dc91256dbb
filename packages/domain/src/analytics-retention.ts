/**
 * The retention curve of a show: for k = 0…length, the share of its viewers (0…1) who watched
 * at least k minutes. `histogram` maps minutes watched to how many viewers watched that long.
 * Starts at 1 (everybody watched at least 0 minutes) and never rises.
 */
export function retentionCurve(histogram: ReadonlyMap<number, number>, length?: number): number[] {
  let total = 0;
  let longest = 0;
  for (const [minutes, viewers] of histogram) {
    if (viewers <= 0 || minutes < 0) continue;
    total += viewers;
    longest = Math.max(longest, minutes);
  }
  const points = Math.max(0, Math.floor(length ?? longest));
  if (total === 0) return Array.from({ length: points + 1 }, () => 0);
  // Viewers who watched at least k minutes: a suffix sum over the histogram.
  const atLeast = new Array<number>(points + 2).fill(0);
  for (const [minutes, viewers] of histogram) {
    if (viewers <= 0 || minutes < 0) continue;
    const index = Math.min(Math.floor(minutes), points + 1);
    atLeast[index] = (atLeast[index] ?? 0) + viewers;
  }
  for (let k = points; k >= 0; k--) atLeast[k] = (atLeast[k] ?? 0) + (atLeast[k + 1] ?? 0);
  return atLeast.slice(0, points + 1).map((viewers) => viewers / total);
}

/** Average watch time in seconds per viewer; 0 without viewers. */
export function averageWatchSeconds(totalSeconds: number, viewers: number): number {
  return viewers > 0 ? Math.round(totalSeconds / viewers) : 0;
}

const WEEK_MS = 7 * 24 * 60 * 60_000;
/** 1970-01-01 was a Thursday; weeks start on Monday (ISO 8601), 00:00 UTC. */
const MONDAY_OFFSET_MS = 4 * 24 * 60 * 60_000;

/** The Monday 00:00 UTC that starts the week of `time`. */
export function weekStartUtc(time: number): number {
  return Math.floor((time - MONDAY_OFFSET_MS) / WEEK_MS) * WEEK_MS + MONDAY_OFFSET_MS;
}

export interface WeeklyShowFigures {
  startsAt: number;
  viewers: number;
  watchSeconds: number;
  orders: number;
}

export interface WeekTrend {
  weekStart: number;
  shows: number;
  viewers: number;
  watchSeconds: number;
  orders: number;
}

/** Shows summed per week (oldest first), with empty weeks between filled in so trends read true. */
export function weeklyTrend(shows: readonly WeeklyShowFigures[]): WeekTrend[] {
  if (shows.length === 0) return [];
  const weeks = new Map<number, WeekTrend>();
  for (const show of shows) {
    const weekStart = weekStartUtc(show.startsAt);
    const week = weeks.get(weekStart) ?? { weekStart, shows: 0, viewers: 0, watchSeconds: 0, orders: 0 };
    week.shows += 1;
    week.viewers += show.viewers;
    week.watchSeconds += show.watchSeconds;
    week.orders += show.orders;
    weeks.set(weekStart, week);
  }
  const starts = [...weeks.keys()].sort((a, b) => a - b);
  const first = starts[0] ?? 0;
  const last = starts[starts.length - 1] ?? 0;
  const trend: WeekTrend[] = [];
  for (let week = first; week <= last; week += WEEK_MS) {
    trend.push(weeks.get(week) ?? { weekStart: week, shows: 0, viewers: 0, watchSeconds: 0, orders: 0 });
  }
  return trend;
}
