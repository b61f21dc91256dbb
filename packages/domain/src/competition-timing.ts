import { broadcastDelayMs, type CueTimingRecord, cdnDelayMs, timeInVideo } from './cue-timing.ts';
import { streamClockCueTime } from './stream-clock.ts';

/**
 * Competitions on the stream clock (issue 15 §9): the server stamps each change of a competition
 * (opened, closed, presented, drawn) with its wall-clock time, and a viewer sees the change when
 * the video reaches that moment — not when the message arrives, so a 4 s-delayed viewer does not
 * see the poll before the host announces it.
 */

/** One change of what a competition offers, stamped (ms since the epoch) by the server as it happened. */
export interface CompetitionStateChange {
  at: number;
  openForParticipation: boolean;
  playing: boolean;
}

/**
 * Where a viewer is, to tell which stamped moments they have reached:
 * - `stream`: a live stream with program date times — the wall time of the frame on screen;
 * - `video`: a replay (or any video without a live clock) — its position, stamps placed on it as cues are;
 * - `wall`: a live show without a stream clock (an external provider's stream, a planned show) —
 *   the viewer's clock, stamps shifted by the event's broadcast and CDN delays (spec §4 "Product timing").
 */
export type ViewerMoment =
  | { clock: 'stream'; playingDateMs: number }
  | { clock: 'video'; seconds: number }
  | { clock: 'wall'; nowMs: number };

/** Whether a viewer at `moment` has reached what happened at `stampMs` (the same placement product cues get). */
export function stampReached(stampMs: number, record: CueTimingRecord, moment: ViewerMoment): boolean {
  switch (moment.clock) {
    case 'stream':
      return moment.playingDateMs >= streamClockCueTime(stampMs, record);
    case 'video':
      return moment.seconds >= timeInVideo(stampMs, record);
    case 'wall':
      return moment.nowMs >= stampMs + broadcastDelayMs(record) + cdnDelayMs(record);
  }
}

/**
 * How long after its closing a competition still takes entries: a viewer sees "closed" only when
 * the video reaches the moment the host closed it, so entries sent while their video still showed
 * it open count. Covers the delays HLS viewers have (a few seconds) with room to spare.
 */
export const COMPETITION_LATE_ENTRY_GRACE_MS = 15_000;

/** The most stamped changes a competition keeps (the oldest are dropped). */
export const COMPETITION_STATE_CHANGES_LIMIT = 50;

/** The stamp of the competition's latest closing for entries; null while open or never opened. */
export function competitionClosedAt(changes: readonly CompetitionStateChange[]): number | null {
  const last = changes.at(-1);
  if (!last || last.openForParticipation) return null;
  for (let i = changes.length - 2; i >= 0; i--) {
    const change = changes[i] as CompetitionStateChange;
    if (change.openForParticipation) return (changes[i + 1] as CompetitionStateChange).at;
  }
  return null;
}

/** Whether the server takes an entry at `nowMs`: while open, and for the grace after it closed. */
export function acceptsEntries(
  competition: { openForParticipation: boolean; stateChanges?: readonly CompetitionStateChange[] },
  nowMs: number,
): boolean {
  if (competition.openForParticipation) return true;
  const closedAt = competitionClosedAt(competition.stateChanges ?? []);
  return closedAt !== null && nowMs < closedAt + COMPETITION_LATE_ENTRY_GRACE_MS;
}

/**
 * The changes after recording `next` at `at`: appended when it differs from the state in force
 * (`current`, the last change or the competition's flags), kept to the last
 * COMPETITION_STATE_CHANGES_LIMIT.
 */
export function withStateChange(
  changes: readonly CompetitionStateChange[],
  current: { openForParticipation: boolean; playing: boolean },
  next: { openForParticipation: boolean; playing: boolean },
  at: number,
): CompetitionStateChange[] {
  if (current.openForParticipation === next.openForParticipation && current.playing === next.playing) {
    return [...changes];
  }
  // Stamps never go back, so "the last reached change" stays well defined under clock steps.
  const stamp = Math.max(at, changes.at(-1)?.at ?? at);
  return [
    ...changes,
    { at: stamp, openForParticipation: next.openForParticipation, playing: next.playing },
  ].slice(-COMPETITION_STATE_CHANGES_LIMIT);
}

/** The parts of a competition its timing reads. */
export interface StampedCompetition {
  openForParticipation: boolean;
  playing: boolean;
  stateChanges?: readonly CompetitionStateChange[];
  winners?: ReadonlyArray<{ name: string; drawnAt?: number | undefined }>;
}

/**
 * The competition as a viewer should see it, given which stamps they have reached and the time
 * now: the state of the last change reached (before the first one, neither open nor presented);
 * open for entries only while the server still takes them (so a replay never offers to join a
 * closed one); winners only once their draw is reached. A competition without stamps (from before
 * they existed) shows as the server says.
 */
export function competitionAsReached<C extends StampedCompetition>(
  competition: C,
  reached: (stampMs: number) => boolean,
  nowMs: number,
): C {
  const changes = competition.stateChanges ?? [];
  let state = { openForParticipation: competition.openForParticipation, playing: competition.playing };
  if (changes.length > 0) {
    state = { openForParticipation: false, playing: false };
    for (const change of changes) if (reached(change.at)) state = change;
  }
  const winners = competition.winners?.filter(
    (winner) => winner.drawnAt === undefined || reached(winner.drawnAt),
  );
  return {
    ...competition,
    openForParticipation: state.openForParticipation && acceptsEntries(competition, nowMs),
    playing: state.playing,
    ...(winners ? { winners } : {}),
  };
}

/** Whether the viewer has reached everything stamped on the competition (nothing of it still to come). */
export function competitionReached(
  competition: StampedCompetition,
  reached: (stampMs: number) => boolean,
): boolean {
  const stamps = [
    ...(competition.stateChanges ?? []).map((change) => change.at),
    ...(competition.winners ?? []).flatMap((winner) =>
      winner.drawnAt === undefined ? [] : [winner.drawnAt],
    ),
  ];
  return stamps.every(reached);
}
