import { orderCurrencyNotice } from '@vitrine/domain';
import type { CheckoutItem, CheckoutView, OrderFulfilment, ShippingMethodKind } from '@vitrine/protocol';
import type { Currency } from '@vitrine/protocol/vocabulary';
import { useMemo } from 'react';
import { useLocale } from '../../lib/use-locale.ts';
import type { AddOutcome } from './add-feedback.tsx';
import { QuantityStepper } from './cart-panel.tsx';
import { useCheckoutTranslation } from './checkout-i18n.ts';

/** Pieces of the order as the checkout steps and the order page show it. */

export const itemKey = (item: Pick<CheckoutItem, 'productUid' | 'variantUid'>) =>
  `${item.productUid}/${item.variantUid ?? ''}`;

/** Formats minor units in the checkout's own currency (the server priced it in that one). */
export function useCheckoutMoney(view: Pick<CheckoutView, 'currency'>) {
  const format = useLocale();
  return (amount: number) => format.money(amount, view.currency as Currency);
}

/** Country and region names in the viewer's language. */
export function useCountryName() {
  const { locale } = useLocale();
  return useMemo(() => {
    const names = new Intl.DisplayNames([locale === 'no' ? 'nb' : locale], { type: 'region' });
    return (code: string) => names.of(code) ?? code;
  }, [locale]);
}

export function useShippingLabel() {
  const { t } = useCheckoutTranslation();
  return (kind: ShippingMethodKind) => t(`checkout.shipping.${kind}`);
}

/** The item lines: picture, name, variant, unit price × quantity and line total; editable in the cart step. */
export function OrderLines({
  view,
  editable = false,
  reducible = () => true,
  feedback = {},
  onQuantity,
}: {
  view: CheckoutView;
  editable?: boolean;
  /** Whether a line can shrink (not what was paid, nor while a payment is under way); lines can still grow. */
  reducible?(item: CheckoutItem): boolean;
  feedback?: Record<string, AddOutcome>;
  onQuantity?(item: CheckoutItem, quantity: number): void;
}) {
  const { t } = useCheckoutTranslation();
  const money = useCheckoutMoney(view);
  return (
    <ul className="order-lines" data-testid="order-lines">
      {view.items.map((item) => {
        const outcome = feedback[itemKey(item)];
        return (
          <li key={itemKey(item)} className="order-line" data-line={itemKey(item)}>
            {item.image ? <img src={item.image} alt="" /> : <span className="order-line__no-image" />}
            <div className="order-line__text">
              <span className="order-line__name">{item.item}</span>
              {item.variantName && <span className="order-line__variant">{item.variantName}</span>}
              <span className="order-line__unit">
                {t('checkout.order.unitPrice', { price: money(item.price), quantity: item.quantity })}
              </span>
              {outcome === 'soldOut' && (
                <span className="order-line__problem" role="status">
                  {t('checkout.feedback.message.soldOut')}
                </span>
              )}
              {outcome === 'shopperLimit' && (
                <span className="order-line__problem" role="status">
                  {t('checkout.feedback.message.shopperLimit')}
                </span>
              )}
              {outcome === 'paymentOpen' && (
                <span className="order-line__problem" role="status">
                  {t('checkout.feedback.message.paymentOpen')}
                </span>
              )}
              {outcome === 'orderPaid' && (
                <span className="order-line__problem" role="alert">
                  {t('checkout.refusal.orderPaid')}
                </span>
              )}
              {outcome === 'error' && (
                <span className="order-line__problem" role="alert">
                  {t('checkout.cart.updateError')}
                </span>
              )}
            </div>
            {editable && onQuantity && (
              <QuantityStepper
                quantity={item.quantity}
                name={item.item}
                disabled={false}
                reduceDisabled={!reducible(item)}
                onChange={(quantity) => onQuantity(item, quantity)}
              />
            )}
            <span className="order-line__total">{money(item.total)}</span>
          </li>
        );
      })}
    </ul>
  );
}

/** Subtotal, freight and total (spec §2 order page: freight, price, total), with what is paid and left. */
export function OrderTotals({ view, showPayments = false }: { view: CheckoutView; showPayments?: boolean }) {
  const { t } = useCheckoutTranslation();
  const money = useCheckoutMoney(view);
  return (
    <dl className="order-totals">
      <div>
        <dt>{t('checkout.summary.subtotal')}</dt>
        <dd>{money(view.subtotal)}</dd>
      </div>
      <div>
        <dt>{t('checkout.summary.freight')}</dt>
        <dd data-testid="order-freight">{money(view.freight)}</dd>
      </div>
      <div className="order-totals__total">
        <dt>{t('checkout.summary.total')}</dt>
        <dd data-testid="order-total">{money(view.totalPrice)}</dd>
      </div>
      {showPayments && view.paidAmount > 0 && (
        <div>
          <dt>{t('checkout.summary.paid')}</dt>
          <dd>{money(view.paidAmount)}</dd>
        </div>
      )}
      {showPayments && view.paidAmount > 0 && view.remainingAmount > 0 && (
        <div className="order-totals__remaining">
          <dt>{t('checkout.summary.remaining')}</dt>
          <dd>{money(view.remainingAmount)}</dd>
        </div>
      )}
    </dl>
  );
}

/** The refusals of spec §8 that apply to the whole checkout: locked, or past its deadline. */
export function OrderNotices({ view }: { view: CheckoutView }) {
  const { t } = useCheckoutTranslation();
  const format = useLocale();
  // An order keeps its currency; a shopper now shown another one is told which (currency-rules).
  const orderCurrency = orderCurrencyNotice(view.currency as Currency, format.currency);
  return (
    <>
      {orderCurrency && view.items.length > 0 && (
        <p className="checkout-notice" role="status" data-notice="currency">
          {t(view.status === 'open' ? 'checkout.currency.cart' : 'checkout.currency.order', {
            currency: orderCurrency,
          })}
        </p>
      )}
      {view.locked && (
        <p className="checkout-notice checkout-notice--locked" role="status" data-notice="locked">
          {t('checkout.order.locked')}
        </p>
      )}
      {view.fulfilment && <OrderDelivery view={view} fulfilment={view.fulfilment} />}
      {!view.locked && view.deadlinePassed && !view.payed && (
        <p className="checkout-notice checkout-notice--deadline" role="alert" data-notice="deadline">
          {t('checkout.order.deadlineOverdue')}
        </p>
      )}
    </>
  );
}

/**
 * Where the shopper's order is after packing (issue 33 item 11): packed, shipped with the carrier,
 * tracking number and link (always http(s), checked by the server), delivered or collected.
 */
function OrderDelivery({ view, fulfilment }: { view: CheckoutView; fulfilment: OrderFulfilment }) {
  const { t } = useCheckoutTranslation();
  const format = useLocale();
  const collected = view.details.shippingMethod === 'store_pickup';
  const status = fulfilment.status === 'delivered' && collected ? 'collected' : (fulfilment.status as string);
  const at =
    fulfilment.status === 'delivered'
      ? fulfilment.deliveredAt
      : fulfilment.status === 'shipped'
        ? fulfilment.shippedAt
        : null;
  return (
    <section
      className="order-delivery"
      aria-labelledby="order-delivery-title"
      data-fulfilment={fulfilment.status}
    >
      <h2 id="order-delivery-title" className="order-delivery__title">
        {t('checkout.fulfilment.title')}
      </h2>
      <p>{t(`checkout.fulfilment.${status}`, { date: at === null ? '' : format.date(at) })}</p>
      {fulfilment.trackingNumber && (
        <dl className="order-delivery__tracking">
          <div>
            <dt>{t('checkout.fulfilment.carrier')}</dt>
            <dd>{fulfilment.carrierName}</dd>
          </div>
          <div>
            <dt>{t('checkout.fulfilment.trackingNumber')}</dt>
            <dd>{fulfilment.trackingNumber}</dd>
          </div>
        </dl>
      )}
      {fulfilment.trackingUrl && /^https?:\/\//i.test(fulfilment.trackingUrl) && (
        <a
          className="order-delivery__track"
          href={fulfilment.trackingUrl}
          target="_blank"
          rel="noopener noreferrer"
          data-testid="tracking-link"
        >
          {t('checkout.fulfilment.track')}
        </a>
      )}
    </section>
  );
}
