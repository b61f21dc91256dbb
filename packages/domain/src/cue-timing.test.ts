import type { EventProduct, LiveEvent } from '@vitrine/protocol';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  CONTROL_CENTER_CUE_SOURCE,
  DEFAULT_BROADCAST_DELAY_MS,
  DELAYED_CDN_PROVIDER,
  DELAYED_CDN_PROVIDER_DELAY_MS,
} from './constants.ts';
import {
  activeProductUid,
  broadcastDelayMs,
  type CuedProduct,
  type CueFields,
  type CueTimingRecord,
  cdnDelayMs,
  countedCues,
  cueTimeOf,
  productTimeline,
  productWindowsInVideo,
  timeInVideo,
  videoStartTimestamp,
} from './cue-timing.ts';
import { cuedProduct, type TimingFields, timingRecord } from './test-support/cue-fixtures.ts';

const START = Date.UTC(2024, 5, 1, 19, 0, 0);

/** The CDN's video starts at START, a minute before the show went live and two before its planned start. */
const STARTS = {
  cdnVideoStartTime: START,
  liveStartTime: START + 60_000,
  eventStartTimestamp: START + 120_000,
};
const record = (overrides: Partial<TimingFields> = {}) => timingRecord(STARTS, overrides);

/** A record whose delays are zero, so video seconds are (cue − START) / 1000. */
const NO_DELAY = record({ broadcastDelayMs: 0, cdnDelayMs: 0 });

function cue(source: string, startSec: number, endSec: number | null, deleted = false): CueFields {
  return {
    source,
    presentationStartTimestamp: START + Math.round(startSec * 1000),
    presentationEndTimestamp: endSec === null ? null : START + Math.round(endSec * 1000),
    deleted,
  };
}

describe('wire compatibility', () => {
  it('accepts the protocol LiveEvent and EventProduct shapes (spec §3 "Live event record", "Event products")', () => {
    expectTypeOf<LiveEvent>().toExtend<CueTimingRecord>();
    expectTypeOf<EventProduct>().toExtend<CuedProduct>();
  });
});

describe("the records' wire values", () => {
  it('delays the provider records call "ivs" and counts the cues they mark "control-center" (spec §9 "Default CDN delay", §4 "Product timing")', () => {
    expect(cdnDelayMs(record({ cdn: 'ivs' }))).toBe(DELAYED_CDN_PROVIDER_DELAY_MS);
    const p = cuedProduct('a', {
      cues: [cue('studio', 5, 10), cue('control-center', 20, 30)],
      presentationTime: START,
    });
    expect(countedCues(p)).toEqual([{ start: START + 20_000, end: START + 30_000 }]);
  });
});

describe('broadcastDelayMs', () => {
  it('defaults to 750 ms (spec §4 "Product timing and order", §9 750 ms)', () => {
    expect(broadcastDelayMs(record())).toBe(750);
  });

  it('uses the record’s own delay, including 0 (spec §3 "broadcast and CDN delay fields")', () => {
    expect(broadcastDelayMs(record({ broadcastDelayMs: 2000 }))).toBe(2000);
    expect(broadcastDelayMs(record({ broadcastDelayMs: 0 }))).toBe(0);
  });
});

describe('cdnDelayMs', () => {
  it('defaults to 5000 ms for the delayed provider (spec §9 "Default CDN delay" 5000 ms)', () => {
    expect(cdnDelayMs(record({ cdn: DELAYED_CDN_PROVIDER }))).toBe(5000);
  });

  it('defaults to 0 for every other provider and for none (spec §9 "Default CDN delay" else 0)', () => {
    expect(cdnDelayMs(record({ cdn: 'vitrine' }))).toBe(0);
    expect(cdnDelayMs(record({ cdn: null }))).toBe(0);
  });

  it('uses the record’s own delay, including 0 for the delayed provider (spec §3 "broadcast and CDN delay fields")', () => {
    expect(cdnDelayMs(record({ cdn: DELAYED_CDN_PROVIDER, cdnDelayMs: 0 }))).toBe(0);
    expect(cdnDelayMs(record({ cdn: 'vitrine', cdnDelayMs: 1234 }))).toBe(1234);
  });
});

describe('timeInVideo', () => {
  it('adds the default 750 ms broadcast delay to the cue offset (spec §4 "Product timing", §9 750 ms)', () => {
    expect(timeInVideo(START + 10_000, record())).toBeCloseTo(10.75, 9);
  });

  it('adds 750 ms + 5000 ms for the delayed provider (spec §4 "Product timing", §9 750 ms and 5000 ms)', () => {
    expect(timeInVideo(START + 10_000, record({ cdn: DELAYED_CDN_PROVIDER }))).toBeCloseTo(15.75, 9);
  });

  it('uses configured delays (spec §4 "cue times plus the broadcast and CDN delays")', () => {
    expect(timeInVideo(START + 10_000, record({ broadcastDelayMs: 1000, cdnDelayMs: 2000 }))).toBe(13);
    expect(timeInVideo(START + 10_000, NO_DELAY)).toBe(10);
  });

  it('measures from cdnVideoStartTime, else liveStartTime, else eventStartTimestamp (spec §3 "Live event record")', () => {
    expect(videoStartTimestamp(record())).toBe(START);
    expect(videoStartTimestamp(record({ cdnVideoStartTime: null }))).toBe(START + 60_000);
    expect(videoStartTimestamp(record({ cdnVideoStartTime: null, liveStartTime: null }))).toBe(
      START + 120_000,
    );
    expect(timeInVideo(START + 70_000, record({ cdnVideoStartTime: null, broadcastDelayMs: 0 }))).toBe(10);
  });

  it('may be negative for a cue before the video start (spec §4 "Product timing")', () => {
    expect(timeInVideo(START - 5000, NO_DELAY)).toBe(-5);
  });
});

describe('countedCues', () => {
  it('uses only control-center cues when cues come from several sources (spec §4 "Product timing and order")', () => {
    const p = cuedProduct('a', {
      cues: [cue('studio', 5, 10), cue(CONTROL_CENTER_CUE_SOURCE, 20, 30), cue('studio', 40, 50)],
      presentationTime: START,
    });
    expect(countedCues(p)).toEqual([{ start: START + 20_000, end: START + 30_000 }]);
  });

  it('uses every source’s cues when studio-controlled (spec §4 "or all of them if studio-controlled")', () => {
    const p = cuedProduct('a', {
      studioControlled: true,
      cues: [cue('studio', 40, 50), cue(CONTROL_CENTER_CUE_SOURCE, 20, 30)],
    });
    expect(countedCues(p)).toEqual([
      { start: START + 20_000, end: START + 30_000 },
      { start: START + 40_000, end: START + 50_000 },
    ]);
  });

  it('uses the single presentation time when cues come from one source (spec §4 "Otherwise the single presentation time is used")', () => {
    const p = cuedProduct('a', {
      cues: [cue('studio', 5, 10), cue('studio', 40, 50)],
      presentationTime: START + 100_000,
      presentationEndTime: START + 110_000,
    });
    expect(countedCues(p)).toEqual([{ start: START + 100_000, end: START + 110_000 }]);
  });

  it('uses the single presentation time with an open end when there are no cues (spec §4 "single presentation time")', () => {
    expect(countedCues(cuedProduct('a', { presentationTime: START }))).toEqual([{ start: START, end: null }]);
  });

  it('uses the one source’s cues, sorted, when there is no presentation time (spec §4 "Product timing and order")', () => {
    const p = cuedProduct('a', { cues: [cue('studio', 40, null), cue('studio', 5, 10)] });
    expect(countedCues(p)).toEqual([
      { start: START + 5000, end: START + 10_000 },
      { start: START + 40_000, end: null },
    ]);
  });

  it('ignores deleted cues, also when counting sources (spec §3 "Event products" deleted)', () => {
    const p = cuedProduct('a', {
      cues: [cue('studio', 5, 10, true), cue(CONTROL_CENTER_CUE_SOURCE, 20, 30), cue('studio', 1, 2, true)],
    });
    expect(countedCues(p)).toEqual([{ start: START + 20_000, end: START + 30_000 }]);
  });

  it('returns nothing for a product without cues or presentation time (spec §4 "Product timing")', () => {
    expect(countedCues(cuedProduct('a'))).toEqual([]);
  });

  it('does not mutate the product (spec §4 "Product timing")', () => {
    const cues = [cue('studio', 40, 50), cue('studio', 5, 10)];
    countedCues(cuedProduct('a', { cues }));
    expect(cues[0]?.presentationStartTimestamp).toBe(START + 40_000);
  });
});

describe('productWindowsInVideo', () => {
  it('places counted cues with the default delays (spec §4 "cue times plus the broadcast and CDN delays", §9 750 ms)', () => {
    const p = cuedProduct('a', { cues: [cue(CONTROL_CENTER_CUE_SOURCE, 10, 20)] });
    const [window] = productWindowsInVideo(p, record());
    expect(window?.start).toBeCloseTo(10.75, 9);
    expect(window?.end).toBeCloseTo(20.75, 9);
  });

  it('adds relative cues as ms offsets into the video without delays (spec §3 "relativeCues")', () => {
    const p = cuedProduct('a', { relativeCues: [{ presentationTime: 30_000, presentationEndTime: null }] });
    expect(productWindowsInVideo(p, record({ cdn: DELAYED_CDN_PROVIDER }))).toEqual([
      { start: 30, end: null },
    ]);
  });

  it('places absolute cues like cues: wall-clock ms plus the broadcast and CDN delays (spec §3 "absoluteCues", §4 "Product timing")', () => {
    const p = cuedProduct('a', {
      absoluteCues: [{ presentationTime: START + 10_000, presentationEndTime: START + 20_000 }],
    });
    const [window] = productWindowsInVideo(p, record({ cdn: DELAYED_CDN_PROVIDER }));
    expect(window?.start).toBeCloseTo(
      10 + (DEFAULT_BROADCAST_DELAY_MS + DELAYED_CDN_PROVIDER_DELAY_MS) / 1000,
      9,
    );
    expect(window?.end).toBeCloseTo(
      20 + (DEFAULT_BROADCAST_DELAY_MS + DELAYED_CDN_PROVIDER_DELAY_MS) / 1000,
      9,
    );
  });

  it('keeps an open absolute cue open and merges it with a cue for the same moment (spec §3 "absoluteCues")', () => {
    const p = cuedProduct('a', {
      cues: [cue(CONTROL_CENTER_CUE_SOURCE, 10, 20)],
      absoluteCues: [
        { presentationTime: START + 10_000, presentationEndTime: START + 20_000 },
        { presentationTime: START + 40_000, presentationEndTime: null },
      ],
    });
    expect(productWindowsInVideo(p, NO_DELAY)).toEqual([
      { start: 10, end: 20 },
      { start: 40, end: null },
    ]);
  });

  it('counts absolute cues when the product also has a single presentation time (spec §4 "Product timing")', () => {
    const p = cuedProduct('a', {
      presentationTime: START + 5_000,
      presentationEndTime: START + 8_000,
      absoluteCues: [{ presentationTime: START + 30_000, presentationEndTime: START + 35_000 }],
    });
    expect(productWindowsInVideo(p, NO_DELAY)).toEqual([
      { start: 5, end: 8 },
      { start: 30, end: 35 },
    ]);
  });

  it('keeps a cue and a relative cue for the same moment once (spec §3 "relativeCues and absoluteCues")', () => {
    const p = cuedProduct('a', {
      cues: [cue(CONTROL_CENTER_CUE_SOURCE, 10, 20)],
      relativeCues: [
        { presentationTime: 10_000, presentationEndTime: 20_000 },
        { presentationTime: 40_000, presentationEndTime: 50_000 },
      ],
    });
    expect(productWindowsInVideo(p, NO_DELAY)).toEqual([
      { start: 10, end: 20 },
      { start: 40, end: 50 },
    ]);
  });

  it('treats windows within 1 ms as the same but keeps ones 2 ms apart (spec §4 "Product timing")', () => {
    const p = cuedProduct('a', {
      cues: [cue(CONTROL_CENTER_CUE_SOURCE, 10.001, 20)],
      relativeCues: [
        { presentationTime: 10_000, presentationEndTime: 20_001 },
        { presentationTime: 10_002, presentationEndTime: 20_000 },
      ],
    });
    expect(productWindowsInVideo(p, NO_DELAY)).toEqual([
      { start: 10, end: 20.001 },
      { start: 10.002, end: 20 },
    ]);
  });

  it('keeps an open and a closed window with the same start apart (spec §4 "Product timing")', () => {
    const p = cuedProduct('a', {
      cues: [cue('studio', 10, null)],
      relativeCues: [{ presentationTime: 10_000, presentationEndTime: 20_000 }],
    });
    expect(productWindowsInVideo(p, NO_DELAY)).toEqual([
      { start: 10, end: 20 },
      { start: 10, end: null },
    ]);
  });
});

describe('activeProductUid', () => {
  const a = cuedProduct('a', { cues: [cue(CONTROL_CENTER_CUE_SOURCE, 10, 20)] });
  const b = cuedProduct('b', { cues: [cue(CONTROL_CENTER_CUE_SOURCE, 30, null)] });
  const c = cuedProduct('c', { cues: [cue(CONTROL_CENTER_CUE_SOURCE, 60, 70)] });

  it('is the product whose window contains the time, start inclusive and end exclusive (spec §4 "Product timing")', () => {
    expect(activeProductUid([a, b, c], NO_DELAY, 10)).toBe('a');
    expect(activeProductUid([a, b, c], NO_DELAY, 19.999)).toBe('a');
    expect(activeProductUid([a, b, c], NO_DELAY, 20)).toBeNull();
    expect(activeProductUid([a, b, c], NO_DELAY, 9.999)).toBeNull();
  });

  it('lets an open window last until the next window of any product starts (spec §4 "Product timing")', () => {
    expect(activeProductUid([a, b, c], NO_DELAY, 30)).toBe('b');
    expect(activeProductUid([a, b, c], NO_DELAY, 59.9)).toBe('b');
    expect(activeProductUid([a, b, c], NO_DELAY, 60)).toBe('c');
    expect(activeProductUid([a, b, c], NO_DELAY, 75)).toBeNull();
  });

  it('lets an open window with nothing after it last forever (spec §4 "Product timing")', () => {
    expect(activeProductUid([a, b], NO_DELAY, 10_000)).toBe('b');
  });

  it('picks the window that started last when windows overlap (spec §4 "Product timing")', () => {
    const long = cuedProduct('long', { cues: [cue(CONTROL_CENTER_CUE_SOURCE, 0, 100)] });
    expect(activeProductUid([long, a], NO_DELAY, 15)).toBe('a');
    expect(activeProductUid([a, long], NO_DELAY, 15)).toBe('a');
    expect(activeProductUid([a, long], NO_DELAY, 25)).toBe('long');
  });

  it('picks the first listed product when two start together (spec §4 "Product timing")', () => {
    const twin = cuedProduct('twin', { cues: [cue(CONTROL_CENTER_CUE_SOURCE, 10, 20)] });
    expect(activeProductUid([twin, a], NO_DELAY, 15)).toBe('twin');
    expect(activeProductUid([a, twin], NO_DELAY, 15)).toBe('a');
  });

  it('shifts windows by the broadcast and CDN delays (spec §4 "Product timing", §9 750 ms and 5000 ms)', () => {
    const delayed = record({ cdn: DELAYED_CDN_PROVIDER });
    expect(activeProductUid([a], delayed, 15.7)).toBeNull();
    expect(activeProductUid([a], delayed, 15.75)).toBe('a');
    expect(activeProductUid([a], delayed, 25.7)).toBe('a');
    expect(activeProductUid([a], delayed, 25.75)).toBeNull();
  });

  it('presents a product cued only by absolute cues, and jumps to them (spec §3 "absoluteCues", §4 "Product timing")', () => {
    const onlyAbsolute = cuedProduct('abs', {
      absoluteCues: [{ presentationTime: START + 40_000, presentationEndTime: START + 50_000 }],
    });
    expect(activeProductUid([a, onlyAbsolute], NO_DELAY, 39.999)).toBeNull();
    expect(activeProductUid([a, onlyAbsolute], NO_DELAY, 45)).toBe('abs');
    expect(cueTimeOf(onlyAbsolute, NO_DELAY, 0)).toBe(40);
  });

  it('is null without products (spec §4 "Product timing")', () => {
    expect(activeProductUid([], NO_DELAY, 0)).toBeNull();
  });
});

describe('productTimeline', () => {
  it('lists every window sorted with open ends resolved (spec §4 "Product timing")', () => {
    const a = cuedProduct('a', { cues: [cue('studio', 50, null), cue('studio', 10, 20)] });
    const b = cuedProduct('b', { relativeCues: [{ presentationTime: 30_000, presentationEndTime: null }] });
    expect(productTimeline([a, b], NO_DELAY)).toEqual([
      { uid: 'a', index: 0, start: 10, end: 20 },
      { uid: 'b', index: 1, start: 30, end: 50 },
      { uid: 'a', index: 0, start: 50, end: Number.POSITIVE_INFINITY },
    ]);
  });
});

describe('cueTimeOf', () => {
  const twice = cuedProduct('a', {
    cues: [cue(CONTROL_CENTER_CUE_SOURCE, 10, 20), cue(CONTROL_CENTER_CUE_SOURCE, 40, 50)],
  });

  it('jumps to the product’s next window after the current time (spec §4 "Product timing")', () => {
    expect(cueTimeOf(twice, NO_DELAY, 0)).toBe(10);
    expect(cueTimeOf(twice, NO_DELAY, 10)).toBe(40);
    expect(cueTimeOf(twice, NO_DELAY, 25)).toBe(40);
  });

  it('wraps to the first window when none is left (spec §4 "Product timing")', () => {
    expect(cueTimeOf(twice, NO_DELAY, 45)).toBe(10);
  });

  it('includes the delays (spec §4 "Product timing", §9 750 ms)', () => {
    expect(cueTimeOf(twice, record(), 0)).toBeCloseTo(10.75, 9);
  });

  it('clamps a window before the video start to 0 (spec §4 "Product timing")', () => {
    const early = cuedProduct('a', { cues: [cue('studio', -3, 5)] });
    expect(cueTimeOf(early, NO_DELAY, 0)).toBe(0);
  });

  it('is null for a product with no window (spec §4 "Product timing")', () => {
    expect(cueTimeOf(cuedProduct('a'), NO_DELAY, 0)).toBeNull();
  });
});
