import type { EventProduct } from '@vitrine/protocol';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { CONTROL_CENTER_CUE_SOURCE, DELAYED_CDN_PROVIDER } from './constants.ts';
import { type OrderableProduct, orderProducts } from './product-order.ts';
import {
  cuedProduct,
  NO_DELAYS,
  stampedCue,
  type TimingFields,
  timingRecord,
} from './test-support/cue-fixtures.ts';

const START = Date.UTC(2024, 5, 1, 19, 0, 0);

/** Planned, live and on the CDN from START, without delays. */
const STARTS = { cdnVideoStartTime: START, liveStartTime: START, eventStartTimestamp: START };
const record = (overrides: Partial<TimingFields> = {}) =>
  timingRecord(STARTS, { ...NO_DELAYS, ...overrides });

const NO_DELAY = record();

/** A product cued by the control center at the given [start, end) windows, in seconds. */
function product(
  uid: string,
  sorting: number,
  windows: [number, number | null][] = [],
  showAllProductsWhenEventStarts = false,
): OrderableProduct {
  const cues = windows.map(([start, end]) =>
    stampedCue(CONTROL_CENTER_CUE_SOURCE, START + start * 1000, end === null ? null : START + end * 1000),
  );
  return { ...cuedProduct(uid, { cues }), sorting, showAllProductsWhenEventStarts };
}

const uids = (list: readonly OrderableProduct[]) => list.map((p) => p.uid);

describe('orderProducts', () => {
  it('accepts protocol event products (spec §3 "Event products")', () => {
    expectTypeOf<EventProduct>().toExtend<OrderableProduct>();
  });

  it('orders by the earliest upcoming cue, not by sorting (spec §4 "Product timing and order")', () => {
    const list = [
      product('late', 0, [[60, 70]]),
      product('early', 1, [[10, 20]]),
      product('mid', 2, [[30, 40]]),
    ];
    expect(uids(orderProducts(list, NO_DELAY, 0))).toEqual(['early', 'mid', 'late']);
  });

  it('breaks ties on the cue by the sorting value (spec §4 "ties by the sorting value")', () => {
    const list = [product('b', 2, [[10, 20]]), product('a', 1, [[10, 20]]), product('c', 3, [[5, 8]])];
    expect(uids(orderProducts(list, NO_DELAY, 0))).toEqual(['c', 'a', 'b']);
  });

  it('keeps the list order on equal cue and sorting (spec §4 "Product timing and order")', () => {
    const list = [product('x', 1, [[10, 20]]), product('y', 1, [[10, 20]])];
    expect(uids(orderProducts(list, NO_DELAY, 0))).toEqual(['x', 'y']);
    expect(uids(orderProducts([...list].reverse(), NO_DELAY, 0))).toEqual(['y', 'x']);
  });

  it('skips windows that are over and uses the next upcoming one (spec §4 "earliest upcoming cue")', () => {
    const list = [
      product('again', 0, [
        [10, 20],
        [80, 90],
      ]),
      product('once', 1, [[50, 60]]),
    ];
    expect(uids(orderProducts(list, NO_DELAY, 0))).toEqual(['again', 'once']);
    expect(uids(orderProducts(list, NO_DELAY, 30))).toEqual(['once', 'again']);
  });

  it('puts the product being presented first, by its start (spec §4 "earliest upcoming cue")', () => {
    const list = [product('next', 0, [[30, 40]]), product('playing', 1, [[10, 20]])];
    expect(uids(orderProducts(list, NO_DELAY, 15))).toEqual(['playing', 'next']);
  });

  it('treats an open window as playing until the next window starts (spec §4 "Product timing and order")', () => {
    const list = [product('next', 0, [[30, 40]]), product('open', 1, [[10, null]])];
    expect(uids(orderProducts(list, NO_DELAY, 25))).toEqual(['open', 'next']);
    expect(uids(orderProducts(list, NO_DELAY, 35))).toEqual(['next', 'open']);
  });

  it('puts products without an upcoming window after, by sorting (spec §4 "ties by the sorting value")', () => {
    const list = [
      product('uncued-2', 2),
      product('past-1', 1, [[1, 2]]),
      product('cued', 9, [[30, 40]]),
      product('uncued-0', 0),
    ];
    expect(uids(orderProducts(list, NO_DELAY, 10))).toEqual(['cued', 'uncued-0', 'past-1', 'uncued-2']);
  });

  it('orders by sorting when showAllProductsWhenEventStarts is set (spec §4 "ordered by sorting")', () => {
    const list = [
      product('b', 2, [[10, 20]], true),
      product('a', 1, [[60, 70]], true),
      product('c', 3, [], true),
    ];
    expect(uids(orderProducts(list, NO_DELAY, 0))).toEqual(['a', 'b', 'c']);
  });

  it('orders by sorting when any one product carries showAllProductsWhenEventStarts (spec §4 "Product timing and order")', () => {
    const list = [product('b', 2, [[10, 20]]), product('a', 1, [[60, 70]], true)];
    expect(uids(orderProducts(list, NO_DELAY, 0))).toEqual(['a', 'b']);
  });

  it('orders on the delayed video clock (spec §4 "cue times plus the broadcast and CDN delays", §9 5000 ms)', () => {
    const delayed = record({ cdn: DELAYED_CDN_PROVIDER, cdnDelayMs: null, broadcastDelayMs: null });
    const list = [product('next', 0, [[30, 40]]), product('first', 1, [[10, 20]])];
    // 'first' is presented from 15.75 s to 25.75 s of the delayed video, so at 24 s it is still playing.
    expect(uids(orderProducts(list, delayed, 24))).toEqual(['first', 'next']);
    expect(uids(orderProducts(list, NO_DELAY, 24))).toEqual(['next', 'first']);
  });

  it('does not mutate the input (spec §4 "Product timing and order")', () => {
    const list = [product('late', 0, [[60, 70]]), product('early', 1, [[10, 20]])];
    const copy = [...list];
    const ordered = orderProducts(list, NO_DELAY, 0);
    expect(list).toEqual(copy);
    expect(ordered).not.toBe(list);
  });

  it('returns an empty list for no products (spec §4 "Product timing and order")', () => {
    expect(orderProducts([], NO_DELAY, 0)).toEqual([]);
  });
});
