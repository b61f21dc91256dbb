import {
  CONTROL_CENTER_CUE_SOURCE,
  DEFAULT_BROADCAST_DELAY_MS,
  DELAYED_CDN_PROVIDER,
  DELAYED_CDN_PROVIDER_DELAY_MS,
} from './constants.ts';

/**
 * A product's presentation window. `countedCues` gives absolute ms timestamps; the *InVideo
 * functions give seconds into the video. `end: null` is an open window: it lasts until the next
 * window of any product starts.
 */
export interface CueWindow {
  start: number;
  end: number | null;
}

/** The fields of a live event record (spec §3) that place cues on the video's clock. */
export interface CueTimingRecord {
  event: {
    cdn: string | null;
    broadcastDelayMs: number | null;
    cdnDelayMs: number | null;
    cdnVideoStartTime: number | null;
    liveStartTime: number | null;
    eventStartTimestamp: number;
  };
}

/** A cue as stored on an event product (spec §3 "Event products"). */
export interface CueFields {
  source: string;
  presentationStartTimestamp: number;
  presentationEndTimestamp: number | null;
  deleted: boolean;
}

/** A relative cue (ms offsets into the video) or an absolute cue (ms timestamps). */
export interface PresentationWindowFields {
  presentationTime: number;
  presentationEndTime: number | null;
}

/** The fields of an event product (spec §3) that decide when it is presented. */
export interface CuedProduct {
  uid: string;
  cues: readonly CueFields[];
  relativeCues: readonly PresentationWindowFields[];
  absoluteCues: readonly PresentationWindowFields[];
  presentationTime: number | null;
  presentationEndTime: number | null;
  studioControlled: boolean;
}

/** One presentation window of one event product, in video seconds, with an open end resolved. */
export interface TimelineEntry {
  /** The event product's `uid`. */
  uid: string;
  /** Position of the product in the list given to `productTimeline`. */
  index: number;
  start: number;
  /** Exclusive; `Infinity` for an open window that no later window closes. */
  end: number;
}

/** Host-to-server delay of the event, 750 ms unless the record sets one (spec §4 "Product timing", §9). */
export function broadcastDelayMs(record: CueTimingRecord): number {
  return record.event.broadcastDelayMs ?? DEFAULT_BROADCAST_DELAY_MS;
}

/**
 * CDN delay of the event unless the record sets one: 5000 ms for the delayed provider
 * (DELAYED_CDN_PROVIDER), 0 for every other one (spec §9 "Default CDN delay").
 */
export function cdnDelayMs(record: CueTimingRecord): number {
  if (record.event.cdnDelayMs !== null) return record.event.cdnDelayMs;
  return record.event.cdn === DELAYED_CDN_PROVIDER ? DELAYED_CDN_PROVIDER_DELAY_MS : 0;
}

/** The absolute time (ms) the video's second 0 corresponds to: CDN video start, else live start, else event start. */
export function videoStartTimestamp(record: CueTimingRecord): number {
  return record.event.cdnVideoStartTime ?? record.event.liveStartTime ?? record.event.eventStartTimestamp;
}

/**
 * Seconds into the video of an absolute cue time (ms): the cue time minus the video start, plus
 * the broadcast and CDN delays (spec §4 "Product timing and order"). May be negative for a cue
 * set before the video started.
 */
export function timeInVideo(absoluteMs: number, record: CueTimingRecord): number {
  return (absoluteMs - videoStartTimestamp(record) + broadcastDelayMs(record) + cdnDelayMs(record)) / 1000;
}

/**
 * The cues that count for a product, as absolute ms windows sorted by start (spec §4 "Product
 * timing and order"): deleted cues are ignored; when the rest come from several sources, only the
 * control-center ones count (all of them if the product is studio-controlled); otherwise the
 * single presentation time [presentationTime, presentationEndTime] is used when set, else the
 * remaining cues.
 */
export function countedCues(product: CuedProduct): CueWindow[] {
  const live = product.cues.filter((cue) => !cue.deleted);
  const sources = new Set(live.map((cue) => cue.source));
  let counted: readonly CueFields[];
  if (sources.size > 1) {
    counted = product.studioControlled
      ? live
      : live.filter((cue) => cue.source === CONTROL_CENTER_CUE_SOURCE);
  } else if (product.presentationTime !== null) {
    return [{ start: product.presentationTime, end: product.presentationEndTime }];
  } else {
    counted = live;
  }
  return sortWindows(
    counted.map((cue) => ({ start: cue.presentationStartTimestamp, end: cue.presentationEndTimestamp })),
  );
}

const SAME_WINDOW_TOLERANCE_SEC = 0.001;

function sameWindow(a: CueWindow, b: CueWindow): boolean {
  const close = (x: number, y: number) => Math.abs(x - y) <= SAME_WINDOW_TOLERANCE_SEC + 1e-9;
  if (!close(a.start, b.start)) return false;
  if (a.end === null || b.end === null) return a.end === b.end;
  return close(a.end, b.end);
}

function sortWindows(windows: CueWindow[]): CueWindow[] {
  return windows.sort((a, b) => {
    if (a.start !== b.start) return a.start - b.start;
    if (a.end === b.end) return 0;
    if (a.end === null) return 1;
    if (b.end === null) return -1;
    return a.end - b.end;
  });
}

/**
 * A product's presentation windows in video seconds, sorted by start: its counted cues and its
 * absolute cues (ms timestamps on the wall clock, like cues) placed with `timeInVideo`, so the
 * broadcast and CDN delays apply to both (spec §4 "Product timing"); plus its relative cues (ms
 * offsets into the video, no delays added). Windows whose start and end agree within 1 ms are kept once.
 */
export function productWindowsInVideo(product: CuedProduct, record: CueTimingRecord): CueWindow[] {
  const absoluteWindows: CueWindow[] = [
    ...countedCues(product),
    ...product.absoluteCues.map((cue) => ({ start: cue.presentationTime, end: cue.presentationEndTime })),
  ];
  const absolute = absoluteWindows.map((w) => ({
    start: timeInVideo(w.start, record),
    end: w.end === null ? null : timeInVideo(w.end, record),
  }));
  const relative = product.relativeCues.map((cue) => ({
    start: cue.presentationTime / 1000,
    end: cue.presentationEndTime === null ? null : cue.presentationEndTime / 1000,
  }));
  const unique: CueWindow[] = [];
  for (const window of sortWindows([...absolute, ...relative])) {
    if (!unique.some((kept) => sameWindow(kept, window))) unique.push(window);
  }
  return unique;
}

/**
 * Every presentation window of every product in video seconds, sorted by start (ties keep the
 * list order). An open window ends where the next later-starting window of any product starts,
 * or never (`Infinity`).
 */
export function productTimeline(products: readonly CuedProduct[], record: CueTimingRecord): TimelineEntry[] {
  const raw = products.flatMap((product, index) =>
    productWindowsInVideo(product, record).map((window) => ({ uid: product.uid, index, window })),
  );
  raw.sort((a, b) => a.window.start - b.window.start || a.index - b.index);
  const starts = raw.map((entry) => entry.window.start);
  return raw.map(({ uid, index, window }) => ({
    uid,
    index,
    start: window.start,
    end: window.end ?? starts.find((start) => start > window.start) ?? Number.POSITIVE_INFINITY,
  }));
}

/**
 * The uid of the event product presented at `currentTimeSec` (start <= t < end, open windows
 * lasting until the next window of any product starts). When several windows contain the time,
 * the one that started last wins; on equal starts, the product earlier in the list. Null when none.
 */
export function activeProductUid(
  products: readonly CuedProduct[],
  record: CueTimingRecord,
  currentTimeSec: number,
): string | null {
  let best: TimelineEntry | null = null;
  for (const entry of productTimeline(products, record)) {
    if (entry.start <= currentTimeSec && currentTimeSec < entry.end && (!best || entry.start > best.start)) {
      best = entry;
    }
  }
  return best?.uid ?? null;
}

/**
 * Where "jump to this product" seeks, in video seconds: the start of the product's next window
 * starting strictly after `currentTimeSec`, or, when none is left, its first window (so repeated
 * jumps cycle through its presentations). Clamped to 0. Null when the product has no window.
 */
export function cueTimeOf(
  product: CuedProduct,
  record: CueTimingRecord,
  currentTimeSec: number,
): number | null {
  const windows = productWindowsInVideo(product, record);
  const target = windows.find((window) => window.start > currentTimeSec) ?? windows[0];
  return target === undefined ? null : Math.max(0, target.start);
}
