import { CONTROL_CENTER_CUE_SOURCE } from './constants.ts';
import type { CueFields } from './cue-timing.ts';

/**
 * The most products the control room presents at once: a host talks about a few things at a
 * time, and viewers' players show the latest one as "now showing" and the others in the list.
 */
export const MAX_PRESENTED_PRODUCTS = 3;

/** How far back the room's per-minute rates look: the last minute. */
export const ROOM_RATE_WINDOW_MS = 60_000;

/**
 * How old a player's delay report may be and still count in the room's median: players report
 * with their watch heartbeat (every 30 s), so two and a half intervals keep every playing viewer.
 */
export const ROOM_DELAY_REPORT_MAX_AGE_MS = 75_000;

/** One product's presentation by the control room: from `start` until `end` (null while presented). */
export interface Presentation {
  /** The event product's uid. */
  uid: string;
  start: number;
  end: number | null;
}

/** A cue of one event product (the fields the control room reads). */
export interface ProductCue extends CueFields {
  uid: string;
}

/**
 * The control room's presentations among a show's cues, oldest first: control-center cues that
 * were not deleted. The cues are the stored history (the replay's product chapters come from
 * them); the open ones are what is presented now.
 */
export function presentationsOf(cues: readonly ProductCue[]): Presentation[] {
  return cues
    .filter((cue) => cue.source === CONTROL_CENTER_CUE_SOURCE && !cue.deleted)
    .map((cue) => ({
      uid: cue.uid,
      start: cue.presentationStartTimestamp,
      end: cue.presentationEndTimestamp,
    }))
    .sort((a, b) => a.start - b.start);
}

/** The products presented now (open presentations), oldest first, each once. */
export function presentedNow(presentations: readonly Presentation[]): Presentation[] {
  const open = new Map<string, Presentation>();
  for (const presentation of presentations)
    if (presentation.end === null && !open.has(presentation.uid)) open.set(presentation.uid, presentation);
  return [...open.values()];
}

/** Why the control room refuses to present a product, or null when it may. */
export type PresentRefusal = 'already-presented' | 'too-many';

/**
 * Whether one more product may be presented: not one presented already, and not more than
 * MAX_PRESENTED_PRODUCTS at once (the host stops one first: replacing the oldest unasked would
 * take a product off viewers' screens the host may still be talking about).
 */
export function presentRefusal(presented: readonly Presentation[], uid: string): PresentRefusal | null {
  if (presented.some((presentation) => presentation.uid === uid)) return 'already-presented';
  if (presented.length >= MAX_PRESENTED_PRODUCTS) return 'too-many';
  return null;
}

/** The median of some numbers (the mean of the middle two for an even count); null for none. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * The product keys 1–9 of the control room's rail: key "1" presents the first product of the
 * line-up. Null for any other key or a position past the line-up.
 */
export function railIndexOfKey(key: string, lineupLength: number): number | null {
  if (!/^[1-9]$/.test(key)) return null;
  const index = Number(key) - 1;
  return index < lineupLength ? index : null;
}
