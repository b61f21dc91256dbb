/**
 * Pre-recorded premieres (issue 15 item 6): a host uploads a video and schedules it; at the
 * scheduled time it plays as live for every viewer, in step with the server's clock, then it is
 * the replay. The rules here are pure; the server's premiere feature runs them.
 */

/** Where a premiere stands: uploaded → scheduled → playing → ended, or failed (with a reason). */
export const PREMIERE_STATES = ['ready', 'scheduled', 'playing', 'ended', 'failed'] as const;
export type PremiereState = (typeof PREMIERE_STATES)[number];

/** The largest premiere upload (512 MiB): about 4 hours of 720p at 280 kbit/s, or 1 h at 1.1 Mbit/s. */
export const PREMIERE_MAX_BYTES = 512 * 1024 ** 2;

/** The longest premiere (4 hours): a show, not a channel. */
export const PREMIERE_MAX_SECONDS = 4 * 3600;

/**
 * How close to its end a premiere counts as played out: less than one live segment remains, so
 * an ffmpeg exiting there finished the file (rather than crashed) and the show ends into its replay.
 */
export const PREMIERE_END_SLACK_SECONDS = 1;

/**
 * Where in the file a premiere is at `now`: the seconds since it started, so a viewer joining
 * late, an ffmpeg restarted after a crash and a server back from a restart all start at the
 * current point. Null before the start; `duration` once it has played out.
 */
export function premiereOffsetSeconds(startsAt: number, durationSeconds: number, now: number): number | null {
  if (now < startsAt) return null;
  return Math.min(durationSeconds, (now - startsAt) / 1000);
}

/** Whether what is left of a premiere at `now` is less than one segment: it has played out. */
export function premierePlayedOut(startsAt: number, durationSeconds: number, now: number): boolean {
  const offset = premiereOffsetSeconds(startsAt, durationSeconds, now);
  return offset !== null && durationSeconds - offset < PREMIERE_END_SLACK_SECONDS;
}

export type PremiereScheduleRefusal = 'not-uploaded' | 'in-the-past' | 'already-started' | 'show-over';

/**
 * Whether a premiere may be (re)scheduled to `startsAt`: it needs its file, a time still to come,
 * and a show that neither started (playing, live) nor ended.
 */
export function checkPremiereSchedule(input: {
  state: PremiereState | null;
  startsAt: number;
  now: number;
  /** The show's stream is receiving, live or ended (someone else broadcasts, or it is over). */
  showStreaming: boolean;
}): { ok: true } | { ok: false; reason: PremiereScheduleRefusal } {
  if (input.state === null || input.state === 'failed') return { ok: false, reason: 'not-uploaded' };
  if (input.state === 'playing') return { ok: false, reason: 'already-started' };
  if (input.state === 'ended') return { ok: false, reason: 'show-over' };
  if (input.showStreaming) return { ok: false, reason: 'already-started' };
  if (input.startsAt <= input.now) return { ok: false, reason: 'in-the-past' };
  return { ok: true };
}

/** Whether a new file may replace the premiere's (not once it started playing or ended). */
export const premiereReplaceable = (state: PremiereState | null): boolean =>
  state === null || state === 'ready' || state === 'scheduled' || state === 'failed';
