import type { ForcedBasketMode } from '@vitrine/protocol/vocabulary';
import { describe, expect, it } from 'vitest';
import {
  hidesCartFeatures,
  isForcedBasketMode,
  isLinkMode,
  type LinkModeInputs,
  sellsIntoHostCart,
} from './link-mode.ts';

const BASE: LinkModeInputs = {
  forcedBasketMode: null,
  onsiteCartMode: 'cart',
  campaignUsesCheckout: false,
  leadModeAfterDeadline: false,
  deadlinePassed: false,
};

/** Every condition that would turn link mode on by itself. */
const ALL_LINK_CONDITIONS: LinkModeInputs = {
  forcedBasketMode: null,
  onsiteCartMode: 'product',
  campaignUsesCheckout: true,
  leadModeAfterDeadline: true,
  deadlinePassed: true,
};

describe('isLinkMode', () => {
  it('is off for a plain cart event (spec §4 "Link mode and basket mode")', () => {
    expect(isLinkMode(BASE)).toBe(false);
    expect(isLinkMode({ ...BASE, onsiteCartMode: null })).toBe(false);
  });

  it('is on when the forced mode is LINKS (spec §4 "the forced mode is LINKS")', () => {
    expect(isLinkMode({ ...BASE, forcedBasketMode: 'LINKS' })).toBe(true);
  });

  it('is on when the cart mode is product (spec §4 "the cart mode is product")', () => {
    expect(isLinkMode({ ...BASE, onsiteCartMode: 'product' })).toBe(true);
  });

  it('is on when the campaign uses checkout (spec §4 "the campaign uses checkout")', () => {
    expect(isLinkMode({ ...BASE, campaignUsesCheckout: true })).toBe(true);
  });

  it('is on when lead mode applies and the deadline has passed (spec §4 "lead mode applies after the deadline has passed")', () => {
    expect(isLinkMode({ ...BASE, leadModeAfterDeadline: true, deadlinePassed: true })).toBe(true);
  });

  it('is off for lead mode before the deadline, or a passed deadline without lead mode (spec §4 "Link mode")', () => {
    expect(isLinkMode({ ...BASE, leadModeAfterDeadline: true })).toBe(false);
    expect(isLinkMode({ ...BASE, deadlinePassed: true })).toBe(false);
  });

  it('is disabled by a forced WEBSHOP, FAVORITES or VITRINE mode (spec §4 "A forced basket mode ... disables link mode")', () => {
    for (const forced of ['WEBSHOP', 'FAVORITES', 'VITRINE'] as const) {
      expect(isLinkMode({ ...ALL_LINK_CONDITIONS, forcedBasketMode: forced })).toBe(false);
    }
  });
});

describe('hidesCartFeatures', () => {
  it('hides cart features only for FAVORITES (spec §4 "FAVORITES also hides all cart features")', () => {
    const modes: (ForcedBasketMode | null)[] = ['WEBSHOP', 'FAVORITES', 'VITRINE', 'LINKS', null];
    expect(modes.filter(hidesCartFeatures)).toEqual(['FAVORITES']);
  });
});

describe('isForcedBasketMode', () => {
  it('accepts the four modes and ignores anything else (spec §6 FORCE_BASKET_MODE, §5 "Unexpected ... data from the host is ignored")', () => {
    expect(['WEBSHOP', 'FAVORITES', 'VITRINE', 'LINKS'].every(isForcedBasketMode)).toBe(true);
    expect(['links', 'CART', '', null, undefined, 3, {}].some(isForcedBasketMode)).toBe(false);
  });
});

describe('sellsIntoHostCart', () => {
  it("uses the host's cart when it takes updates, unless the host forces the built-in basket (VITRINE)", () => {
    expect(sellsIntoHostCart(null, true)).toBe(true);
    expect(sellsIntoHostCart('WEBSHOP', true)).toBe(true);
    expect(sellsIntoHostCart('VITRINE', true)).toBe(false);
    expect(sellsIntoHostCart(null, false)).toBe(false);
    expect(sellsIntoHostCart('WEBSHOP', false)).toBe(false);
  });
});
