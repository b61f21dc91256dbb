/**
 * The checkout form's rules (spec §5 "Checkout form messages" and "Checkout state messages") and
 * which checkout step a shopper may be on (spec §4 "Checkout steps are cart, confirm, payment").
 * Messages are i18n keys; their English texts are the spec's, word for word. What blocks placing
 * the order (the state messages) is `checkoutProblems` of order-rules.ts, shared with the server.
 */

import { isEmailAddress, isPhoneNumber, type OrderDetails, shipsToAddress } from './order-rules.ts';
import type { CheckoutProblem } from './vocabulary.ts';

/** The delivery and contact fields, in the order the spec's "Please fill out your …" lists them. */
export const CHECKOUT_ADDRESS_FIELDS = [
  'address',
  'city',
  'postCode',
  'name',
  'emailAddress',
  'phone',
] as const;
export type CheckoutAddressField = (typeof CHECKOUT_ADDRESS_FIELDS)[number];

/** Fields that only matter when something is sent to an address (home or a parcel shop near it). */
const SHIPPED_TO_ADDRESS_FIELDS: ReadonlySet<CheckoutAddressField> = new Set(['address', 'city', 'postCode']);

/** The checkout form: the protocol's CheckoutDetails as the order rules read them. */
export type CheckoutFormValues = OrderDetails;

export const EMPTY_CHECKOUT_FORM: CheckoutFormValues = {
  address: { address: '', city: '', postCode: '', name: '', emailAddress: '', phone: '' },
  deliveryCountry: null,
  shippingMethod: null,
  pickupLocationUid: null,
  parcelShopId: null,
  paymentMethod: null,
  termsAccepted: false,
};

/** i18n keys of spec §5 "Checkout form messages" (English = the spec's text). */
export const CHECKOUT_FORM_MESSAGES = {
  /** "Please fill out your {{fields}}." — fields from `checkout.fields.*`, joined with ", ". */
  fillOut: 'checkout.form.fillOut',
  choosePayment: 'checkout.form.choosePayment',
  chooseShipping: 'checkout.form.chooseShipping',
  acceptTerms: 'checkout.form.acceptTerms',
  choosePickupStore: 'checkout.form.choosePickupStore',
  selectPickupPoint: 'checkout.form.selectPickupPoint',
} as const;

/**
 * Field-level messages for a field that is filled but cannot be right (issue 13 §8): the spec's
 * "Please fill out your …" is for empty fields only.
 */
export const CHECKOUT_FIELD_MESSAGES = {
  emailAddress: 'checkout.form.invalidEmail',
  phone: 'checkout.form.invalidPhone',
} as const;
export type CheckedAddressField = keyof typeof CHECKOUT_FIELD_MESSAGES;

/** The i18n key of a state message (spec §5 "Checkout state messages"; see `checkoutProblems`). */
export const checkoutProblemKey = (problem: CheckoutProblem) => `checkout.state.${problem}` as const;

/** The i18n key of a field's name inside "Please fill out your …" ("address", "post code", …). */
export const checkoutFieldLabelKey = (field: CheckoutAddressField) => `checkout.fields.${field}` as const;

/** The form section a message belongs to, so it is shown next to what it asks for. */
export type CheckoutSection = 'address' | 'country' | 'shipping' | 'pickup' | 'payment' | 'terms';

export interface CheckoutFormError {
  section: CheckoutSection;
  key:
    | (typeof CHECKOUT_FORM_MESSAGES)[keyof typeof CHECKOUT_FORM_MESSAGES]
    | (typeof CHECKOUT_FIELD_MESSAGES)[CheckedAddressField]
    | 'checkout.state.noDeliveryCountry';
  /** For fillOut: the missing fields, in the spec's order. */
  fields?: CheckoutAddressField[];
  /** For a field-level message: the one field it is about. */
  field?: CheckedAddressField;
}

/** Whether an address field is filled in at all (blank is missing; see `isAddressFieldValid`). */
export function isAddressFieldFilled(_field: CheckoutAddressField, value: string): boolean {
  return value.trim() !== '';
}

/** Whether a filled-in field can be right: an e-mail needs "@" and a domain, a phone number digits. */
export function isAddressFieldValid(field: CheckoutAddressField, value: string): boolean {
  if (field === 'emailAddress') return isEmailAddress(value);
  if (field === 'phone') return isPhoneNumber(value);
  return true;
}

/** The filled-in fields that cannot be right, each with its own message. */
export function invalidAddressFields(values: CheckoutFormValues): CheckedAddressField[] {
  return (Object.keys(CHECKOUT_FIELD_MESSAGES) as CheckedAddressField[]).filter(
    (field) =>
      isAddressFieldFilled(field, values.address[field]) &&
      !isAddressFieldValid(field, values.address[field]),
  );
}

/**
 * The address fields still to fill, in the spec's order. Contact fields are always needed; the
 * street address, city and post code are not when the shopper collects the order in a store.
 */
export function missingAddressFields(values: CheckoutFormValues): CheckoutAddressField[] {
  return CHECKOUT_ADDRESS_FIELDS.filter(
    (field) =>
      !(SHIPPED_TO_ADDRESS_FIELDS.has(field) && !shipsToAddress(values.shippingMethod)) &&
      !isAddressFieldFilled(field, values.address[field]),
  );
}

/**
 * The form messages of spec §5 for the values, one per section, in the order of the form.
 * A shipped order without a country gets the state message "Select your delivery country."
 * (the form messages have none for it). Empty means the form may be confirmed.
 */
export function validateCheckoutForm(values: CheckoutFormValues): CheckoutFormError[] {
  const errors: CheckoutFormError[] = [];
  const missing = missingAddressFields(values);
  if (missing.length > 0)
    errors.push({ section: 'address', key: CHECKOUT_FORM_MESSAGES.fillOut, fields: missing });
  for (const field of invalidAddressFields(values))
    errors.push({ section: 'address', key: CHECKOUT_FIELD_MESSAGES[field], field });
  if (shipsToAddress(values.shippingMethod) && values.deliveryCountry === null)
    errors.push({ section: 'country', key: 'checkout.state.noDeliveryCountry' });
  if (values.shippingMethod === null) {
    errors.push({ section: 'shipping', key: CHECKOUT_FORM_MESSAGES.chooseShipping });
  } else if (values.shippingMethod === 'store_pickup' && values.pickupLocationUid === null) {
    errors.push({ section: 'pickup', key: CHECKOUT_FORM_MESSAGES.choosePickupStore });
  } else if (values.shippingMethod === 'parcel_shop' && values.parcelShopId === null) {
    errors.push({ section: 'pickup', key: CHECKOUT_FORM_MESSAGES.selectPickupPoint });
  }
  if (values.paymentMethod === null)
    errors.push({ section: 'payment', key: CHECKOUT_FORM_MESSAGES.choosePayment });
  if (!values.termsAccepted) errors.push({ section: 'terms', key: CHECKOUT_FORM_MESSAGES.acceptTerms });
  return errors;
}

/** The stepper of spec §2 "Cart, Confirmation, Payment" and its routes (choose / confirm / success). */
export const CHECKOUT_STEPS = ['cart', 'confirm', 'payment'] as const;
export type CheckoutStep = (typeof CHECKOUT_STEPS)[number];
export const CHECKOUT_STEP_ROUTE: Record<CheckoutStep, '' | 'confirm' | 'success'> = {
  cart: '',
  confirm: 'confirm',
  payment: 'success',
};

export interface CheckoutProgress {
  /** Order lines in the checkout. */
  lineCount: number;
  /** `validateCheckoutForm` finds nothing (so `checkoutProblems` finds nothing either). */
  formComplete: boolean;
  /** The checkout's payment has been started at least once (the shopper went to the provider). */
  paymentStarted: boolean;
  /** The checkout is paid in full (see the transaction counting rules). */
  paid: boolean;
  /** Sent to packing: no changes and no payments (spec §4). */
  locked: boolean;
  /** The campaign's ordering deadline has passed (spec §4). */
  deadlinePassed: boolean;
}

/** Which steps the shopper may open now. */
export function availableCheckoutSteps(progress: CheckoutProgress): Record<CheckoutStep, boolean> {
  const settled = progress.paid || progress.locked;
  const canOrder = progress.lineCount > 0 && !progress.deadlinePassed;
  return {
    // Once paid or locked the cart cannot change any more; the order is shown on the payment step.
    cart: !settled,
    confirm: !settled && canOrder && progress.formComplete,
    payment: settled || progress.paymentStarted,
  };
}

/**
 * The step to show for the one the route asks for: the asked one when it is open, else the
 * furthest open step before it, else the first open one. A paid or locked order always lands on
 * payment, where the order and its payment state are shown.
 */
export function resolveCheckoutStep(requested: CheckoutStep, progress: CheckoutProgress): CheckoutStep {
  const available = availableCheckoutSteps(progress);
  if (available[requested]) return requested;
  const before = CHECKOUT_STEPS.slice(0, CHECKOUT_STEPS.indexOf(requested)).reverse();
  return before.find((step) => available[step]) ?? CHECKOUT_STEPS.find((step) => available[step]) ?? 'cart';
}

/** Whether the shopper may still change the order's lines, address or choices. */
export const canChangeCheckout = (progress: Pick<CheckoutProgress, 'locked' | 'paid'>) =>
  !progress.locked && !progress.paid;

/** Whether a payment may be started now: something to pay, not locked, not past the deadline. */
export function canStartPayment(
  progress: Pick<CheckoutProgress, 'locked' | 'deadlinePassed' | 'lineCount' | 'formComplete'>,
  remainingAmount: number,
): boolean {
  return (
    !progress.locked &&
    !progress.deadlinePassed &&
    progress.lineCount > 0 &&
    progress.formComplete &&
    remainingAmount > 0
  );
}
