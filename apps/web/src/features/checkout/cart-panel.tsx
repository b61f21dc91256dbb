import type { Currency } from '@vitrine/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLocale } from '../../lib/use-locale.ts';
import { AddFeedback, type AddOutcome, type PlayerCart, type ReservationLine } from './player-cart.tsx';

/** The player's cart panel (loaded on demand by player-cart.tsx's CartPanel). */

/** The cart's lines with their quantities, the total and the way to the checkout. */
/**
 * The cart's lines, total and the way to the checkout. The checkout opens in the player's own
 * frame: in an embedded player a new tab would be first-party and, with the browser's storage
 * partitioning, would not have the viewer's session (the cart would not be theirs there).
 */
export function CartPanel({ cart }: { cart: PlayerCart }) {
  const { t } = useTranslation();
  const format = useLocale();
  const [lineFeedback, setLineFeedback] = useState<Record<string, AddOutcome>>({});
  const reservation = cart.reservation;
  const lines = reservation?.reservations ?? [];
  const currency = (reservation?.currency ?? format.currency) as Currency;
  const keyOf = (line: ReservationLine) => `${line.mainProduct}/${line.variantUid ?? ''}`;
  const change = async (line: ReservationLine, quantity: number) => {
    const outcome = await cart.setQuantity(line, quantity);
    setLineFeedback((current) => ({ ...current, [keyOf(line)]: outcome }));
  };
  const locked = reservation?.status === 'locked';

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
            return (
              <li key={keyOf(line)} className="player-cart__line" data-line={keyOf(line)}>
                {line.image ? <img src={line.image} alt="" /> : <span className="player-cart__no-image" />}
                <div className="player-cart__text">
                  <span className="player-cart__name">{name}</span>
                  {line.variantName && <span className="player-cart__variant">{line.variantName}</span>}
                  <span className="player-cart__price">{format.money(line.totalPrice, currency)}</span>
                  {(feedback === 'soldOut' || feedback === 'shopperLimit') && (
                    <AddFeedback outcome={feedback} shopLink={null} />
                  )}
                </div>
                <QuantityStepper
                  quantity={line.qty}
                  name={name}
                  disabled={locked || reservation?.status === 'ordered'}
                  onChange={(quantity) => void change(line, quantity)}
                />
              </li>
            );
          })}
        </ul>
      )}
      {lines.length > 0 && reservation && (
        <div className="player-cart__footer">
          <p className="player-cart__total">
            <span>{t('checkout.summary.total')}</span>
            <strong data-testid="cart-total">{format.money(reservation.totalPrice, currency)}</strong>
          </p>
          {cart.checkoutPath && (
            <Link className="button player-cart__checkout" to={cart.checkoutPath}>
              {t('checkout.cart.toCheckout')}
            </Link>
          )}
        </div>
      )}
    </div>
  );
}

/** − quantity + ; going below one removes the line. */
export function QuantityStepper({
  quantity,
  name,
  disabled,
  onChange,
}: {
  quantity: number;
  name: string;
  disabled: boolean;
  onChange(quantity: number): void;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="quantity-stepper" aria-label={t('checkout.cart.quantityOf', { name })}>
      <button
        type="button"
        disabled={disabled}
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
