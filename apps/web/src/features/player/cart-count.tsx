import { useTranslation } from 'react-i18next';

/** The host cart's item count on a cart button (from the host's host_cart_state_changed). */
export function CartCount({ count }: { count: number }) {
  const { t } = useTranslation();
  return (
    <span
      className="cart-count"
      data-testid="host-cart-count"
      role="status"
      aria-label={t('player.host.cartCount', { count })}
    >
      {count}
    </span>
  );
}
