/**
 * Competition rules of spec §4 "Competitions" and §5: which competition the overlay shows, how
 * the list is ordered, the description fallback, and a viewer's state. Pure: the player and the
 * server both use them.
 */

import { MARKUP_ENTITIES } from './html-to-text.ts';

/** The parts of a competition presentation these rules read. */
export interface CompetitionLike {
  uid: string;
  name: string;
  presentationPrimaryText: string;
  openForParticipation: boolean;
  playing: boolean;
  cues: ReadonlyArray<{ start: number }>;
  /** Drawn winners; absent is read as none drawn. */
  winners?: ReadonlyArray<unknown>;
}

/** What the viewer has done, from the user document. */
export interface CompetitionViewer {
  competitionsParticipated: readonly string[];
  competitionsDismissed: readonly string[];
}

export const hasParticipated = (competition: CompetitionLike, viewer: CompetitionViewer): boolean =>
  viewer.competitionsParticipated.includes(competition.uid);

export const hasDismissed = (competition: CompetitionLike, viewer: CompetitionViewer): boolean =>
  viewer.competitionsDismissed.includes(competition.uid);

/** Whether winners have been drawn: from then on joining has no chance to win, so it is not offered. */
export const hasWinnersDrawn = (competition: CompetitionLike): boolean =>
  (competition.winners?.length ?? 0) > 0;

/**
 * The overlay shows a competition that is playing, not dismissed, open and not participated —
 * and not drawn yet, since a drawn one has nothing left to join.
 */
export function isCompetitionOverlayShown(competition: CompetitionLike, viewer: CompetitionViewer): boolean {
  return (
    competition.playing &&
    !hasDismissed(competition, viewer) &&
    competition.openForParticipation &&
    !hasWinnersDrawn(competition) &&
    !hasParticipated(competition, viewer)
  );
}

/** The competition the overlay presents: the first of the list order that qualifies, if any. */
export function overlayCompetition<C extends CompetitionLike>(
  competitions: readonly C[],
  viewer: CompetitionViewer,
): C | null {
  return sortCompetitions(competitions, viewer).find((c) => isCompetitionOverlayShown(c, viewer)) ?? null;
}

/** The latest cue start of a competition; -Infinity when it has no cue. */
export function latestCue(competition: CompetitionLike): number {
  let latest = Number.NEGATIVE_INFINITY;
  for (const cue of competition.cues) latest = Math.max(latest, cue.start);
  return latest;
}

/**
 * The competitions list: only open ones or ones already participated in, sorted open first,
 * then not participated, then latest cue first. Ties keep their given order.
 */
export function sortCompetitions<C extends CompetitionLike>(
  competitions: readonly C[],
  viewer: CompetitionViewer,
): C[] {
  return competitions
    .filter((c) => c.openForParticipation || hasParticipated(c, viewer))
    .map((competition, index) => ({ competition, index }))
    .sort((a, b) => {
      const open = Number(b.competition.openForParticipation) - Number(a.competition.openForParticipation);
      if (open !== 0) return open;
      const fresh =
        Number(hasParticipated(a.competition, viewer)) - Number(hasParticipated(b.competition, viewer));
      if (fresh !== 0) return fresh;
      const cueA = latestCue(a.competition);
      const cueB = latestCue(b.competition);
      if (cueA !== cueB) return cueB > cueA ? 1 : -1;
      return a.index - b.index;
    })
    .map(({ competition }) => competition);
}

/**
 * Tags that break a line or start a block: they stand between words, so they become a space.
 * Any other tag (b, i, span, a, img, …) sits inside a word's flow and is removed without one,
 * so "colour</b>!" reads "colour!".
 */
const BLOCK_TAG =
  /<\/?(?:address|article|aside|blockquote|br|dd|div|dl|dt|figcaption|figure|footer|h[1-6]|header|hr|li|main|nav|ol|p|pre|section|table|tbody|td|tfoot|th|thead|tr|ul)\b[^>]*>/gi;

/** Plain text of host-tool markup: tags removed, common entities decoded, whitespace collapsed. */
export function stripMarkup(markup: string): string {
  return markup
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(BLOCK_TAG, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (entity, body: string) => {
      const lower = body.toLowerCase();
      if (lower.startsWith('#x')) return safeCodePoint(Number.parseInt(lower.slice(2), 16), entity);
      if (lower.startsWith('#')) return safeCodePoint(Number.parseInt(lower.slice(1), 10), entity);
      return MARKUP_ENTITIES[lower] ?? entity;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

function safeCodePoint(codePoint: number, fallback: string): string {
  return Number.isInteger(codePoint) && codePoint > 0 && codePoint <= 0x10ffff
    ? String.fromCodePoint(codePoint)
    : fallback;
}

/** The description shown as text: the primary text without markup, or the name when that is empty. */
export function competitionDescription(
  competition: Pick<CompetitionLike, 'name' | 'presentationPrimaryText'>,
): string {
  return stripMarkup(competition.presentationPrimaryText) || competition.name;
}

/** A participation whose text is empty after trimming is ignored (spec §5). */
export const isParticipationIgnored = (text: string): boolean => text.trim() === '';

export type CompetitionViewerState = 'participate' | 'participated' | 'winner' | 'drawn' | 'closed';

/**
 * A viewer's state: participate → participated → winner (announced); `drawn` once winners are
 * drawn and the viewer is not (yet told to be) one of them, entered or not, so a drawn raffle
 * neither offers "Join" nor keeps wishing good luck; closed when not open and not taken part.
 */
export function competitionViewerState(
  competition: CompetitionLike,
  viewer: CompetitionViewer,
  wonCompetitionUids: readonly string[] = [],
): CompetitionViewerState {
  if (wonCompetitionUids.includes(competition.uid)) return 'winner';
  if (hasWinnersDrawn(competition)) return 'drawn';
  if (hasParticipated(competition, viewer)) return 'participated';
  return competition.openForParticipation ? 'participate' : 'closed';
}
