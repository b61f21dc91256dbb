import { z } from 'zod';
import { CheckoutView, PickupLocation } from '../../cart.ts';
import { CurrencyCode, Timestamp, Uid } from '../../common.ts';
import { FULFILMENT_STATUSES } from '../../vocabulary.ts';
import { call } from '../define-call.ts';

const StorePath = z.object({ pageUid: Uid });
const OrderPath = z.object({ pageUid: Uid, checkoutUid: z.string().min(1).max(128) });

/** A keyset cursor: where the previous page ended. */
const Cursor = z
  .string()
  .max(300)
  .regex(/^\d+\.[^\s]+$/, 'is not a page cursor');

const QueryBoolean = z.enum(['true', 'false']).transform((value) => value === 'true');

/** The filters of the order list and its CSV export; dates are milliseconds since the epoch. */
export const StudioOrderFilters = z.object({
  /** One show's orders (its campaign). */
  campaignUid: Uid.optional(),
  /** ordered: placed, still open to changes; locked: sent to packing. */
  status: z.enum(['ordered', 'locked']).optional(),
  paid: QueryBoolean.optional(),
  from: z.coerce.number().int().nonnegative().optional(),
  to: z.coerce.number().int().nonnegative().optional(),
  /** An order number, or part of the customer's name or e-mail. */
  q: z.string().trim().max(200).optional(),
});
export type StudioOrderFilters = z.infer<typeof StudioOrderFilters>;

export const StudioOrderSummary = z.object({
  checkoutUid: z.string(),
  orderNumber: z.number().int(),
  orderedAt: Timestamp,
  campaignUid: Uid,
  campaignName: z.string(),
  customerName: z.string(),
  customerEmail: z.string(),
  status: z.enum(['ordered', 'locked']),
  /** Where a sent-to-packing order is (packing, packed, shipped, delivered); null before. */
  fulfilment: z.enum(FULFILMENT_STATUSES).nullable(),
  payed: z.boolean(),
  currency: CurrencyCode,
  /** Minor units: lines and delivery. */
  totalPrice: z.number().int().nonnegative(),
  itemCount: z.number().int().nonnegative(),
});
export type StudioOrderSummary = z.infer<typeof StudioOrderSummary>;

export const StudioRefund = z.object({
  uid: z.string(),
  transactionUid: z.string(),
  amount: z.number().int().positive(),
  currency: CurrencyCode,
  /** requested: the provider took it (its webhook then records it on the payment); failed: it refused. */
  status: z.enum(['requested', 'failed']),
  error: z.string().nullable(),
  requestedBy: z.string(),
  createdAt: Timestamp,
});
export type StudioRefund = z.infer<typeof StudioRefund>;

export const OrderTimelineEntry = z.object({
  at: Timestamp,
  kind: z.enum([
    'cartStarted',
    'ordered',
    'paymentStarted',
    'paymentReceived',
    'paymentDeclined',
    'paymentAbandoned',
    'refundRequested',
    'refundFailed',
    'refunded',
    'sentToPacking',
    'packed',
    'shipped',
    'delivered',
  ]),
  /** Minor units, for payments and refunds. */
  amount: z.number().int().nullable(),
});
export type OrderTimelineEntry = z.infer<typeof OrderTimelineEntry>;

export const StudioOrderDetail = z.object({
  order: CheckoutView,
  campaignName: z.string(),
  /** The chosen store pickup point, resolved; null for other delivery. */
  pickupLocation: PickupLocation.nullable(),
  refunds: z.array(StudioRefund),
  /** Minor units that can still be refunded: received payments less what is refunded or under way. */
  refundable: z.number().int().nonnegative(),
  timeline: z.array(OrderTimelineEntry),
});
export type StudioOrderDetail = z.infer<typeof StudioOrderDetail>;

/**
 * A refund of `amount` minor units. `requestKey` names this one request (a fresh one per form
 * opened): sent twice (a double click, a retried request) it is one refund.
 */
export const StudioRefundRequest = z
  .object({
    amount: z
      .number({ error: 'must be an amount' })
      .int('must be a whole number of minor units')
      .positive('must be more than 0'),
    requestKey: z.string().min(8).max(64),
  })
  .strict();
export type StudioRefundRequest = z.infer<typeof StudioRefundRequest>;

export const StudioContact = z.object({
  uid: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  /** Whether the viewer agreed to be contacted with offers. */
  consent: z.boolean(),
  source: z.string(),
  campaignUid: z.string().nullable(),
  createdAt: Timestamp,
});
export type StudioContact = z.infer<typeof StudioContact>;

export const StudioMail = z.object({
  uid: z.string(),
  template: z.string(),
  locale: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  /** The HTML body as sent; show it only in a sandboxed frame, never as the studio's own HTML. */
  html: z.string(),
  status: z.enum(['queued', 'sent', 'kept', 'failed']),
  attempts: z.number().int().nonnegative(),
  error: z.string().nullable(),
  createdAt: Timestamp,
  sentAt: Timestamp.nullable(),
});
export type StudioMail = z.infer<typeof StudioMail>;

/** A CSV file answered as JSON (the studio signs calls with a bearer, so it saves the text itself). */
export const CsvFile = z.object({ filename: z.string(), csv: z.string(), rows: z.number().int() });
export type CsvFile = z.infer<typeof CsvFile>;

const TrackingText = (max: number) =>
  z
    .string({ error: 'is required' })
    .trim()
    .min(1, 'is required')
    .max(max, `is longer than ${max} characters`);

/**
 * The next step of a sent-to-packing order (issue 33 item 11). Shipping names the carrier (a
 * KNOWN_CARRIERS id, whose tracking page is linked by template, or any name) and the tracking
 * number; `trackingUrl` is a link the staff pastes, which must be http(s). Which step may follow
 * which is the domain's rule (order-fulfilment.ts): a step out of order is 409.
 */
export const StudioFulfilmentRequest = z.discriminatedUnion('status', [
  z.object({ status: z.literal('packed') }).strict(),
  z
    .object({
      status: z.literal('shipped'),
      carrier: TrackingText(60),
      trackingNumber: TrackingText(100),
      trackingUrl: z
        .string()
        .trim()
        .max(2000)
        .refine((text) => text === '' || /^https?:\/\/[^\s/]+/i.test(text), 'must be an http(s) link')
        .optional(),
    })
    .strict(),
  z.object({ status: z.literal('delivered') }).strict(),
]);
export type StudioFulfilmentRequest = z.infer<typeof StudioFulfilmentRequest>;

const PageSize = z.coerce.number().int().min(1).max(200).default(50);

/**
 * The studio's orders, contacts and mail outbox, all the owner's: orders carry revenue (hosts run
 * shows, moderators chat: neither sees it), contacts and mails are shoppers' personal data.
 */
export const orderCalls = {
  // By path, then method in the order of CALL_METHODS (call-types.ts); api-docs.test.ts checks it.
  listStudioContacts: call({
    method: 'GET',
    path: '/staff/stores/:pageUid/contacts',
    auth: { staff: 'owner' },
    summary: 'Contact details viewers left in the store’s shows, newest first, with their consent.',
    params: StorePath,
    query: z.object({
      consent: QueryBoolean.optional(),
      before: Cursor.optional(),
      limit: PageSize,
    }),
    response: z.object({ contacts: z.array(StudioContact), nextBefore: z.string().nullable() }),
  }),
  exportStudioContacts: call({
    method: 'GET',
    path: '/staff/stores/:pageUid/contacts/export',
    auth: { staff: 'owner' },
    summary:
      'The store’s contact captures as a CSV file with their consent (only those who consented with consent=true).',
    params: StorePath,
    query: z.object({ consent: QueryBoolean.optional() }),
    response: CsvFile,
  }),
  listStudioMail: call({
    method: 'GET',
    path: '/staff/stores/:pageUid/mail',
    auth: { staff: 'owner' },
    summary:
      'The store’s mails (sent, kept without a mail server, queued for a retry, failed), newest first.',
    params: StorePath,
    query: z.object({
      status: z.enum(['queued', 'sent', 'kept', 'failed']).optional(),
      before: Cursor.optional(),
      limit: PageSize,
    }),
    response: z.object({ mails: z.array(StudioMail), nextBefore: z.string().nullable() }),
  }),
  listStudioOrders: call({
    method: 'GET',
    path: '/staff/stores/:pageUid/orders',
    auth: { staff: 'owner' },
    summary:
      'The store’s orders, newest first, filtered (show, status, paid, dates) or searched (order number, name, e-mail), in pages of `limit`; `after` is the previous page’s `nextAfter`.',
    params: StorePath,
    query: StudioOrderFilters.extend({ after: Cursor.optional(), limit: PageSize }),
    response: z.object({ orders: z.array(StudioOrderSummary), nextAfter: z.string().nullable() }),
  }),
  getStudioOrder: call({
    method: 'GET',
    path: '/staff/stores/:pageUid/orders/:checkoutUid',
    auth: { staff: 'owner' },
    summary: 'One order: lines, delivery, address or pickup point, payments, refunds and its timeline.',
    params: OrderPath,
    response: StudioOrderDetail,
  }),
  advanceStudioOrder: call({
    method: 'POST',
    path: '/staff/stores/:pageUid/orders/:checkoutUid/fulfilment',
    auth: { staff: 'owner' },
    summary:
      'Moves a sent-to-packing order to its next step: packed, shipped (carrier, tracking number, optional http(s) tracking link) or delivered; 409 for a step out of order or an order not sent to packing. Shipping mails the shopper the tracking link in their language.',
    params: OrderPath,
    request: StudioFulfilmentRequest,
    response: StudioOrderDetail,
  }),
  sendStudioOrderToPacking: call({
    method: 'POST',
    path: '/staff/stores/:pageUid/orders/:checkoutUid/packing',
    auth: { staff: 'owner' },
    summary:
      'Sends a placed order to packing: locked against changes and payments (spec §4); 404 for a cart (not an order yet). Again on a locked order changes nothing.',
    params: OrderPath,
    response: StudioOrderDetail,
  }),
  refundStudioOrder: call({
    method: 'POST',
    path: '/staff/stores/:pageUid/orders/:checkoutUid/refunds',
    auth: { staff: 'owner' },
    summary:
      'Refunds `amount` of the order’s received payments through their payment provider; 422 over what is refundable, 502 when the provider refuses. The same `requestKey` twice is one refund.',
    params: OrderPath,
    request: StudioRefundRequest,
    response: StudioOrderDetail,
  }),
  exportStudioOrders: call({
    method: 'GET',
    path: '/staff/stores/:pageUid/orders/export',
    auth: { staff: 'owner' },
    summary: 'The orders the filters select as a CSV file, one row per order line (at most 50,000 orders).',
    params: StorePath,
    query: StudioOrderFilters,
    response: CsvFile,
  }),
  studioOrderFilters: call({
    method: 'GET',
    path: '/staff/stores/:pageUid/orders/filters',
    auth: { staff: 'owner' },
    summary: 'What the order list can be filtered by: the shows (campaigns) the store has orders in.',
    params: StorePath,
    response: z.object({ campaigns: z.array(z.object({ uid: Uid, name: z.string() })) }),
  }),
};
