import { describe, expect, it } from 'vitest';
import { CONTROL_CENTER_CUE_SOURCE } from './constants.ts';
import {
  MAX_PRESENTED_PRODUCTS,
  median,
  presentationsOf,
  presentedNow,
  presentRefusal,
  railIndexOfKey,
} from './control-room.ts';

const cue = (
  uid: string,
  start: number,
  end: number | null,
  source = CONTROL_CENTER_CUE_SOURCE,
  deleted = false,
) => ({
  uid,
  source,
  presentationStartTimestamp: start,
  presentationEndTimestamp: end,
  deleted,
});

describe('presentationsOf', () => {
  it('keeps the control-center cues that were not deleted, oldest first', () => {
    expect(
      presentationsOf([
        cue('b', 20, null),
        cue('a', 10, 15),
        cue('c', 5, null, 'admin'),
        cue('d', 7, null, CONTROL_CENTER_CUE_SOURCE, true),
      ]),
    ).toEqual([
      { uid: 'a', start: 10, end: 15 },
      { uid: 'b', start: 20, end: null },
    ]);
  });
});

describe('presentedNow', () => {
  it('is the open presentations, each product once', () => {
    const presentations = presentationsOf([
      cue('a', 1, 2),
      cue('b', 3, null),
      cue('a', 4, null),
      cue('b', 5, null),
    ]);
    expect(presentedNow(presentations).map((p) => [p.uid, p.start])).toEqual([
      ['b', 3],
      ['a', 4],
    ]);
  });
});

describe('presentRefusal', () => {
  const open = (uids: string[]) => uids.map((uid, i) => ({ uid, start: i, end: null }));
  it('lets a product be presented beside others up to the maximum', () => {
    expect(presentRefusal(open(['a', 'b']), 'c')).toBeNull();
  });
  it('refuses a product presented already', () => {
    expect(presentRefusal(open(['a']), 'a')).toBe('already-presented');
  });
  it(`refuses a product past ${MAX_PRESENTED_PRODUCTS} at once`, () => {
    expect(presentRefusal(open(['a', 'b', 'c']), 'd')).toBe('too-many');
  });
});

describe('median', () => {
  it('is null for nothing, the middle value for an odd count, the mean of the middle two for an even one', () => {
    expect(median([])).toBeNull();
    expect(median([3000, 1000, 2000])).toBe(2000);
    expect(median([4000, 1000, 3000, 2000])).toBe(2500);
  });
});

describe('railIndexOfKey', () => {
  it('maps keys 1 to 9 onto the line-up', () => {
    expect(railIndexOfKey('1', 3)).toBe(0);
    expect(railIndexOfKey('3', 3)).toBe(2);
    expect(railIndexOfKey('4', 3)).toBeNull();
    expect(railIndexOfKey('0', 10)).toBeNull();
    expect(railIndexOfKey('a', 10)).toBeNull();
    expect(railIndexOfKey('10', 10)).toBeNull();
  });
});
