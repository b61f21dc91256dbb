import { randomBytes } from 'node:crypto';
import {
  carrierName,
  fulfilmentRefusal,
  minorUnitDigits,
  paidBeforeRefunds,
  refundedAmount,
  trackingLink,
} from '@vitrine/domain';
import type {
  CheckoutView,
  CsvFile,
  OrderTimelineEntry,
  StaffRole,
  StudioFulfilmentRequest,
  StudioOrderDetail,
  StudioOrderFilters,
  StudioOrderSummary,
  StudioRefund,
  StudioRefundRequest,
} from '@vitrine/protocol';
import type { Currency, Locale } from '@vitrine/protocol/vocabulary';
import { stringify } from 'csv-stringify/sync';
import { HttpError, notFound } from '../../http/errors.ts';
import type { OutboxDatabase } from '../../realtime/outbox.ts';
import type { EventService } from '../events/event-service.ts';
import { type DeliveryTerms, deliveryTerms, type StoreService } from '../stores/store-service.ts';
import type { UserService } from '../users/user-service.ts';
import { checkoutDetails, withRetry } from './checkout-records.ts';
import { type CheckoutRow, checkoutPageUid, transactionsOf } from './checkout-store.ts';
import { checkoutView } from './checkout-totals.ts';
import {
  insertRefund,
  linesOf,
  listOrders,
  markRefundFailed,
  type OrderCursor,
  type OrderListRow,
  orderCampaigns,
  paymentEventsOf,
  type RefundRow,
  refundsOf,
  showOrderCheckouts,
  showOrderLines,
  showOrderPayments,
  storeOrder,
} from './order-admin-store.ts';

/**
 * An order of a show as analytics counts it: when, in which currency, whether it was paid (before
 * any refund: paidBeforeRefunds), its lines, its freight and what was refunded of it.
 */
export interface ShowOrder {
  checkoutUid: string;
  orderedAt: number;
  currency: string;
  paid: boolean;
  lines: { productUid: string; quantity: number; total: number }[];
  /** Minor units of delivery charged. */
  freight: number;
  /** Minor units given back through refunds. */
  refunded: number;
}

import {
  type FulfilmentRow,
  fulfilmentOf,
  fulfilmentStatuses,
  saveFulfilment,
} from './order-fulfilment-store.ts';
import type { OrderService } from './order-service.ts';
import type { PaymentProvider } from './payments/payment-provider.ts';
import { freightFor } from './shipping.ts';

/** What the shipped and refunded mails need to hear, handed to the mail feature by composition. */
export interface OrderMailHooks {
  onShipped?: (checkoutUid: string) => void;
  onRefunded?: (checkoutUid: string, refund: { amount: number; currency: Currency; key: string }) => void;
}

/** The most orders one CSV export holds; narrow the filters for more. */
export const ORDER_EXPORT_MAX = 50_000;
const EXPORT_BATCH = 1_000;

/** A spreadsheet runs a cell starting with = + - @ as a formula: untrusted text is quoted out of it. */
export function spreadsheetSafe(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** Minor units as a plain decimal (no currency sign, "." as separator) for CSV. */
function decimal(amount: number, currency: string): string {
  const digits = minorUnitDigits(currency);
  return (amount / 10 ** digits).toFixed(digits);
}

function encodeCursor(row: Pick<CheckoutRow, 'ordered_at' | 'uid'>): string {
  return `${row.ordered_at ?? 0}.${row.uid}`;
}

function decodeCursor(cursor: string | undefined): OrderCursor | null {
  if (!cursor) return null;
  const dot = cursor.indexOf('.');
  return { orderedAt: Number(cursor.slice(0, dot)), uid: cursor.slice(dot + 1) };
}

/**
 * The studio's orders (issue 14 item 5): list, search and export a store's orders, one order's
 * detail and timeline, sending it to packing and refunding it through its payment provider.
 * Every call names the store: another store's order is not found.
 */
export function createOrderAdminService(deps: {
  db: OutboxDatabase;
  orders: OrderService;
  events: Pick<EventService, 'campaign' | 'campaignNames'>;
  stores: Pick<StoreService, 'storeInfo' | 'pageSummary'>;
  users: Pick<UserService, 'displayName'>;
  providers: readonly PaymentProvider[];
  now: () => number;
  mailHooks?: OrderMailHooks;
}) {
  const { db, now } = deps;
  const providers = new Map(deps.providers.map((provider) => [provider.id, provider]));

  async function requireOrder(pageUid: string, checkoutUid: string): Promise<CheckoutRow> {
    const row = await storeOrder(db, pageUid, checkoutUid);
    if (!row) throw notFound(`No order "${checkoutUid}" in this store.`);
    return row;
  }

  /** Totals of listed orders: lines summed by SQL, delivery by the shipping rules. */
  async function summaries(pageUid: string, rows: OrderListRow[]): Promise<StudioOrderSummary[]> {
    const names = await deps.events.campaignNames(pageUid, [...new Set(rows.map((row) => row.campaign_uid))]);
    const termsByCurrency = new Map<Currency, DeliveryTerms>();
    const fulfilments = await fulfilmentStatuses(
      db,
      rows.filter((row) => row.status === 'locked').map((row) => row.uid),
    );
    const summary: StudioOrderSummary[] = [];
    for (const row of rows) {
      let terms = termsByCurrency.get(row.currency);
      if (!terms) {
        terms = await deliveryTerms(db, pageUid, row.currency);
        termsByCurrency.set(row.currency, terms);
      }
      const details = checkoutDetails(row);
      const subtotal = Number(row.subtotal);
      const freight = Number(row.item_count) === 0 ? 0 : freightFor(details, terms, subtotal);
      summary.push({
        checkoutUid: row.uid,
        orderNumber: Number(row.order_number),
        orderedAt: Number(row.ordered_at),
        campaignUid: row.campaign_uid,
        campaignName: names.get(row.campaign_uid) ?? row.campaign_uid,
        customerName: details.address.name,
        customerEmail: details.address.emailAddress,
        status: row.status === 'locked' ? 'locked' : 'ordered',
        fulfilment: row.status === 'locked' ? (fulfilments.get(row.uid) ?? 'packing') : null,
        payed: row.payed,
        currency: row.currency,
        totalPrice: subtotal + freight,
        itemCount: Number(row.item_count),
      });
    }
    return summary;
  }

  /** What each received payment can still give back: its total less what is refunded or under way. */
  function refundableByTransaction(
    transactions: Awaited<ReturnType<typeof transactionsOf>>,
    refunds: RefundRow[],
  ): {
    uid: string;
    provider: string;
    providerPaymentId: string | null;
    currency: Currency;
    left: number;
    created: number;
  }[] {
    return transactions
      .filter((transaction) => transaction.status === 'received' && transaction.payment_ok)
      .map((transaction) => {
        const requested = refunds
          .filter((refund) => refund.transaction_uid === transaction.uid && refund.status === 'requested')
          .reduce((sum, refund) => sum + Number(refund.amount), 0);
        // Refunds made elsewhere (the provider's dashboard) show in amount_refunded only.
        const taken = Math.max(Number(transaction.amount_refunded), requested);
        return {
          uid: transaction.uid,
          provider: transaction.provider,
          providerPaymentId: transaction.provider_payment_id,
          currency: transaction.currency,
          left: Math.max(0, Number(transaction.total_price) - taken),
          created: Number(transaction.created),
        };
      });
  }

  async function timeline(order: CheckoutRow, view: CheckoutView, refunds: RefundRow[]) {
    const entries: OrderTimelineEntry[] = [
      { at: Number(order.created_at), kind: 'cartStarted', amount: null },
    ];
    if (order.ordered_at !== null)
      entries.push({ at: Number(order.ordered_at), kind: 'ordered', amount: null });
    const events = await paymentEventsOf(db, order.uid);
    for (const transaction of view.transactions) {
      entries.push({ at: transaction.created, kind: 'paymentStarted', amount: transaction.totalPrice });
      const own = events.filter((event) => event.transaction_uid === transaction.uid);
      for (const event of own) {
        const kind = {
          'payment.succeeded': 'paymentReceived',
          'payment.failed': 'paymentDeclined',
          'payment.canceled': 'paymentAbandoned',
          'payment.refunded': 'refunded',
        }[event.type] as OrderTimelineEntry['kind'] | undefined;
        if (kind) {
          entries.push({
            at: Number(event.received_at),
            kind,
            amount: kind === 'paymentReceived' ? transaction.totalPrice : null,
          });
        }
      }
      // An attempt a newer one replaced ends without a provider event.
      if (transaction.status === 'abandoned' && !own.some((event) => event.type === 'payment.canceled')) {
        entries.push({ at: transaction.updated, kind: 'paymentAbandoned', amount: null });
      }
    }
    for (const refund of refunds) {
      entries.push({ at: Number(refund.created_at), kind: 'refundRequested', amount: Number(refund.amount) });
      if (refund.status === 'failed') {
        entries.push({ at: Number(refund.created_at), kind: 'refundFailed', amount: Number(refund.amount) });
      }
    }
    if (order.locked_at !== null)
      entries.push({ at: Number(order.locked_at), kind: 'sentToPacking', amount: null });
    const fulfilment = view.fulfilment;
    if (fulfilment?.packedAt != null) entries.push({ at: fulfilment.packedAt, kind: 'packed', amount: null });
    if (fulfilment?.shippedAt != null)
      entries.push({ at: fulfilment.shippedAt, kind: 'shipped', amount: null });
    if (fulfilment?.deliveredAt != null)
      entries.push({ at: fulfilment.deliveredAt, kind: 'delivered', amount: null });
    return entries.sort((a, b) => a.at - b.at);
  }

  async function detail(pageUid: string, checkoutUid: string): Promise<StudioOrderDetail> {
    const order = await requireOrder(pageUid, checkoutUid);
    const deadline = (await deps.events.campaign(order.campaign_uid))?.deadline ?? null;
    const view = await checkoutView(db, order, deadline, now());
    const refunds = await refundsOf(db, order.uid);
    const transactions = await transactionsOf(db, order.uid);
    const names = await deps.events.campaignNames(pageUid, [order.campaign_uid]);
    const locations = await deps.orders.locationsOf(pageUid);
    const pickupUid = view.details.shippingMethod === 'store_pickup' ? view.details.pickupLocationUid : null;
    const requesters = new Map<string, string>();
    for (const refund of refunds) {
      if (refund.requested_by && !requesters.has(refund.requested_by)) {
        requesters.set(refund.requested_by, (await deps.users.displayName(refund.requested_by)) ?? '');
      }
    }
    return {
      order: view,
      campaignName: names.get(order.campaign_uid) ?? order.campaign_uid,
      pickupLocation: locations.find((location) => location.uid === pickupUid) ?? null,
      refunds: refunds.map(
        (refund): StudioRefund => ({
          uid: refund.uid,
          transactionUid: refund.transaction_uid,
          amount: Number(refund.amount),
          currency: refund.currency as Currency,
          status: refund.status,
          error: refund.error,
          requestedBy: refund.requested_by ? (requesters.get(refund.requested_by) ?? '') : 'Admin key',
          createdAt: Number(refund.created_at),
        }),
      ),
      refundable: refundableByTransaction(transactions, refunds).reduce((sum, t) => sum + t.left, 0),
      timeline: await timeline(order, view, refunds),
    };
  }

  async function list(
    pageUid: string,
    filters: StudioOrderFilters,
    page: { after?: string | undefined; limit: number },
  ): Promise<{ orders: StudioOrderSummary[]; nextAfter: string | null }> {
    const rows = await listOrders(db, pageUid, filters, {
      cursor: decodeCursor(page.after),
      limit: page.limit + 1,
    });
    const shown = rows.slice(0, page.limit);
    const last = shown.at(-1);
    return {
      orders: await summaries(pageUid, shown),
      nextAfter: rows.length > page.limit && last ? encodeCursor(last) : null,
    };
  }

  return {
    list,
    detail,

    async filters(pageUid: string): Promise<{ campaigns: { uid: string; name: string }[] }> {
      const uids = await orderCampaigns(db, pageUid);
      const names = await deps.events.campaignNames(pageUid, uids);
      return {
        campaigns: uids
          .map((uid) => ({ uid, name: names.get(uid) ?? uid }))
          .sort((a, b) => a.name.localeCompare(b.name)),
      };
    },

    async sendToPacking(pageUid: string, checkoutUid: string): Promise<StudioOrderDetail> {
      await requireOrder(pageUid, checkoutUid);
      await deps.orders.sendToPacking(checkoutUid);
      return detail(pageUid, checkoutUid);
    },

    /**
     * Moves a sent-to-packing order to its next step (the domain's rule decides which may follow
     * which, and who), under the order's lock so two clicks cannot both ship it. Shipping tells
     * the shopper by mail; a corrected tracking number tells them again.
     */
    async advance(
      caller: { pageUid: string; role: StaffRole },
      checkoutUid: string,
      request: StudioFulfilmentRequest,
    ): Promise<StudioOrderDetail> {
      const { pageUid } = caller;
      const shipped = await withRetry(() =>
        db.transaction(async (tx) => {
          const order = await storeOrder(tx, pageUid, checkoutUid, true);
          if (!order) throw notFound(`No order "${checkoutUid}" in this store.`);
          const current = await fulfilmentOf(tx, order.uid);
          const from = order.status === 'locked' ? (current?.status ?? 'packing') : null;
          const shippingMethod = checkoutDetails(order).shippingMethod;
          const refusal = fulfilmentRefusal({ role: caller.role, from, to: request.status, shippingMethod });
          if (refusal === 'role')
            throw new HttpError(403, 'forbidden', 'Only the store’s owner moves orders.');
          if (refusal === 'notSentToPacking') {
            throw new HttpError(409, 'not_sent_to_packing', 'Send the order to packing first.');
          }
          if (refusal === 'notNext') {
            throw new HttpError(
              409,
              'fulfilment_out_of_order',
              `An order that is ${from} cannot become ${request.status}${
                request.status === 'shipped' && shippingMethod === 'store_pickup'
                  ? ': it is collected in store, not shipped'
                  : ''
              }.`,
              { status: from },
            );
          }
          const at = now();
          const row: FulfilmentRow = current ?? {
            checkout_uid: order.uid,
            status: 'packed',
            packed_at: null,
            shipped_at: null,
            delivered_at: null,
            carrier: null,
            tracking_number: null,
            tracking_url: null,
            updated_at: at,
          };
          row.status = request.status;
          row.updated_at = at;
          if (request.status === 'packed') row.packed_at = at;
          if (request.status === 'delivered') row.delivered_at = at;
          if (request.status === 'shipped') {
            const url = trackingLink(request.carrier, request.trackingNumber, request.trackingUrl ?? null);
            if (request.trackingUrl && url === null) {
              throw new HttpError(400, 'invalid_tracking_url', 'The tracking link must be an http(s) link.');
            }
            row.shipped_at = row.shipped_at ?? at;
            row.carrier = request.carrier;
            row.tracking_number = request.trackingNumber;
            row.tracking_url = url;
          }
          await saveFulfilment(tx, row);
          return request.status === 'shipped';
        }),
      );
      if (shipped) deps.mailHooks?.onShipped?.(checkoutUid);
      return detail(pageUid, checkoutUid);
    },

    /**
     * Refunds `amount` of the order's received payments, newest payment first, through each
     * payment's provider. The amounts are reserved (order_refunds) under the order's lock before
     * any provider is asked, so neither a second request nor a double click can refund more than
     * was paid; the same request key again is the same refund.
     */
    async refund(
      caller: { pageUid: string; userUid: string | null },
      checkoutUid: string,
      request: StudioRefundRequest,
    ): Promise<StudioOrderDetail> {
      const { pageUid } = caller;
      await requireOrder(pageUid, checkoutUid);
      const planned = await withRetry(() =>
        db.transaction(async (tx) => {
          const order = await storeOrder(tx, pageUid, checkoutUid, true);
          if (!order) throw notFound(`No order "${checkoutUid}" in this store.`);
          const refunds = await refundsOf(tx, order.uid);
          if (refunds.some((refund) => refund.request_key === request.requestKey)) return [];
          const payments = refundableByTransaction(await transactionsOf(tx, order.uid), refunds).sort(
            (a, b) => b.created - a.created,
          );
          const refundable = payments.reduce((sum, payment) => sum + payment.left, 0);
          if (request.amount > refundable) {
            throw new HttpError(
              422,
              'refund_too_large',
              refundable === 0
                ? 'Nothing of this order can be refunded: no received payment is left to refund.'
                : `At most ${refundable} (minor units) of this order can be refunded.`,
              { refundable },
            );
          }
          const parts: (RefundRow & { provider: string; providerPaymentId: string | null })[] = [];
          let left = request.amount;
          for (const payment of payments) {
            if (left === 0) break;
            const amount = Math.min(left, payment.left);
            if (amount === 0) continue;
            left -= amount;
            const row: RefundRow = {
              uid: randomBytes(12).toString('base64url'),
              checkout_uid: order.uid,
              transaction_uid: payment.uid,
              request_key: request.requestKey,
              amount,
              currency: payment.currency,
              status: 'requested',
              error: null,
              requested_by: caller.userUid,
              created_at: now(),
            };
            await insertRefund(tx, row);
            parts.push({ ...row, provider: payment.provider, providerPaymentId: payment.providerPaymentId });
          }
          return parts;
        }),
      );
      // Outside the transaction: the test provider answers with a webhook to this very server.
      const failures: string[] = [];
      let refunded = 0;
      for (const part of planned) {
        const provider = providers.get(part.provider);
        try {
          if (!provider?.refund) throw new Error(`The payment provider "${part.provider}" cannot refund.`);
          await provider.refund({
            providerPaymentId: part.providerPaymentId,
            transactionUid: part.transaction_uid,
            amount: part.amount,
            currency: part.currency as Currency,
            refundUid: part.uid,
          });
          refunded += part.amount;
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          await markRefundFailed(db, part.uid, message.slice(0, 1000));
          failures.push(message);
        }
      }
      // The shopper hears of what the provider took; a refund that failed throughout is no news.
      if (refunded > 0) {
        deps.mailHooks?.onRefunded?.(checkoutUid, {
          amount: refunded,
          currency: planned[0]?.currency as Currency,
          key: request.requestKey,
        });
      }
      if (failures.length > 0) {
        throw new HttpError(
          502,
          'refund_failed',
          `The payment provider refused the refund: ${failures[0]?.slice(0, 300)}`,
        );
      }
      return detail(pageUid, checkoutUid);
    },

    /** The orders the filters select, one CSV row per order line (an order without lines: one row). */
    async exportCsv(pageUid: string, filters: StudioOrderFilters): Promise<CsvFile> {
      const header = [
        'Order number',
        'Ordered at (UTC)',
        'Show',
        'Status',
        'Paid',
        'Customer name',
        'E-mail',
        'Phone',
        'Address',
        'Post code',
        'City',
        'Country',
        'Delivery method',
        'Item',
        'Variant',
        'SKU',
        'Quantity',
        'Unit price',
        'Line total',
        'Delivery',
        'Order total',
        'Currency',
      ];
      const records: string[][] = [header];
      let after: string | undefined;
      let orders = 0;
      do {
        const rows = await listOrders(db, pageUid, filters, {
          cursor: decodeCursor(after),
          limit: EXPORT_BATCH + 1,
        });
        const batch = rows.slice(0, EXPORT_BATCH);
        const page = await summaries(pageUid, batch);
        const lines = await linesOf(
          db,
          batch.map((row) => row.uid),
        );
        const detailsByUid = new Map(batch.map((row) => [row.uid, checkoutDetails(row)]));
        const linesByUid = new Map<string, typeof lines>();
        for (const line of lines) {
          const own = linesByUid.get(line.checkout_uid);
          if (own) own.push(line);
          else linesByUid.set(line.checkout_uid, [line]);
        }
        for (const order of page) {
          const details = detailsByUid.get(order.checkoutUid);
          const own = linesByUid.get(order.checkoutUid) ?? [];
          const money = (amount: number) => decimal(amount, order.currency);
          const subtotal = own.reduce((sum, line) => sum + line.qty * line.unit_price, 0);
          const common = [
            String(order.orderNumber),
            new Date(order.orderedAt).toISOString(),
            order.campaignName,
            order.fulfilment === null || order.fulfilment === 'packing'
              ? order.status === 'locked'
                ? 'sent to packing'
                : 'placed'
              : order.fulfilment,
            order.payed ? 'yes' : 'no',
            order.customerName,
            order.customerEmail,
            details?.address.phone ?? '',
            details?.address.address ?? '',
            details?.address.postCode ?? '',
            details?.address.city ?? '',
            details?.deliveryCountry ?? '',
            details?.shippingMethod ?? '',
          ];
          const totals = [money(order.totalPrice - subtotal), money(order.totalPrice), order.currency];
          if (own.length === 0) records.push([...common, '', '', '', '', '', '', ...totals]);
          for (const line of own) {
            records.push([
              ...common,
              line.product_name,
              line.variant_name ?? '',
              line.sku,
              String(line.qty),
              money(line.unit_price),
              money(line.unit_price * line.qty),
              ...totals,
            ]);
          }
        }
        orders += page.length;
        const last = batch.at(-1);
        after = rows.length > EXPORT_BATCH && last ? encodeCursor(last) : undefined;
      } while (after && orders < ORDER_EXPORT_MAX);
      return {
        filename: `orders-${pageUid}-${new Date(now()).toISOString().slice(0, 10)}.csv`,
        csv: stringify(records.map((record) => record.map(spreadsheetSafe))),
        rows: records.length - 1,
      };
    },

    /**
     * The orders placed in a show's campaign with their lines (minor units), oldest first: the
     * analytics feature's source of orders and revenue. With `money`, also each order's freight,
     * refunds and whether it was paid before refunds (else `paid` is the order's flag, freight
     * and refunds 0).
     */
    async showOrders(campaignUid: string, options: { money?: boolean } = {}): Promise<ShowOrder[]> {
      const orders = new Map<string, ShowOrder>();
      for (const row of await showOrderLines(db, campaignUid)) {
        let order = orders.get(row.checkout_uid);
        if (!order) {
          order = {
            checkoutUid: row.checkout_uid,
            orderedAt: Number(row.ordered_at),
            currency: row.currency,
            paid: row.payed,
            lines: [],
            freight: 0,
            refunded: 0,
          };
          orders.set(row.checkout_uid, order);
        }
        order.lines.push({ productUid: row.product_uid, quantity: row.qty, total: Number(row.line_total) });
      }
      // The control room polls the lines only; analytics reads freight, payments and refunds too.
      if (!options.money) return [...orders.values()];
      const payments = await showOrderPayments(db, campaignUid);
      const termsByKey = new Map<string, DeliveryTerms>();
      for (const checkout of await showOrderCheckouts(db, campaignUid)) {
        const order = orders.get(checkout.uid);
        if (!order) continue;
        const key = `${checkout.page_uid}:${checkout.currency}`;
        let terms = termsByKey.get(key);
        if (!terms) {
          terms = await deliveryTerms(db, checkout.page_uid, checkout.currency);
          termsByKey.set(key, terms);
        }
        const subtotal = order.lines.reduce((sum, line) => sum + line.total, 0);
        order.freight = freightFor(checkoutDetails(checkout), terms, subtotal);
        const own = payments
          .filter((payment) => payment.checkout_uid === checkout.uid)
          .map((payment) => ({
            paymentOK: payment.payment_ok,
            totalPrice: Number(payment.total_price),
            amountRefunded: Number(payment.amount_refunded),
          }));
        // Paid before refunds: a partly refunded order sent to packing is still a paid order.
        order.paid = paidBeforeRefunds({ payed: checkout.payed, totalPrice: subtotal + order.freight }, own);
        order.refunded = refundedAmount(own);
      }
      return [...orders.values()];
    },

    /**
     * An order just paid, as its mails show it; the shopper's language is the checkout's (the
     * language they shopped in), the store's its own.
     */
    async paidOrder(checkoutUid: string) {
      const pageUid = await checkoutPageUid(db, checkoutUid);
      if (!pageUid) return null;
      const { order, pickupLocation } = await detail(pageUid, checkoutUid);
      const store = await deps.stores.storeInfo(pageUid);
      const summary = await deps.stores.pageSummary(pageUid);
      const address = order.details.address;
      const deliveryLines = pickupLocation
        ? [pickupLocation.name, pickupLocation.address]
        : order.parcelShop
          ? [order.parcelShop.name, order.parcelShop.address]
          : [address.name, address.address, `${address.postCode} ${address.city}`.trim()].filter(Boolean);
      return {
        pageUid,
        checkoutUid,
        storeName: store.name,
        orderNumber: order.orderNumber ?? 0,
        customerName: address.name,
        customerEmail: address.emailAddress,
        currency: order.currency,
        lines: order.items.map((item) => ({
          name: item.item,
          variant: item.variantName,
          qty: item.quantity,
          total: item.total,
        })),
        subtotal: order.subtotal,
        freight: order.freight,
        total: order.totalPrice,
        delivery: {
          kind: pickupLocation || order.parcelShop ? ('pickup' as const) : ('address' as const),
          lines: deliveryLines,
        },
        shopperEmail: address.emailAddress,
        shopperLocale: order.language as Locale,
        storeEmail: store.address.email,
        storeLocale: summary.language as Locale,
      };
    },

    /**
     * An order's news for its shopper (shipped with its tracking, refunded): who to tell, in
     * the language they shopped in, and what.
     */
    async shopperNotice(checkoutUid: string) {
      const pageUid = await checkoutPageUid(db, checkoutUid);
      if (!pageUid) return null;
      const { order } = await detail(pageUid, checkoutUid);
      const store = await deps.stores.storeInfo(pageUid);
      const fulfilment = order.fulfilment ?? null;
      return {
        pageUid,
        checkoutUid,
        storeName: store.name,
        orderNumber: order.orderNumber ?? 0,
        customerName: order.details.address.name,
        shopperEmail: order.details.address.emailAddress,
        shopperLocale: order.language as Locale,
        currency: order.currency,
        shipment:
          fulfilment?.carrier && fulfilment.trackingNumber
            ? {
                carrier: carrierName(fulfilment.carrier),
                trackingNumber: fulfilment.trackingNumber,
                trackingUrl: fulfilment.trackingUrl,
              }
            : null,
      };
    },
  };
}

export type OrderAdminService = ReturnType<typeof createOrderAdminService>;
