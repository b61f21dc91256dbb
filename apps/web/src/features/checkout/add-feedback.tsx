import type { CartFeedbackStatus } from '@vitrine/protocol';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api.ts';

// An add's outcome and its feedback, shared by the player's cart (player-cart.tsx), its lazy
// panel (cart-panel.tsx), the checkout page and the player's product buttons.

/**
 * An add's outcome: a feedback state of spec §4, `shopperLimit` when the store sells no more of
 * the product to one customer (409 `shopper_limit`), `paymentOpen` when a line cannot be reduced
 * while a payment of the order is under way (409 `payment_open`), `orderPaid` when a paid line
 * cannot be reduced (409 `order_paid`), or `error` when the call failed (spec §8).
 */
export type AddOutcome = CartFeedbackStatus | 'shopperLimit' | 'paymentOpen' | 'orderPaid' | 'error';

/** The outcome of a failed add or quantity change. */
export function failedOutcome(error: unknown): AddOutcome {
  if (!(error instanceof ApiError)) return 'error';
  if (error.code === 'shopper_limit') return 'shopperLimit';
  if (error.code === 'payment_open') return 'paymentOpen';
  if (error.code === 'order_paid') return 'orderPaid';
  return 'error';
}

/** The feedback labels of spec §8 for an add's outcome, with the longer §8 message where there is one. */
export function AddFeedback({ outcome, shopLink }: { outcome: AddOutcome; shopLink: ReactNode }) {
  const { t } = useTranslation();
  if (outcome === 'updated' || outcome === 'removed') return null;
  if (outcome === 'error') {
    return (
      <p className="cart-feedback cart-feedback--error" role="alert" data-feedback="error">
        {t('player.host.cartError')} {shopLink}
      </p>
    );
  }
  const message =
    outcome === 'soldOut' ||
    outcome === 'variantMissing' ||
    outcome === 'expired' ||
    outcome === 'shopperLimit' ||
    outcome === 'paymentOpen'
      ? t(`checkout.feedback.message.${outcome}`)
      : null;
  return (
    <p className={`cart-feedback cart-feedback--${outcome}`} role="status" data-feedback={outcome}>
      <strong>{t(`checkout.feedback.label.${outcome}`)}</strong>
      {message && <span> {message}</span>}
    </p>
  );
}
