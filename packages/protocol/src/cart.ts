import { z } from 'zod';
import { CurrencyCode, LocaleCode, Timestamp, Uid, WidgetContext } from './common.ts';
import { CheckoutReservationDoc } from './live-documents.ts';
import {
  CHECKOUT_PROBLEMS,
  CHECKOUT_STATUSES,
  FULFILMENT_STATUSES,
  PAYMENT_EVENT_TYPES,
  SHIPPING_METHOD_KINDS,
  TRANSACTION_STATUSES,
} from './vocabulary.ts';

// The cart, checkout, order and payment calls (spec §7 "The calls it makes", §3 "Checkout",
// "Cart reservation", "Order", §4 "Orders and payment"). Every call is a POST with
// `Authorization: Bearer <id token>`; the server computes every price (integer minor units in
// the checkout's currency) and the client never sends one. Names are stable: the web checkout
// is built against them.

/** A user id as the id token names it (same limits as the live queries' userUid). */
const UserUid = z.string().min(1).max(128);

/** Most units of one product (or variant) a shopper can hold in one cart line. */
export const MAX_LINE_QUANTITY = 99;

const Quantity = z
  .number()
  .int('must be a whole number')
  .min(1, 'must be at least 1')
  .max(MAX_LINE_QUANTITY, `must be at most ${MAX_LINE_QUANTITY}`);

// ---------------------------------------------------------------------------------------------
// Cart feedback (spec §4 "Product feedback states", §8 texts)
// ---------------------------------------------------------------------------------------------

/**
 * What became of an add or a quantity change. The first five are the feedback states of spec §4
 * (labels Added, Expired, Sold out, Not found, Variant missing); `updated` and `removed` answer
 * quantity changes and cancellations.
 */
export const CartFeedbackStatus = z.enum([
  'added',
  'expired',
  'soldOut',
  'notFound',
  'variantMissing',
  'updated',
  'removed',
]);
export type CartFeedbackStatus = z.infer<typeof CartFeedbackStatus>;

/** The server's English message per feedback status; the §8 texts are verbatim. Clients translate by status. */
export const CART_FEEDBACK_MESSAGES: Record<CartFeedbackStatus, string> = {
  added: 'Added',
  expired: 'Video expired, products can no longer be purchased.',
  soldOut: 'Product sold out.',
  notFound: 'Not found',
  variantMissing: 'Variant is missing.',
  updated: 'Updated',
  removed: 'Removed',
};

/** Refusals of order changes and payments (spec §8), sent as the `message` of an error body. */
export const ORDER_MESSAGES = {
  deadlineOverdue: 'Sorry, deadline for ordering these products is overdue.',
  locked: 'The order has been locked for changes and payments because it was sent for packing.',
} as const;

/** Error codes (`error` of the error body) of refused checkout calls. */
export const CHECKOUT_ERROR_CODES = {
  /** 409: the campaign deadline has passed (message ORDER_MESSAGES.deadlineOverdue). */
  deadlineOverdue: 'deadline_overdue',
  /** 423: the order was sent to packing (message ORDER_MESSAGES.locked). */
  orderLocked: 'order_locked',
  /** 422: placeOrder or userPaymentStarted with details missing; message lists the §5 state messages. */
  checkoutIncomplete: 'checkout_incomplete',
  /** 409: nothing in the cart to order or pay. */
  emptyCart: 'empty_cart',
  /** 409: the order is already paid in full. */
  nothingToPay: 'nothing_to_pay',
  /** 409: lines cannot be removed or reduced while a payment of the order awaits confirmation. */
  paymentOpen: 'payment_open',
} as const;

/** The answer of every call that changes cart lines: what happened, and the cart afterwards. */
export const CartUpdateResponse = z.object({
  status: CartFeedbackStatus,
  message: z.string(),
  /** The cart's checkout uid (null when the shopper has no cart); the widget routes to it. */
  checkoutUid: z.string().nullable(),
  /** The same document the `checkout` live query delivers. */
  reservation: CheckoutReservationDoc,
});
export type CartUpdateResponse = z.infer<typeof CartUpdateResponse>;

// ---------------------------------------------------------------------------------------------
// Cart calls (spec §7)
// ---------------------------------------------------------------------------------------------

/** `/shopapiv2/cart/getCartUid`: the shopper's cart in a campaign. */
export const GetCartUidRequest = z
  .object({
    campaignUid: Uid,
    pageUid: Uid,
    context: WidgetContext.default('checkout'),
    /** Create an empty cart when there is none (the `{campaignUid}/create` route). */
    create: z.boolean().default(false),
  })
  .strict();
export type GetCartUidRequest = z.infer<typeof GetCartUidRequest>;

/** uid is null when the shopper has no cart in the campaign (and `create` was false). */
export const GetCartUidResponse = z.object({ uid: z.string().nullable() });
export type GetCartUidResponse = z.infer<typeof GetCartUidResponse>;

/**
 * `/shopapiv2/cart/addSingle`: reserve `quantity` more units of a product (of a variant when the
 * product has variants). Creates the cart when needed. Answers 200 with a CartUpdateResponse
 * whose status says whether it was added or why not (sold out, expired, …). 409
 * `shopper_limit` (`maxUnitsPerShopper` in the body) when the shopper would hold more units of
 * the product, in their carts and unpaid orders of the store, than the store's integrity setting
 * allows; the same for raising a quantity. 429 `rate_limited` past the per-user or per-address
 * limit of cart changes (and of pings), when the server's abuse limits are on.
 */
export const AddSingleRequest = z
  .object({
    productUid: Uid,
    variantUid: Uid.nullable().default(null),
    quantity: Quantity.default(1),
    context: WidgetContext.default('checkout'),
    pageUid: Uid,
    campaignUid: Uid,
    /**
     * The currency the shopper is shown prices in (their language's, spec §1). The cart follows
     * what was shown (domain currency-rules): a new cart is priced in it when the product has a
     * price there, and an open cart in another currency is repriced. Without it, the shopper's
     * saved reservation decides.
     */
    currency: CurrencyCode.optional(),
  })
  .strict();
export type AddSingleRequest = z.infer<typeof AddSingleRequest>;
export type AddSingleInput = z.input<typeof AddSingleRequest>;

/** `/functions/customerpage/loadUserReservation`: `campaign` is a campaign uid, `user` must be the caller. */
export const LoadUserReservationRequest = z
  .object({
    pageUid: Uid,
    campaign: Uid,
    user: UserUid,
    context: WidgetContext.default('checkout'),
  })
  .strict();
export type LoadUserReservationRequest = z.infer<typeof LoadUserReservationRequest>;

/** The reservation loaded per user (spec §3): the shopper's language and currency for this store. */
export const UserReservation = z.object({
  pageUid: Uid,
  language: LocaleCode,
  /**
   * Whether `language` is one the shopper saved for this store; else it is their account's or
   * the store's default. The player starts in a saved language (domain locale `startLanguage`).
   */
  languageSaved: z.boolean(),
  /** The currency the server prices this shopper's cart in. */
  currency: CurrencyCode,
  showCheckoutPresentation: z.boolean(),
  /** The shopper's cart in the campaign, if any (same as getCartUid). */
  checkoutUid: z.string().nullable(),
});
export type UserReservation = z.infer<typeof UserReservation>;

/**
 * `/functions/customerpage/saveUserReservation`: the load payload plus the fields to change.
 * A currency change reprices an open cart (never an order). Answers the saved UserReservation.
 */
export const SaveUserReservationRequest = LoadUserReservationRequest.extend({
  language: LocaleCode.optional(),
  currency: CurrencyCode.optional(),
  showCheckoutPresentation: z.boolean().optional(),
}).strict();
export type SaveUserReservationRequest = z.infer<typeof SaveUserReservationRequest>;

/**
 * `/functions/customerpage/cancelReservation`: with `productUid`, removes that line (and
 * `variantUid` selects the variant's line); without, cancels the whole cart. Stock is released.
 * Answers a CartUpdateResponse (status `removed`). Refused once the order is locked.
 */
export const CancelReservationRequest = z
  .object({
    pageUid: Uid,
    campaign: Uid,
    user: UserUid,
    productUid: Uid.optional(),
    variantUid: Uid.nullable().default(null),
  })
  .strict();
export type CancelReservationRequest = z.infer<typeof CancelReservationRequest>;

/**
 * `/functions/customerpage/changeCheckoutProductQuantity`: sets a line's quantity (absolute, so a
 * retried call does no harm); 0 removes it. Raising it reserves more stock and may answer
 * `soldOut` (the line keeps its old quantity). Refused past the deadline and once locked.
 */
export const ChangeCheckoutProductQuantityRequest = z
  .object({
    pageUid: Uid,
    campaignUid: Uid,
    checkoutUid: Uid,
    productUid: Uid,
    variantUid: Uid.nullable().default(null),
    quantity: z
      .number()
      .int('must be a whole number')
      .min(0, 'must not be negative')
      .max(MAX_LINE_QUANTITY, `must be at most ${MAX_LINE_QUANTITY}`),
  })
  .strict();
export type ChangeCheckoutProductQuantityRequest = z.infer<typeof ChangeCheckoutProductQuantityRequest>;

// ---------------------------------------------------------------------------------------------
// Checkout details, options and the order (spec §2 multi-step checkout, §3 Order, §5)
// ---------------------------------------------------------------------------------------------

/** Delivery countries offered (ISO 3166-1 alpha-2). */
export const DELIVERY_COUNTRIES = ['DK', 'SE', 'NO', 'FI', 'PL', 'DE', 'NL', 'ES', 'FR', 'GB'] as const;
export const DeliveryCountry = z.enum(DELIVERY_COUNTRIES);
export type DeliveryCountry = z.infer<typeof DeliveryCountry>;

export const ShippingMethodKind = z.enum(SHIPPING_METHOD_KINDS);
export type ShippingMethodKind = z.infer<typeof ShippingMethodKind>;

/** Payment methods; `test_card` is the built-in test provider's hosted page. */
export const PaymentMethodId = z.enum(['test_card']);
export type PaymentMethodId = z.infer<typeof PaymentMethodId>;

const FormText = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`);

/**
 * The address and contact fields of spec §3 "Address and contact form fields". Empty means not
 * filled. The shopper types name … note; firstName, lastName, postcodeAndCity and commentField are
 * derived from them (`completeCheckoutAddress` of @vitrine/domain, which documents the rule) and
 * the server recomputes them on every save, so what a client sends for them is ignored.
 */
export const CheckoutAddress = z
  .object({
    name: FormText(200).default(''),
    firstName: FormText(200).default(''),
    lastName: FormText(200).default(''),
    address: FormText(300).default(''),
    postCode: FormText(20).default(''),
    city: FormText(100).default(''),
    postcodeAndCity: FormText(121).default(''),
    phone: FormText(50).default(''),
    emailAddress: FormText(200).default(''),
    note: FormText(1000).default(''),
    commentField: FormText(1000).default(''),
  })
  .strict();
export type CheckoutAddress = z.infer<typeof CheckoutAddress>;

/** What the shopper filled in at checkout; every field may be missing until the order is placed. */
export const CheckoutDetails = z
  .object({
    deliveryCountry: DeliveryCountry.nullable().default(null),
    address: CheckoutAddress.default(CheckoutAddress.parse({})),
    shippingMethod: ShippingMethodKind.nullable().default(null),
    paymentMethod: PaymentMethodId.nullable().default(null),
    /** For store_pickup: a PickupLocation uid. */
    pickupLocationUid: z.string().max(128).nullable().default(null),
    /** For parcel_shop: a ParcelShop id from findParcelShops. */
    parcelShopId: z.string().max(128).nullable().default(null),
    termsAccepted: z.boolean().default(false),
  })
  .strict();
export type CheckoutDetails = z.infer<typeof CheckoutDetails>;

/**
 * Why a checkout cannot be ordered yet, as codes (spec §5 "Checkout state messages"); the
 * server's 422 message joins CHECKOUT_PROBLEM_MESSAGES of the problems.
 */
export const CheckoutProblem = z.enum(CHECKOUT_PROBLEMS);
export type CheckoutProblem = z.infer<typeof CheckoutProblem>;

export const CHECKOUT_PROBLEM_MESSAGES: Record<CheckoutProblem, string> = {
  noShippingMethod: 'No shipping method selected.',
  noPaymentMethod: 'No payment method selected.',
  termsNotAccepted: 'Terms and conditions not accepted.',
  noPickupPoint: 'No pickup point selected.',
  noDeliveryCountry: 'Select your delivery country.',
  deliveryAddressMissing: 'Delivery address is missing.',
};

/** Identifies a checkout in the checkout, order and payment calls. */
const CheckoutRef = { pageUid: Uid, campaignUid: Uid, checkoutUid: Uid };

/** `/functions/customerpage/loadCheckout`: the checkout (cart or order) as the checkout pages show it. */
export const LoadCheckoutRequest = z.object(CheckoutRef).strict();
export type LoadCheckoutRequest = z.infer<typeof LoadCheckoutRequest>;

/**
 * `/functions/customerpage/updateCheckoutDetails`: replaces the checkout details (send them
 * whole; missing fields become empty). Answers the CheckoutView. Refused once locked.
 */
export const UpdateCheckoutDetailsRequest = z.object({ ...CheckoutRef, details: CheckoutDetails }).strict();
export type UpdateCheckoutDetailsRequest = z.infer<typeof UpdateCheckoutDetailsRequest>;
export type UpdateCheckoutDetailsInput = z.input<typeof UpdateCheckoutDetailsRequest>;

/** `/functions/customerpage/checkoutOptions`: what the checkout form offers for this checkout. */
export const CheckoutOptionsRequest = z.object(CheckoutRef).strict();
export type CheckoutOptionsRequest = z.infer<typeof CheckoutOptionsRequest>;

export const ShippingMethod = z.object({
  kind: ShippingMethodKind,
  /** Freight in the checkout's currency, minor units. */
  price: z.number().int().nonnegative(),
  currency: CurrencyCode,
  /** The order subtotal (minor units) from which this method costs nothing; null when it never does. */
  freeOver: z.number().int().nonnegative().nullable(),
});
export type ShippingMethod = z.infer<typeof ShippingMethod>;

/** A store where an order can be picked up (`/select-checkout-location/…`). */
export const PickupLocation = z.object({
  uid: z.string(),
  name: z.string(),
  address: z.string(),
  postCode: z.string(),
  city: z.string(),
  /** Free text set by the store ("Mon–Fri 10–18"); empty when it set none. */
  openingHours: z.string(),
});
export type PickupLocation = z.infer<typeof PickupLocation>;

export const CheckoutOptions = z.object({
  countries: z.array(DeliveryCountry),
  shippingMethods: z.array(ShippingMethod),
  paymentMethods: z.array(PaymentMethodId),
  pickupLocations: z.array(PickupLocation),
});
export type CheckoutOptions = z.infer<typeof CheckoutOptions>;

/**
 * `/functions/customerpage/findParcelShops`: parcel shops (service points) near an address. An
 * empty list means none was found: show "No parcel shop was found on the address; check the
 * address or pick another delivery method."
 */
export const FindParcelShopsRequest = z
  .object({
    ...CheckoutRef,
    country: DeliveryCountry,
    address: FormText(300).default(''),
    postCode: FormText(20).min(1, 'must not be empty'),
    city: FormText(100).default(''),
  })
  .strict();
export type FindParcelShopsRequest = z.infer<typeof FindParcelShopsRequest>;

export const ParcelShop = z.object({
  id: z.string(),
  name: z.string(),
  address: z.string(),
  postCode: z.string(),
  city: z.string(),
  country: DeliveryCountry,
});
export type ParcelShop = z.infer<typeof ParcelShop>;

export const FindParcelShopsResponse = z.object({ parcelShops: z.array(ParcelShop) });
export type FindParcelShopsResponse = z.infer<typeof FindParcelShopsResponse>;

/**
 * `/functions/customerpage/placeOrder` (the confirm step): turns the cart into an order with an
 * order number; its stock stops expiring. Refused: 409 deadline_overdue, 423 order_locked,
 * 422 checkout_incomplete (details missing), 409 empty_cart. Placing an already placed order
 * again answers it unchanged (after re-checking details, so edits before packing are kept).
 */
export const PlaceOrderRequest = z.object(CheckoutRef).strict();
export type PlaceOrderRequest = z.infer<typeof PlaceOrderRequest>;

export const TransactionStatus = z.enum(TRANSACTION_STATUSES);
export type TransactionStatus = z.infer<typeof TransactionStatus>;

/** A payment attempt (spec §3 "Checkout": transactions with paymentOK, allowReopen, amountRefunded, totalPrice). */
export const Transaction = z.object({
  uid: z.string(),
  provider: z.string(),
  status: TransactionStatus,
  paymentOK: z.boolean(),
  allowReopen: z.boolean(),
  /** Minor units refunded; the transaction counts for its total less this (spec §5, see countedAmount). */
  amountRefunded: z.number().int().nonnegative(),
  /** Minor units this attempt is for. */
  totalPrice: z.number().int().nonnegative(),
  /**
   * Minor units received that the order did not owe (its provider confirmed it after the order
   * shrank or another attempt paid it): they do not count, and the shop owes them back.
   */
  refundDue: z.number().int().nonnegative(),
  currency: CurrencyCode,
  created: Timestamp,
  updated: Timestamp,
});
export type Transaction = z.infer<typeof Transaction>;

/** One item of a checkout (spec §3: item, price, quantity, total). */
export const CheckoutItem = z.object({
  productUid: z.string(),
  variantUid: z.string().nullable(),
  item: z.string(),
  variantName: z.string().nullable(),
  sku: z.string(),
  image: z.string().nullable(),
  /** Unit price, minor units. */
  price: z.number().int().nonnegative(),
  quantity: z.number().int().positive(),
  total: z.number().int().nonnegative(),
});
export type CheckoutItem = z.infer<typeof CheckoutItem>;

/** The checkout/order as the checkout, order and payment-received pages show it. Amounts in minor units of `currency`. */
/**
 * Where a sent-to-packing order is (issue 33 item 11): its status, when each step happened and,
 * once shipped, the carrier, tracking number and tracking link (always http(s)).
 */
export const OrderFulfilment = z.object({
  status: z.enum(FULFILMENT_STATUSES),
  packedAt: Timestamp.nullable(),
  shippedAt: Timestamp.nullable(),
  deliveredAt: Timestamp.nullable(),
  /** A known carrier's id (KNOWN_CARRIERS) or the name the staff typed. */
  carrier: z.string().nullable(),
  /** The carrier's name as shown. */
  carrierName: z.string().nullable(),
  trackingNumber: z.string().nullable(),
  trackingUrl: z.string().nullable(),
});
export type OrderFulfilment = z.infer<typeof OrderFulfilment>;

export const CheckoutView = z.object({
  uid: z.string(),
  pageUid: Uid,
  campaignUid: Uid,
  status: z.enum(CHECKOUT_STATUSES),
  orderNumber: z.number().int().nullable(),
  orderedAt: Timestamp.nullable(),
  currency: CurrencyCode,
  language: LocaleCode,
  items: z.array(CheckoutItem),
  subtotal: z.number().int().nonnegative(),
  /** Shipping cost of the chosen method; 0 until one is chosen. */
  freight: z.number().int().nonnegative(),
  totalPrice: z.number().int().nonnegative(),
  /** Sum of the transactions that count (spec §5 counting rules). */
  paidAmount: z.number().int().nonnegative(),
  remainingAmount: z.number().int().nonnegative(),
  payed: z.boolean(),
  /** Sent to packing: no changes, no payments. */
  locked: z.boolean(),
  deadline: Timestamp.nullable(),
  deadlinePassed: z.boolean(),
  details: CheckoutDetails,
  /** The chosen parcel shop with its address (details.parcelShopId resolved), so it can be named. */
  parcelShop: ParcelShop.nullable().optional(),
  /** What still blocks placing the order (empty when it can be placed). */
  problems: z.array(CheckoutProblem),
  transactions: z.array(Transaction),
  /** Where the order is after packing; null until it is sent to packing. */
  fulfilment: OrderFulfilment.nullable().optional(),
});
export type CheckoutView = z.infer<typeof CheckoutView>;

// ---------------------------------------------------------------------------------------------
// Payment (spec §4 "Orders and payment", §7 userPaymentStarted)
// ---------------------------------------------------------------------------------------------

/**
 * `/functions/customerpage/userPaymentStarted`: starts paying the remaining amount of a placed
 * order with its payment method. Answers where to send the shopper (the provider's hosted page).
 * `returnPath` is a site-relative path ("/demo-store/…/success") the payment page returns to,
 * with `?transaction=<uid>` appended. Refused: 423 locked, 409 deadline_overdue, 409 nothing_to_pay.
 */
export const UserPaymentStartedRequest = z
  .object({
    ...CheckoutRef,
    context: WidgetContext.default('checkout'),
    returnPath: z
      .string()
      .max(1000)
      .regex(/^\/(?!\/)[^\s\\]*$/, 'must be a path on this site starting with a single "/"')
      .optional(),
  })
  .strict();
export type UserPaymentStartedRequest = z.infer<typeof UserPaymentStartedRequest>;

export const PaymentStarted = z.object({
  transactionUid: z.string(),
  /** The provider's hosted payment page; open it in the top window (see paymentLinkForBrowser). */
  paymentUrl: z.string(),
  amount: z.number().int().positive(),
  currency: CurrencyCode,
});
export type PaymentStarted = z.infer<typeof PaymentStarted>;

/** Events a payment provider reports by webhook. */
export const PaymentEventType = z.enum(PAYMENT_EVENT_TYPES);
export type PaymentEventType = z.infer<typeof PaymentEventType>;

/**
 * The body of the test provider's webhook `POST /payments/test/webhook`, signed in the header
 * `vitrine-signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`.
 */
export const PaymentWebhookEvent = z
  .object({
    id: z.string().min(1).max(128),
    type: PaymentEventType,
    transactionUid: z.string().min(1).max(128),
    amount: z.number().int().nonnegative(),
    currency: CurrencyCode,
    /** Milliseconds since the epoch on the provider's clock. */
    created: Timestamp,
  })
  .strict();
export type PaymentWebhookEvent = z.infer<typeof PaymentWebhookEvent>;

export const PAYMENT_SIGNATURE_HEADER = 'vitrine-signature';

/**
 * `/functions/ping` (spec §7): sent every 30 s (10 s timeout) by on-site and own-brand players.
 * It records that the shopper is still on the checkout, which renews the stock hold of an open
 * cart's lines. Answers when the hold now ends (null: nothing held).
 */
export const PingRequest = z
  .object({
    action: z.literal('setLastSeenOnCheckout'),
    pageUid: Uid,
    campaignUid: Uid,
    checkoutUid: Uid.nullable().default(null),
  })
  .strict();
export type PingRequest = z.infer<typeof PingRequest>;

export const PingResponse = z.object({ reservedUntil: Timestamp.nullable() });
export type PingResponse = z.infer<typeof PingResponse>;
