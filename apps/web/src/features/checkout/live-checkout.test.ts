import { describe, expect, it } from 'vitest';
import { checkoutBehindLive } from './live-checkout.ts';

describe('a checkout page against its first live snapshot', () => {
  const shown = { uid: 'co-1', status: 'ordered', payed: false } as const;

  it('is behind when the order was sent to packing or paid after the page loaded it', () => {
    expect(checkoutBehindLive(shown, { checkoutUid: 'co-1', status: 'locked', payed: false })).toBe(true);
    expect(checkoutBehindLive(shown, { checkoutUid: 'co-1', status: 'ordered', payed: true })).toBe(true);
  });

  it('is not behind when the snapshot says what the page shows, or leaves the state out', () => {
    expect(checkoutBehindLive(shown, { checkoutUid: 'co-1', status: 'ordered', payed: false })).toBe(false);
    expect(checkoutBehindLive(shown, { checkoutUid: 'co-1' })).toBe(false);
  });

  it("compares only the page's own checkout, not a newer cart of the shopper's", () => {
    expect(checkoutBehindLive(shown, { checkoutUid: 'co-2', status: 'open', payed: false })).toBe(false);
    expect(checkoutBehindLive(shown, { checkoutUid: null, status: 'open' })).toBe(false);
  });
});
