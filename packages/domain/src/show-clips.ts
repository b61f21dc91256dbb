import { type ChapterCue, productChapters } from './analytics-funnel.ts';

/** The shortest clip a host may trim to (a clip is at least two 1 s segments). */
export const CLIP_MIN_MS = 2_000;
/** The longest clip: a chapter longer than this is clipped from its start. */
export const CLIP_MAX_MS = 90_000;
/** A highlight the control room marks covers this much before the moment… */
export const HIGHLIGHT_BEFORE_MS = 15_000;
/** …and this much after it. */
export const HIGHLIGHT_AFTER_MS = 10_000;
/** Highlights a show may have (each becomes a clip). */
export const MAX_HIGHLIGHTS_PER_SHOW = 30;

/** Where a clip may lie (its chapter, or its highlight's window) on the stream clock, in ms. */
export interface ClipWindow {
  start: number;
  end: number;
}

/** A presented product's clip window: its first chapter of the show. */
export interface ChapterClipWindow extends ClipWindow {
  eventProductUid: string;
}

/**
 * One clip window per presented product: its first chapter (from its first presentation to its
 * end, or the next product's), within the broadcast (Go live to End), at most CLIP_MAX_MS long.
 * A chapter shorter than CLIP_MIN_MS inside the broadcast gets no clip.
 */
export function chapterClipWindows(
  products: readonly { uid: string; cues: readonly ChapterCue[] }[],
  liveStart: number,
  liveEnd: number,
): ChapterClipWindow[] {
  const seen = new Set<string>();
  const windows: ChapterClipWindow[] = [];
  const chapters = productChapters(
    products.map((product) => ({ productUid: product.uid, cues: product.cues })),
    liveEnd,
  );
  for (const chapter of chapters) {
    if (seen.has(chapter.productUid)) continue;
    const start = Math.max(chapter.start, liveStart);
    const end = Math.min(chapter.end, liveEnd, start + CLIP_MAX_MS);
    if (end - start < CLIP_MIN_MS) continue;
    seen.add(chapter.productUid);
    windows.push({ eventProductUid: chapter.productUid, start, end });
  }
  return windows;
}

/** A highlight's window around the moment marked, within the broadcast so far. */
export function highlightWindow(moment: number, liveStart: number, liveEnd: number | null): ClipWindow {
  const start = Math.max(liveStart, moment - HIGHLIGHT_BEFORE_MS);
  const after = moment + HIGHLIGHT_AFTER_MS;
  return { start, end: liveEnd === null ? after : Math.min(after, liveEnd) };
}

/** Why a trim is refused, or null: it must lie in the clip's window and last CLIP_MIN_MS to CLIP_MAX_MS. */
export function trimRefusal(
  bounds: ClipWindow,
  trim: ClipWindow,
): 'outside-window' | 'too-short' | 'too-long' | null {
  if (trim.start < bounds.start || trim.end > bounds.end) return 'outside-window';
  if (trim.end - trim.start < CLIP_MIN_MS) return 'too-short';
  if (trim.end - trim.start > CLIP_MAX_MS) return 'too-long';
  return null;
}

/** A segment of a recording as a cut needs it. */
export interface CutSegment {
  uri: string;
  initUri: string | null;
  /** Seconds. */
  duration: number;
  programDateTime: number | null;
}

/**
 * The segments a clip of `window` is cut from: every segment of the recording begins on a
 * keyframe (one each second), so the clip starts with the segment the window's start falls in
 * and ends with the one its end falls in — a cut on keyframes, with no re-encoding. Only one
 * packager run's segments (one init segment): a clip stops where its run does. Null when no
 * segment covers the window. `cutStart` is the first segment's program date time.
 */
export function clipSegments<S extends CutSegment>(
  segments: readonly S[],
  window: ClipWindow,
): { segments: S[]; cutStart: number; cutEnd: number } | null {
  const timed = segments.filter((segment) => segment.programDateTime !== null);
  const endOf = (segment: S) => (segment.programDateTime ?? 0) + segment.duration * 1000;
  const firstIndex = timed.findIndex((segment) => endOf(segment) > window.start);
  const first = timed[firstIndex];
  if (!first || (first.programDateTime ?? 0) >= window.end) return null;
  const picked: S[] = [];
  for (const segment of timed.slice(firstIndex)) {
    if ((segment.programDateTime ?? 0) >= window.end || segment.initUri !== first.initUri) break;
    picked.push(segment);
  }
  const last = picked.at(-1) ?? first;
  return { segments: picked, cutStart: first.programDateTime ?? 0, cutEnd: endOf(last) };
}
