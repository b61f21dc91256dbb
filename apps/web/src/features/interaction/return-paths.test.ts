import { describe, expect, it } from 'vitest';
import { safeReturnPath, withoutCheckout } from './return-paths.ts';

describe('withoutCheckout (logging out unloads the cart, spec §2 route behaviour)', () => {
  it('drops the checkout of each widget route variant', () => {
    expect(withoutCheckout('/widget/shop/camp/chk1', 'chk1')).toBe('/widget/shop/camp');
    expect(withoutCheckout('/widget/shop/campaign/camp/event/ev/checkout/chk1', 'chk1')).toBe(
      '/widget/shop/campaign/camp/event/ev',
    );
  });
  it('leaves routes without a checkout alone', () => {
    expect(withoutCheckout('/widget/shop/camp', undefined)).toBeNull();
    expect(withoutCheckout('/widget/shop/camp', 'other')).toBeNull();
  });
});

describe('safeReturnPath', () => {
  it('returns to paths of this site only', () => {
    expect(safeReturnPath('/widget/shop/camp?x=1')).toBe('/widget/shop/camp?x=1');
    expect(safeReturnPath('//evil.example/')).toBeNull();
    expect(safeReturnPath('/\\evil.example/')).toBeNull();
    expect(safeReturnPath('https://evil.example/')).toBeNull();
    expect(safeReturnPath('javascript:alert(1)')).toBeNull();
    expect(safeReturnPath(null)).toBeNull();
  });
});
