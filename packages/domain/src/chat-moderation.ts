/**
 * Pure rules of live chat moderation (issue 16 §3): which comments ask something, which contain
 * a store's blocked words (whole words, whatever their case or accents) and how they are masked,
 * and how long slow mode makes a viewer wait.
 */

/** At most this many blocked words or phrases per store; each at most this long. */
export const BLOCKED_WORDS_MAX = 200;
export const BLOCKED_WORD_MAX_LENGTH = 60;
/** The longest slow mode a show may have: ten minutes between a viewer's comments. */
export const SLOW_MODE_MAX_SECONDS = 600;
/** The longest pinned announcement, in characters. */
export const ANNOUNCEMENT_MAX_LENGTH = 280;
/** Moderation actions a staff member may take per window before 429 (a runaway script or key). */
export const MODERATION_ACTION_LIMIT = { max: 60, windowMs: 10_000 } as const;

/** What a store does with a comment that contains a blocked word. */
export type BlockedWordAction = 'hold' | 'mask';

/** Question marks of the scripts the player speaks (Latin, Spanish opening, full-width). */
const QUESTION_MARKS = /[?¿？]/u;

/** Whether a comment asks something: it contains a question mark (moderators flag the rest). */
export function isQuestion(text: string): boolean {
  return QUESTION_MARKS.test(text);
}

/** A letter, digit or underscore: what a word (or a user name) is made of, in any script. */
const WORD_CHARACTER = /[\p{L}\p{N}_]/u;
const COMBINING_MARK = /\p{M}/gu;

/** One character of `text` folded for matching: lower case, accents dropped ("É" → "e"). */
function foldCharacter(character: string): string {
  return character.normalize('NFD').replace(COMBINING_MARK, '').toLowerCase();
}

/** `text` folded for matching, and for each folded character the index of the original it came from. */
function foldWithMap(text: string): { folded: string; origin: number[] } {
  let folded = '';
  const origin: number[] = [];
  let index = 0;
  for (const character of text) {
    const piece = foldCharacter(character);
    for (let i = 0; i < piece.length; i++) origin.push(index);
    folded += piece;
    index += character.length;
  }
  origin.push(index);
  return { folded, origin };
}

/** A word list as a store saves it: folded, trimmed, inner spaces collapsed, empties and repeats dropped. */
export function normalizeBlockedWords(words: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const word of words) {
    const normal = foldWithMap(word.trim().replace(/\s+/gu, ' ')).folded;
    if (normal) seen.add(normal);
  }
  return [...seen];
}

/** Where each blocked word occurs in `text` as a whole word: ranges of `text` (start, end). */
function blockedRanges(text: string, words: readonly string[]): Array<[number, number]> {
  const { folded, origin } = foldWithMap(text);
  const ranges: Array<[number, number]> = [];
  for (const word of normalizeBlockedWords(words)) {
    let from = 0;
    for (;;) {
      const at = folded.indexOf(word, from);
      if (at < 0) break;
      const end = at + word.length;
      const before = at > 0 ? (folded[at - 1] ?? '') : '';
      const after = folded[end] ?? '';
      if (!WORD_CHARACTER.test(before) && !WORD_CHARACTER.test(after)) {
        ranges.push([origin[at] ?? 0, origin[end] ?? text.length]);
      }
      from = at + 1;
    }
  }
  return ranges.sort((a, b) => a[0] - b[0]);
}

/** The blocked words (folded) that `text` contains as whole words; empty when none. */
export function findBlockedWords(text: string, words: readonly string[]): string[] {
  const { folded } = foldWithMap(text);
  return normalizeBlockedWords(words).filter((word) => blockedRanges(folded, [word]).length > 0);
}

/** `text` with every blocked word replaced by one `*` per character; unchanged when none occurs. */
export function maskBlockedWords(text: string, words: readonly string[]): string {
  const ranges = blockedRanges(text, words);
  if (ranges.length === 0) return text;
  let masked = '';
  let position = 0;
  for (const [start, end] of ranges) {
    if (end <= position) continue;
    const from = Math.max(start, position);
    masked += text.slice(position, from);
    masked += '*'.repeat([...text.slice(from, end)].length);
    position = end;
  }
  return masked + text.slice(position);
}

/**
 * How long a viewer must still wait before commenting again in slow mode (0: they may now).
 * `lastCommentAt` is their last comment in the show, null when they have none.
 */
export function slowModeWaitMs(lastCommentAt: number | null, now: number, slowModeSeconds: number): number {
  if (slowModeSeconds <= 0 || lastCommentAt === null) return 0;
  return Math.max(0, lastCommentAt + slowModeSeconds * 1000 - now);
}
