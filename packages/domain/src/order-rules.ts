/**
 * Rules of carts and orders (spec §4 "Orders and payment", §5 "Checkout state messages"): what
 * an add to the cart becomes, when an order may change or be paid, and what blocks placing it.
 */

import type { TypedCheckoutAddress } from './checkout-address.ts';
import type { CheckoutProblem, CheckoutStatus, ShippingMethodKind } from './vocabulary.ts';

/**
 * How long stock stays reserved for a cart line that has not been ordered; every change to the
 * cart renews it. Not a spec value: long enough to fill in the checkout form, short enough that a
 * flash sale's abandoned carts return their units.
 */
export const CART_RESERVATION_HOLD_MS = 20 * 60_000;

/**
 * The longest a cart line holds stock, from when it was added, however often the shopper is
 * active (pings, other changes): one viewer cannot keep a product from everyone else forever.
 * Not a spec value: three holds, time enough to decide and pay.
 */
export const CART_RESERVATION_MAX_AGE_MS = 60 * 60_000;

/** Whether a campaign deadline (null: none) has passed: the products can no longer be ordered. */
export const isPastDeadline = (deadline: number | null, now: number) => deadline !== null && now > deadline;

/** Why an order change or payment is refused, most important first; null when it is allowed. */
export type OrderRefusal = 'locked' | 'deadlineOverdue';

/**
 * Whether an order may be changed, ordered or paid (spec §4): never once it is locked (sent to
 * packing), and not after the campaign deadline. Removing lines stays possible after the deadline
 * (it only gives stock back), but not once locked.
 */
export function orderRefusal(
  checkout: { status: CheckoutStatus; deadline: number | null },
  now: number,
  action: 'add' | 'remove' | 'order' | 'pay' | 'editDetails',
): OrderRefusal | null {
  if (checkout.status === 'locked') return 'locked';
  if (
    (action === 'add' || action === 'order' || action === 'pay') &&
    isPastDeadline(checkout.deadline, now)
  ) {
    return 'deadlineOverdue';
  }
  return null;
}

/** What an add to the cart becomes before stock is looked at (spec §4 product feedback states). */
export type AddCheck = 'expired' | 'notFound' | 'variantMissing' | null;

/**
 * The feedback of an add that cannot reserve anything, or null when stock decides:
 * - notFound: the product is not in the store or not shown in the campaign, or has no price in
 *   the cart's currency;
 * - expired: the campaign deadline (the video's expiry) has passed;
 * - variantMissing: a product with variants without a known variant, or a variant asked of a
 *   product that has none.
 */
export function checkAdd(input: {
  productFound: boolean;
  priced: boolean;
  deadline: number | null;
  now: number;
  hasVariants: boolean;
  requestedVariant: string | null;
  variantFound: boolean;
}): AddCheck {
  if (!input.productFound) return 'notFound';
  if (isPastDeadline(input.deadline, input.now)) return 'expired';
  if (
    input.hasVariants
      ? input.requestedVariant === null || !input.variantFound
      : input.requestedVariant !== null
  ) {
    return 'variantMissing';
  }
  if (!input.priced) return 'notFound';
  return null;
}

export interface PricedLine {
  unitPrice: number;
  qty: number;
}

export const lineTotal = (line: PricedLine) => line.unitPrice * line.qty;

/** The total of the lines (minor units). */
export const linesTotal = (lines: readonly PricedLine[]) =>
  lines.reduce((sum, line) => sum + lineTotal(line), 0);

export interface OrderDetails {
  deliveryCountry: string | null;
  /** What the shopper typed; the rules never read the note. */
  address: Omit<TypedCheckoutAddress, 'note'>;
  shippingMethod: ShippingMethodKind | null;
  paymentMethod: string | null;
  pickupLocationUid: string | null;
  parcelShopId: string | null;
  termsAccepted: boolean;
}

// Deliberately loose, like the form's check: a missing "@" or domain is a typo, not a policy.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Digits with the usual separators, an optional leading "+" (country code); E.164 allows 15 digits. */
const PHONE_PATTERN = /^\+?[\d\s().\-/]+$/;

/** Whether a trimmed value looks like an e-mail address ("name@example.com"). */
export const isEmailAddress = (value: string) => EMAIL_PATTERN.test(value.trim());

/** Whether a value looks like a phone number: 6 to 15 digits, separators allowed, no letters. */
export function isPhoneNumber(value: string): boolean {
  const trimmed = value.trim();
  const digits = trimmed.replace(/\D/g, '').length;
  return PHONE_PATTERN.test(trimmed) && digits >= 6 && digits <= 15;
}

/** Whether the chosen method sends the parcel towards the shopper's address (so it needs one, and a country). */
export const shipsToAddress = (method: ShippingMethodKind | null) => method !== 'store_pickup';

/**
 * What still blocks placing an order. Name, e-mail and phone are always needed; the street
 * address, post code and city, and the delivery country, only when something is shipped.
 */
export function checkoutProblems(details: OrderDetails): CheckoutProblem[] {
  const problems: CheckoutProblem[] = [];
  const shipped = shipsToAddress(details.shippingMethod);
  if (details.shippingMethod === null) problems.push('noShippingMethod');
  if (details.paymentMethod === null) problems.push('noPaymentMethod');
  if (!details.termsAccepted) problems.push('termsNotAccepted');
  if (
    (details.shippingMethod === 'store_pickup' && details.pickupLocationUid === null) ||
    (details.shippingMethod === 'parcel_shop' && details.parcelShopId === null)
  ) {
    problems.push('noPickupPoint');
  }
  if (shipped && details.deliveryCountry === null) problems.push('noDeliveryCountry');
  const { address } = details;
  const contactMissing =
    address.name.trim() === '' || !isPhoneNumber(address.phone) || !isEmailAddress(address.emailAddress);
  const streetMissing =
    shipped && [address.address, address.postCode, address.city].some((v) => v.trim() === '');
  if (contactMissing || streetMissing) problems.push('deliveryAddressMissing');
  return problems;
}
