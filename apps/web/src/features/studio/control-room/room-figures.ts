import type { ControlRoomStats } from '@vitrine/protocol';

/** The room's figures and when this page received them (its own clock). */
export interface ReceivedFigures {
  figures: ControlRoomStats;
  receivedAt: number;
}

/**
 * The newer of two readings of the room's figures, by the server's clock: a fallback read that
 * answers late never undoes a newer push, and the same figures again keep their first arrival.
 */
export function latestFigures(current: ReceivedFigures | null, next: ReceivedFigures): ReceivedFigures {
  if (!current || next.figures.at > current.figures.at) return next;
  return current;
}

/**
 * Seconds the show has been live at `serverNow` (the server's clock as the page estimates it),
 * or up to its end; null before it went live.
 */
export function elapsedSeconds(
  figures: Pick<ControlRoomStats, 'liveStartTime' | 'liveEndTime'>,
  serverNow: number,
): number | null {
  if (figures.liveStartTime === null) return null;
  return ((figures.liveEndTime ?? serverNow) - figures.liveStartTime) / 1000;
}
