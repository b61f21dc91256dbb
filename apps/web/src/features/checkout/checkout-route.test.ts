import { describe, expect, it } from 'vitest';
import { checkoutPagePath, checkoutRouteChange, widgetPathForCheckout } from './checkout-route.ts';

describe('widget route and cart (spec §2 "Route behaviour")', () => {
  const campaign = { pageUid: 'demo-store', campaignUid: 'demo-autumn-living' };
  const event = { ...campaign, eventUid: 'ev-1' };

  it('replaces the campaign route with its checkout variant once a cart is found', () => {
    expect(checkoutRouteChange(campaign, 'co-9')).toBe('/widget/demo-store/demo-autumn-living/co-9');
    expect(checkoutRouteChange(event, 'co-9')).toBe(
      '/widget/demo-store/campaign/demo-autumn-living/event/ev-1/checkout/co-9',
    );
  });

  it('returns to the no-checkout variant when the cart is unloaded', () => {
    expect(checkoutRouteChange({ ...campaign, checkoutUid: 'co-9' }, null)).toBe(
      '/widget/demo-store/demo-autumn-living',
    );
    expect(checkoutRouteChange({ ...event, checkoutUid: 'co-9' }, null)).toBe(
      '/widget/demo-store/campaign/demo-autumn-living/event/ev-1',
    );
  });

  it('moves to the new cart when the checkout changes, and stays when it is the same', () => {
    expect(checkoutRouteChange({ ...campaign, checkoutUid: 'co-1' }, 'co-2')).toBe(
      '/widget/demo-store/demo-autumn-living/co-2',
    );
    expect(checkoutRouteChange({ ...campaign, checkoutUid: 'co-1' }, 'co-1')).toBeNull();
    expect(checkoutRouteChange(campaign, null)).toBeNull();
  });

  it('does nothing while the cart is still loading', () => {
    expect(checkoutRouteChange({ ...campaign, checkoutUid: 'co-1' }, undefined)).toBeNull();
    expect(checkoutRouteChange(campaign, undefined)).toBeNull();
  });

  it('leaves multi-event and store-front routes alone (they only clear the checkout id)', () => {
    expect(checkoutRouteChange({ pageUid: 'demo-store' }, 'co-1')).toBeNull();
    expect(checkoutRouteChange({}, 'co-1')).toBeNull();
    expect(widgetPathForCheckout({ campaignUid: 'c' }, null)).toBeNull();
  });

  it('encodes ids as path segments', () => {
    expect(widgetPathForCheckout({ pageUid: 'a b', campaignUid: 'c/d' }, 'e?f')).toBe(
      '/widget/a%20b/c%2Fd/e%3Ff',
    );
    expect(checkoutPagePath('c 1', 'x')).toBe('/c%201/x');
  });
});
