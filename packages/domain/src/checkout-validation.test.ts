import { describe, expect, it } from 'vitest';
import {
  availableCheckoutSteps,
  CHECKOUT_FIELD_MESSAGES,
  CHECKOUT_FORM_MESSAGES,
  type CheckoutFormValues,
  type CheckoutProgress,
  canStartPayment,
  checkoutProblemKey,
  EMPTY_CHECKOUT_FORM,
  isAddressFieldFilled,
  isAddressFieldValid,
  missingAddressFields,
  resolveCheckoutStep,
  validateCheckoutForm,
} from './checkout-validation.ts';
import { checkoutProblems } from './order-rules.ts';

const COMPLETE: CheckoutFormValues = {
  address: {
    address: 'Strandvejen 12',
    city: 'Hellerup',
    postCode: '2900',
    name: 'Ada Jensen',
    emailAddress: 'ada@example.com',
    phone: '+45 12 34 56 78',
  },
  deliveryCountry: 'DK',
  shippingMethod: 'home_delivery',
  pickupLocationUid: null,
  parcelShopId: null,
  paymentMethod: 'test_card',
  termsAccepted: true,
};

const PROGRESS: CheckoutProgress = {
  lineCount: 2,
  formComplete: true,
  paymentStarted: false,
  paid: false,
  locked: false,
  deadlinePassed: false,
};

describe('validateCheckoutForm (spec §5 "Checkout form messages")', () => {
  it('accepts a complete home-delivery form', () => {
    expect(validateCheckoutForm(COMPLETE)).toEqual([]);
  });

  it('gives every form message for an empty form, all six fields in the spec order', () => {
    expect(validateCheckoutForm(EMPTY_CHECKOUT_FORM)).toEqual([
      {
        section: 'address',
        key: CHECKOUT_FORM_MESSAGES.fillOut,
        fields: ['address', 'city', 'postCode', 'name', 'emailAddress', 'phone'],
      },
      { section: 'country', key: checkoutProblemKey('noDeliveryCountry') },
      { section: 'shipping', key: CHECKOUT_FORM_MESSAGES.chooseShipping },
      { section: 'payment', key: CHECKOUT_FORM_MESSAGES.choosePayment },
      { section: 'terms', key: CHECKOUT_FORM_MESSAGES.acceptTerms },
    ]);
  });

  it('names only the missing fields', () => {
    const values = { ...COMPLETE, address: { ...COMPLETE.address, city: '  ', phone: '' } };
    expect(validateCheckoutForm(values)).toEqual([
      { section: 'address', key: CHECKOUT_FORM_MESSAGES.fillOut, fields: ['city', 'phone'] },
    ]);
  });

  it('asks for the store when picking up in store, and needs no street address or country then', () => {
    const values: CheckoutFormValues = {
      ...COMPLETE,
      deliveryCountry: null,
      address: { ...COMPLETE.address, address: '', city: '', postCode: '' },
      shippingMethod: 'store_pickup',
    };
    expect(validateCheckoutForm(values)).toEqual([
      { section: 'pickup', key: CHECKOUT_FORM_MESSAGES.choosePickupStore },
    ]);
    expect(validateCheckoutForm({ ...values, pickupLocationUid: 'store-1' })).toEqual([]);
  });

  it('still needs name, e-mail and phone when picking up in store', () => {
    const values: CheckoutFormValues = {
      ...EMPTY_CHECKOUT_FORM,
      shippingMethod: 'store_pickup',
      pickupLocationUid: 'store-1',
    };
    expect(missingAddressFields(values)).toEqual(['name', 'emailAddress', 'phone']);
  });

  it('asks for a pickup point for parcel-shop delivery, which does need the address', () => {
    const values: CheckoutFormValues = { ...COMPLETE, shippingMethod: 'parcel_shop' };
    expect(validateCheckoutForm(values)).toEqual([
      { section: 'pickup', key: CHECKOUT_FORM_MESSAGES.selectPickupPoint },
    ]);
    expect(validateCheckoutForm({ ...values, parcelShopId: 'point-7' })).toEqual([]);
    expect(
      missingAddressFields({ ...values, address: { ...COMPLETE.address, postCode: '' }, parcelShopId: 'p' }),
    ).toEqual(['postCode']);
  });

  it('needs payment method and terms independently', () => {
    expect(validateCheckoutForm({ ...COMPLETE, paymentMethod: null })).toEqual([
      { section: 'payment', key: CHECKOUT_FORM_MESSAGES.choosePayment },
    ]);
    expect(validateCheckoutForm({ ...COMPLETE, termsAccepted: false })).toEqual([
      { section: 'terms', key: CHECKOUT_FORM_MESSAGES.acceptTerms },
    ]);
  });

  // Issue 13 §8: a filled field that cannot be right gets its own message, not "Please fill out".
  it('treats a filled e-mail address without "@" or domain as filled but invalid', () => {
    expect(isAddressFieldFilled('emailAddress', 'ada.example.com')).toBe(true);
    expect(isAddressFieldValid('emailAddress', 'ada.example.com')).toBe(false);
    expect(isAddressFieldValid('emailAddress', 'ada@example')).toBe(false);
    expect(isAddressFieldValid('emailAddress', ' ada@example.com ')).toBe(true);
  });

  it('accepts phone numbers with separators and a country code, and refuses letters or too few digits', () => {
    for (const phone of ['+45 12 34 56 78', '(030) 123-4567', '0045/12345678', '12 34 56'])
      expect(isAddressFieldValid('phone', phone), phone).toBe(true);
    for (const phone of ['abc', '12', '+45 12 ab 56 78', '1234567890123456'])
      expect(isAddressFieldValid('phone', phone), phone).toBe(false);
  });

  it('gives an invalid e-mail or phone a field-level message and keeps "Please fill out" for empty fields', () => {
    const errors = validateCheckoutForm({
      ...COMPLETE,
      address: { ...COMPLETE.address, emailAddress: 'ada.example.com', phone: 'abc', name: '' },
    });
    expect(errors).toEqual([
      { section: 'address', key: CHECKOUT_FORM_MESSAGES.fillOut, fields: ['name'] },
      { section: 'address', key: CHECKOUT_FIELD_MESSAGES.emailAddress, field: 'emailAddress' },
      { section: 'address', key: CHECKOUT_FIELD_MESSAGES.phone, field: 'phone' },
    ]);
    expect(checkoutProblems({ ...COMPLETE, address: { ...COMPLETE.address, phone: 'abc' } })).toEqual([
      'deliveryAddressMissing',
    ]);
  });
});

describe('form messages and state messages (spec §5)', () => {
  it('keys state messages by problem code', () => {
    expect(checkoutProblemKey('noDeliveryCountry')).toBe('checkout.state.noDeliveryCountry');
  });

  it('agrees with validateCheckoutForm on whether the form is complete', () => {
    const samples: CheckoutFormValues[] = [
      COMPLETE,
      EMPTY_CHECKOUT_FORM,
      { ...COMPLETE, termsAccepted: false },
      { ...COMPLETE, deliveryCountry: null },
      { ...COMPLETE, deliveryCountry: null, shippingMethod: 'store_pickup', pickupLocationUid: 's' },
      { ...COMPLETE, address: { ...COMPLETE.address, emailAddress: 'nope' } },
      { ...COMPLETE, address: { ...COMPLETE.address, city: ' ' } },
      { ...COMPLETE, shippingMethod: 'parcel_shop' },
      { ...COMPLETE, shippingMethod: 'store_pickup', address: { ...COMPLETE.address, city: '' } },
      {
        ...COMPLETE,
        shippingMethod: 'store_pickup',
        pickupLocationUid: 's',
        address: { ...COMPLETE.address, city: '' },
      },
      { ...COMPLETE, paymentMethod: null },
    ];
    for (const values of samples)
      expect(checkoutProblems(values).length === 0).toBe(validateCheckoutForm(values).length === 0);
  });
});

describe('checkout steps (spec §4 "Checkout steps are cart, confirm, payment")', () => {
  it('opens confirmation only for a non-empty, complete order before the deadline', () => {
    expect(availableCheckoutSteps(PROGRESS)).toEqual({ cart: true, confirm: true, payment: false });
    expect(availableCheckoutSteps({ ...PROGRESS, formComplete: false }).confirm).toBe(false);
    expect(availableCheckoutSteps({ ...PROGRESS, lineCount: 0 }).confirm).toBe(false);
    expect(availableCheckoutSteps({ ...PROGRESS, deadlinePassed: true }).confirm).toBe(false);
  });

  it('opens payment once it was started, and only payment once paid or locked', () => {
    expect(availableCheckoutSteps({ ...PROGRESS, paymentStarted: true }).payment).toBe(true);
    expect(availableCheckoutSteps({ ...PROGRESS, paid: true })).toEqual({
      cart: false,
      confirm: false,
      payment: true,
    });
    expect(availableCheckoutSteps({ ...PROGRESS, locked: true })).toEqual({
      cart: false,
      confirm: false,
      payment: true,
    });
  });

  it('falls back to the furthest open step before the asked one', () => {
    expect(resolveCheckoutStep('confirm', PROGRESS)).toBe('confirm');
    expect(resolveCheckoutStep('confirm', { ...PROGRESS, formComplete: false })).toBe('cart');
    expect(resolveCheckoutStep('payment', PROGRESS)).toBe('confirm');
    expect(resolveCheckoutStep('payment', { ...PROGRESS, formComplete: false })).toBe('cart');
    expect(resolveCheckoutStep('cart', { ...PROGRESS, paid: true })).toBe('payment');
    expect(resolveCheckoutStep('confirm', { ...PROGRESS, locked: true })).toBe('payment');
  });

  it('starts a payment only when there is something payable and the order is open', () => {
    expect(canStartPayment(PROGRESS, 14900)).toBe(true);
    expect(canStartPayment(PROGRESS, 0)).toBe(false);
    expect(canStartPayment({ ...PROGRESS, locked: true }, 14900)).toBe(false);
    expect(canStartPayment({ ...PROGRESS, deadlinePassed: true }, 14900)).toBe(false);
    expect(canStartPayment({ ...PROGRESS, formComplete: false }, 14900)).toBe(false);
  });
});
