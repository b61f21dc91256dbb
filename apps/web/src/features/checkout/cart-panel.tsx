import { CHECKOUT_STEP_ROUTE, lineChanges, lineWasAmount } from '@vitrine/domain';
import type { CheckoutReservationDoc, EventProduct } from '@vitrine/protocol';
import type { Currency } from '@vitrine/protocol/vocabulary';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { WasPrice } from '../../components/was-price.tsx';
import { logFailure } from '../../lib/debug.ts';
import { useLocale } from '../../lib/use-locale.ts';
import { AddFeedback, type AddOutcome } from './add-feedback.tsx';
import { cancelReservation } from './checkout-api.ts';
import { loadCheckoutTexts, useCheckoutTranslation } from './checkout-i18n.ts';
import type { PlayerCart, ReservationLine } from './player-cart-model.ts';
import { followShownLanguage } from './reservation-sync.ts';
import './cart-panel.css';

/** The player's cart panel (loaded on demand by player-cart.tsx's CartPanel). */

/** The cart's lines with their quantities, the total and the way to the checkout. */
/**
 * The cart's lines, total and the way to the checkout. The checkout opens in the player's own
 * frame: in an embedded player a new tab would be first-party and, with the browser's storage
 * partitioning, would not have the viewer's session (the cart would not be theirs there).
 */
export function CartPanel({ cart, products = [] }: { cart: PlayerCart; products?: readonly EventProduct[] }) {
  const { t } = useTranslation();
  const format = useLocale();
  const checkoutTexts = useCheckoutTranslation();
  const [lineFeedback, setLineFeedback] = useState<Record<string, AddOutcome>>({});
  const reservation = cart.reservation;
  const lines = reservation?.reservations ?? [];
  const currency = (reservation?.currency ?? format.currency) as Currency;
  // A language switched with a cart open: the cart follows the currency now shown (the server
  // reprices an open cart; the live document brings it). An order keeps its currency.
  const pageUid = reservation?.pageUid;
  const campaignUid = reservation?.campaignUid;
  const userUid = reservation?.userUid;
  useEffect(() => {
    if (!pageUid || !campaignUid || !userUid) return;
    void followShownLanguage({ pageUid, campaignUid, userUid }, format.locale);
  }, [pageUid, campaignUid, userUid, format.locale]);
  const keyOf = (line: ReservationLine) => `${line.mainProduct}/${line.variantUid ?? ''}`;
  const change = async (line: ReservationLine, quantity: number) => {
    const outcome = await cart.setQuantity(line, quantity);
    setLineFeedback((current) => ({ ...current, [keyOf(line)]: outcome }));
  };
  const locked = reservation?.status === 'locked';
  const order = {
    status: reservation?.status ?? 'open',
    paidAmount: reservation?.paidAmount ?? 0,
    paymentOpen: reservation?.lastPaymentStatus === 'awaiting_confirmation',
    total: (reservation?.totalPrice ?? 0) + (reservation?.freight ?? 0),
  };
  // Per line: a line added after a payment stays removable, the paid ones do not (domain lineChanges).
  const lineChange = (line: ReservationLine) => lineChanges(order, Math.round(line.totalPrice / line.qty));
  const changes = lines.map(lineChange).find((change) => !change.canReduce) ?? lineChanges(order, 0);
  const ordered = reservation?.status === 'ordered' || locked;
  // An order that grew after a payment offers paying what is left (issue 27), not only seeing it.
  const rest = ordered && !locked && reservation ? (reservation.remainingAmount ?? 0) : 0;

  return (
    <div className="player-cart" data-testid="player-cart">
      {cart.updateError && (
        <div className="host-notice player-cart__error" role="alert">
          <p>
            {t(cart.updateError === 'single' ? 'checkout.cart.updateError' : 'checkout.cart.multipleErrors')}
          </p>
          <button type="button" className="link-button" onClick={cart.dismissUpdateError}>
            {t('player.host.dismiss')}
          </button>
        </div>
      )}
      {locked && <p className="player-cart__notice">{t('checkout.order.locked')}</p>}
      {lines.length === 0 ? (
        <p className="panel-empty">{t('checkout.cart.empty')}</p>
      ) : (
        <ul className="player-cart__lines">
          {lines.map((line) => {
            const feedback = lineFeedback[keyOf(line)];
            const name = line.productName ?? line.mainProduct;
            // The show's catalogue data says what the line cost before the deal (display only).
            const shown = products.find((product) => product.productUid === line.mainProduct);
            const was = shown
              ? lineWasAmount(shown.product, line.variantUid, line.unitPrice, currency)
              : null;
            return (
              <li key={keyOf(line)} className="player-cart__line" data-line={keyOf(line)}>
                {line.image ? <img src={line.image} alt="" /> : <span className="player-cart__no-image" />}
                <div className="player-cart__text">
                  <span className="player-cart__name">{name}</span>
                  {line.variantName && <span className="player-cart__variant">{line.variantName}</span>}
                  <span className="player-cart__price">
                    {format.money(line.totalPrice, currency)}
                    {was !== null && (
                      <>
                        {' '}
                        <WasPrice text={format.money(was * line.qty, currency)} />
                      </>
                    )}
                  </span>
                  {(feedback === 'soldOut' || feedback === 'shopperLimit' || feedback === 'paymentOpen') && (
                    <AddFeedback outcome={feedback} shopLink={null} />
                  )}
                  {feedback === 'orderPaid' && <OrderPaidRefusal />}
                </div>
                <QuantityStepper
                  quantity={line.qty}
                  name={name}
                  disabled={!changes.canIncrease}
                  reduceDisabled={!lineChange(line).canReduce}
                  onChange={(quantity) => void change(line, quantity)}
                />
              </li>
            );
          })}
        </ul>
      )}
      {lines.length > 0 && reservation?.status === 'open' && checkoutTexts.ready && (
        <EmptyCart reservation={reservation} />
      )}
      {lines.length > 0 && reservation && (
        <div className="player-cart__footer">
          <OrderState
            reservation={reservation}
            ordered={ordered}
            reduceBlockedBy={changes.reduceBlockedBy}
            money={(amount) => format.money(amount, currency)}
          />
          {cart.checkoutPath && (
            <Link
              className="button player-cart__checkout"
              // Paying what is left starts from the confirmation, where the order's pay button is.
              to={rest > 0 ? `${cart.checkoutPath}/${CHECKOUT_STEP_ROUTE.confirm}` : cart.checkoutPath}
            >
              {ordered && checkoutTexts.ready
                ? rest > 0
                  ? checkoutTexts.t(
                      (reservation?.paidAmount ?? 0) > 0
                        ? 'checkout.orderState.payRest'
                        : 'checkout.orderState.payOrder',
                      { amount: format.money(rest, currency) },
                    )
                  : checkoutTexts.t('checkout.orderState.toOrder')
                : t('checkout.cart.toCheckout')}
            </Link>
          )}
        </div>
      )}
    </div>
  );
}

/**
 * The cart's money once it has freight or is an order (issue 13 §4): freight, total, what is paid
 * and what is left, and why paid lines cannot be taken away. A plain cart shows its total only.
 * Its texts are the checkout screens' (loaded here), so the player's first bundle does not carry them.
 */
function OrderState({
  reservation,
  ordered,
  reduceBlockedBy,
  money,
}: {
  reservation: CheckoutReservationDoc;
  ordered: boolean;
  reduceBlockedBy: ReturnType<typeof lineChanges>['reduceBlockedBy'];
  money(amount: number): string;
}) {
  const { t, ready } = useCheckoutTranslation();
  useEffect(() => {
    void loadCheckoutTexts();
  }, []);
  const freight = reservation.freight ?? 0;
  const paid = reservation.paidAmount ?? 0;
  const remaining = reservation.remainingAmount ?? reservation.totalPrice + freight;
  const total = reservation.totalPrice + freight;
  if (!ready) {
    return (
      <p className="player-cart__total">
        <span>{t('checkout.summary.total')}</span>
        <strong data-testid="cart-total">{money(total)}</strong>
      </p>
    );
  }
  return (
    <div className="cart-order-state" data-testid="cart-order-state">
      {ordered && reservation.orderNumber != null && (
        <p className="cart-order-state__number">
          <strong>{t('checkout.order.number', { number: reservation.orderNumber })}</strong>
          <span
            className={`cart-order-state__badge${remaining === 0 ? ' cart-order-state__badge--paid' : ''}`}
            data-testid="cart-paid-state"
          >
            {t(
              remaining === 0
                ? 'checkout.orderState.paidInFull'
                : paid > 0
                  ? 'checkout.orderState.partlyPaid'
                  : 'checkout.orderState.unpaid',
            )}
          </span>
        </p>
      )}
      <dl className="cart-order-state__totals">
        {freight > 0 && (
          <div>
            <dt>{t('checkout.summary.freight')}</dt>
            <dd data-testid="cart-freight">{money(freight)}</dd>
          </div>
        )}
        <div className="player-cart__total">
          <dt>{t('checkout.summary.total')}</dt>
          <dd>
            <strong data-testid="cart-total">{money(total)}</strong>
          </dd>
        </div>
        {paid > 0 && (
          <div>
            <dt>{t('checkout.summary.paid')}</dt>
            <dd data-testid="cart-paid">{money(paid)}</dd>
          </div>
        )}
        {paid > 0 && remaining > 0 && (
          <div className="cart-order-state__remaining">
            <dt>{t('checkout.summary.remaining')}</dt>
            <dd data-testid="cart-remaining">{money(remaining)}</dd>
          </div>
        )}
      </dl>
      {(reduceBlockedBy === 'paid' || reduceBlockedBy === 'paymentOpen') && (
        <p className="cart-order-state__hint" data-hint={reduceBlockedBy}>
          {t(`checkout.orderState.reduceBlocked.${reduceBlockedBy}`)}
        </p>
      )}
    </div>
  );
}

/**
 * "Empty the cart" (spec §7 cancelReservation without a product): every line goes and its stock
 * is released; asked once more first, as it cannot be undone. The live cart then shows it empty.
 */
function EmptyCart({ reservation }: { reservation: CheckoutReservationDoc }) {
  const { t } = useCheckoutTranslation();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const empty = async () => {
    setBusy(true);
    setFailed(false);
    try {
      await cancelReservation({
        pageUid: reservation.pageUid,
        campaign: reservation.campaignUid,
        user: reservation.userUid,
      });
      setAsking(false);
    } catch (error) {
      logFailure('emptying the cart failed', error);
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="cart-empty-action">
      {asking ? (
        <fieldset className="cart-empty-action__confirm" aria-label={t('checkout.emptyCart.action')}>
          <span>{t('checkout.emptyCart.confirm')}</span>
          <button type="button" className="link-button" disabled={busy} onClick={() => void empty()}>
            {t('checkout.emptyCart.yes')}
          </button>
          <button type="button" className="link-button" disabled={busy} onClick={() => setAsking(false)}>
            {t('checkout.emptyCart.no')}
          </button>
        </fieldset>
      ) : (
        <button type="button" className="link-button" onClick={() => setAsking(true)}>
          {t('checkout.emptyCart.action')}
        </button>
      )}
      {failed && (
        <p className="form-error" role="alert">
          {t('checkout.emptyCart.failed')}
        </p>
      )}
    </div>
  );
}

/** The server's refusal to reduce a paid line (409 `order_paid`), in the shopper's language. */
export function OrderPaidRefusal() {
  const { t } = useCheckoutTranslation();
  return (
    <p className="cart-feedback cart-feedback--error" role="alert" data-feedback="orderPaid">
      {t('checkout.refusal.orderPaid')}
    </p>
  );
}

/** − quantity + ; going below one removes the line. */
export function QuantityStepper({
  quantity,
  name,
  disabled,
  reduceDisabled = disabled,
  onChange,
}: {
  quantity: number;
  name: string;
  disabled: boolean;
  /** − and × only: paid lines of an order can grow but not shrink. */
  reduceDisabled?: boolean;
  onChange(quantity: number): void;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="quantity-stepper" aria-label={t('checkout.cart.quantityOf', { name })}>
      <button
        type="button"
        disabled={disabled || reduceDisabled}
        aria-label={t(quantity > 1 ? 'checkout.cart.decrease' : 'checkout.cart.remove', { name })}
        onClick={() => onChange(quantity - 1)}
      >
        {quantity > 1 ? '−' : '×'}
      </button>
      <span aria-live="polite" data-testid="line-quantity">
        {quantity}
      </span>
      <button
        type="button"
        disabled={disabled}
        aria-label={t('checkout.cart.increase', { name })}
        onClick={() => onChange(quantity + 1)}
      >
        +
      </button>
    </fieldset>
  );
}
