import { describe, expect, it } from 'vitest';
import {
  initialLayout,
  layoutAttributes,
  layoutReducer,
  offeredTabs,
  PLAYER_TABS,
  type PlayerLayout,
  shownTab,
} from './player-layout.ts';

const run = (layout: PlayerLayout, ...actions: Parameters<typeof layoutReducer>[1][]) =>
  actions.reduce(layoutReducer, layout);

describe('upsell mode (spec §2 "Widget layout flags")', () => {
  const withDetails = run(initialLayout('right'), { type: 'openProduct', productUid: 'mug' });

  it('starts when the open product goes into the cart, and shows on the root element', () => {
    expect(initialLayout('right').upsell).toBe(false);
    const upsell = run(withDetails, { type: 'addedToCart' });
    expect(upsell.upsell).toBe(true);
    expect(upsell.productDetails).toBe('mug');
    expect(layoutAttributes(upsell)['data-upsell']).toBe('true');
    expect(layoutAttributes(withDetails)['data-upsell']).toBe('false');
  });

  it('does not start without open product details (nowhere to suggest from)', () => {
    expect(run(initialLayout('right'), { type: 'addedToCart' }).upsell).toBe(false);
  });

  it('ends on dismiss, on opening a product, on going back to the list, on another tab and on closing the sheet', () => {
    const upsell = run(withDetails, { type: 'addedToCart' });
    for (const action of [
      { type: 'dismissUpsell' },
      { type: 'openProduct', productUid: 'scarf' },
      { type: 'closeProduct' },
      { type: 'selectTab', tab: 'comments' },
      { type: 'closeMobilePanel' },
    ] as const) {
      expect(layoutReducer(upsell, action).upsell, action.type).toBe(false);
    }
    // Staying on the products tab or toggling another sheet keeps the suggestions.
    expect(layoutReducer(upsell, { type: 'selectTab', tab: 'products' }).upsell).toBe(true);
  });
});

describe("the panel's tabs (issue 27 §6: no empty Video tab)", () => {
  it('offers the Video tab only for a show with chapters', () => {
    expect(offeredTabs(true)).toEqual(PLAYER_TABS);
    expect(offeredTabs(false)).toEqual(['products', 'comments', 'privateComments']);
  });

  it('shows Products when the chosen tab is not offered (the chapters went away)', () => {
    expect(shownTab('video', offeredTabs(false))).toBe('products');
    expect(shownTab('video', offeredTabs(true))).toBe('video');
    expect(shownTab('comments', offeredTabs(false))).toBe('comments');
  });
});
