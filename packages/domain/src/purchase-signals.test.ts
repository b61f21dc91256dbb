import { describe, expect, it } from 'vitest';
import { latestPurchaseBadge, type PurchaseSignal, popularProductUids } from './purchase-signals.ts';

let next = 0;
function purchase(productUid: string, overrides: Partial<PurchaseSignal> = {}): PurchaseSignal {
  next += 1;
  return { uid: `p${next}`, productUid, buyerName: 'Ada', time: 1_000 + next, ...overrides };
}

describe('popularProductUids', () => {
  it('labels a product popular from POPULAR_PURCHASE_COUNT (3) purchases, not one fewer', () => {
    const twice = [purchase('a'), purchase('a'), purchase('b')];
    expect(popularProductUids(twice)).toEqual(new Set());
    expect(popularProductUids([...twice, purchase('a')])).toEqual(new Set(['a']));
  });

  it('counts a purchase delivered twice once', () => {
    const one = purchase('a');
    expect(popularProductUids([one, one, one, purchase('a')])).toEqual(new Set());
  });

  it('labels nothing without purchases', () => {
    expect(popularProductUids([])).toEqual(new Set());
  });
});

describe('latestPurchaseBadge', () => {
  const inShow = (uid: string) => uid !== 'elsewhere';

  it('names the buyer and product of the newest purchase', () => {
    const older = purchase('a', { time: 10, buyerName: 'Ada' });
    const newer = purchase('b', { time: 20, buyerName: 'Bo' });
    expect(latestPurchaseBadge([newer, older], inShow)).toEqual({
      purchaseUid: newer.uid,
      productUid: 'b',
      buyerName: 'Bo',
    });
  });

  it('skips purchases of products the show does not present', () => {
    const shown = purchase('a', { time: 10 });
    expect(latestPurchaseBadge([shown, purchase('elsewhere', { time: 20 })], inShow)?.productUid).toBe('a');
    expect(latestPurchaseBadge([purchase('elsewhere')], inShow)).toBeNull();
  });

  it('gives no buyer name when the order carried only blanks', () => {
    expect(latestPurchaseBadge([purchase('a', { buyerName: '  ' })], inShow)?.buyerName).toBeNull();
  });

  it('shows nothing without purchases', () => {
    expect(latestPurchaseBadge([], inShow)).toBeNull();
  });
});
