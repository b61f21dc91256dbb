import { describe, expect, it } from 'vitest';
import {
  checkAdd,
  checkoutProblems,
  isPastDeadline,
  linesTotal,
  type OrderDetails,
  orderRefusal,
} from './order-rules.ts';

const NOW = 1_800_000_000_000;

describe('isPastDeadline and orderRefusal (spec §4 "Orders and payment")', () => {
  it('is past the deadline only after it; no deadline never passes', () => {
    expect(isPastDeadline(NOW - 1, NOW)).toBe(true);
    expect(isPastDeadline(NOW, NOW)).toBe(false);
    expect(isPastDeadline(null, NOW)).toBe(false);
  });

  it('refuses every change and payment of a locked order', () => {
    for (const action of ['add', 'remove', 'order', 'pay', 'editDetails'] as const) {
      expect(orderRefusal({ status: 'locked', deadline: null }, NOW, action)).toBe('locked');
    }
  });

  it('refuses adding, ordering and paying past the deadline, but lets stock be given back', () => {
    const overdue = { status: 'ordered' as const, deadline: NOW - 1 };
    expect(orderRefusal(overdue, NOW, 'add')).toBe('deadlineOverdue');
    expect(orderRefusal(overdue, NOW, 'order')).toBe('deadlineOverdue');
    expect(orderRefusal(overdue, NOW, 'pay')).toBe('deadlineOverdue');
    expect(orderRefusal(overdue, NOW, 'remove')).toBeNull();
    expect(orderRefusal({ status: 'open', deadline: NOW + 1 }, NOW, 'pay')).toBeNull();
  });
});

describe('checkAdd (spec §4 product feedback states)', () => {
  const base = {
    productFound: true,
    priced: true,
    deadline: null,
    now: NOW,
    hasVariants: false,
    requestedVariant: null,
    variantFound: false,
  };

  it('lets stock decide a plain product in time', () => {
    expect(checkAdd(base)).toBeNull();
  });

  it('is not found for an unknown or unpriced product', () => {
    expect(checkAdd({ ...base, productFound: false })).toBe('notFound');
    expect(checkAdd({ ...base, priced: false })).toBe('notFound');
  });

  it('is expired past the deadline', () => {
    expect(checkAdd({ ...base, deadline: NOW - 1 })).toBe('expired');
  });

  it('is variant missing without a known variant, or with a variant of a plain product', () => {
    expect(checkAdd({ ...base, hasVariants: true })).toBe('variantMissing');
    expect(checkAdd({ ...base, hasVariants: true, requestedVariant: 'x', variantFound: false })).toBe(
      'variantMissing',
    );
    expect(checkAdd({ ...base, hasVariants: true, requestedVariant: 'x', variantFound: true })).toBeNull();
    expect(checkAdd({ ...base, requestedVariant: 'x' })).toBe('variantMissing');
  });
});

describe('linesTotal', () => {
  it('sums unit price times quantity in minor units', () => {
    expect(
      linesTotal([
        { unitPrice: 54_900, qty: 2 },
        { unitPrice: 17_900, qty: 1 },
      ]),
    ).toBe(127_700);
    expect(linesTotal([])).toBe(0);
  });
});

describe('checkoutProblems (spec §5 checkout state messages)', () => {
  const complete: OrderDetails = {
    deliveryCountry: 'DK',
    address: {
      name: 'Ada',
      address: 'Mejlgade 1',
      postCode: '8000',
      city: 'Aarhus',
      phone: '+45 12345678',
      emailAddress: 'ada@example.com',
    },
    shippingMethod: 'home_delivery',
    paymentMethod: 'test_card',
    pickupLocationUid: null,
    parcelShopId: null,
    termsAccepted: true,
  };

  it('finds nothing in a complete home delivery', () => {
    expect(checkoutProblems(complete)).toEqual([]);
  });

  it('lists every problem of an empty form', () => {
    const empty: OrderDetails = {
      deliveryCountry: null,
      address: { name: '', address: '', postCode: '', city: '', phone: '', emailAddress: '' },
      shippingMethod: null,
      paymentMethod: null,
      pickupLocationUid: null,
      parcelShopId: null,
      termsAccepted: false,
    };
    expect(checkoutProblems(empty)).toEqual([
      'noShippingMethod',
      'noPaymentMethod',
      'termsNotAccepted',
      'noDeliveryCountry',
      'deliveryAddressMissing',
    ]);
  });

  it('needs a pickup point for store pickup and parcel shops, but no street address for store pickup', () => {
    const pickup = {
      ...complete,
      deliveryCountry: null,
      shippingMethod: 'store_pickup' as const,
      address: { ...complete.address, address: '', postCode: '', city: '' },
    };
    expect(checkoutProblems(pickup)).toEqual(['noPickupPoint']);
    expect(checkoutProblems({ ...pickup, pickupLocationUid: 'store' })).toEqual([]);
    expect(checkoutProblems({ ...complete, shippingMethod: 'parcel_shop' })).toEqual(['noPickupPoint']);
  });

  it('treats a malformed e-mail address as missing', () => {
    expect(
      checkoutProblems({ ...complete, address: { ...complete.address, emailAddress: 'ada.example.com' } }),
    ).toEqual(['deliveryAddressMissing']);
  });
});
