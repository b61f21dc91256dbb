import type { MouseEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CartCount } from './cart-count.tsx';
import type { ProductCommerce } from './product-commerce.ts';

/**
 * The embedded player's own controls: the host's cart (when it offers OPEN_CART), minimize or
 * maximize (when the host and the page allow a minimized player) and close.
 */
export function HostControls({
  commerce,
  minimized,
  canMinimize,
  onMinimize,
  onMaximize,
  onClose,
  onShowFavorites,
}: {
  commerce: ProductCommerce;
  /** FAVORITES mode: opens the host's favourites (show_favorites) where the cart button would be. */
  onShowFavorites: (() => void) | null;
  minimized: boolean;
  canMinimize: boolean;
  onMinimize(): void;
  onMaximize(): void;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const openCart = commerce.cartButton.visible ? commerce.cartButton.open : null;
  return (
    <div className="host-controls">
      {openCart && !minimized && (
        <HostButton label={t('player.host.openCart')} modifier="cart" onClick={openCart}>
          <Glyph icon="cart" />
          {commerce.cartButton.itemCount !== null && <CartCount count={commerce.cartButton.itemCount} />}
        </HostButton>
      )}
      {onShowFavorites && !minimized && (
        <HostButton label={t('player.host.showFavorites')} modifier="favorites" onClick={onShowFavorites}>
          <span aria-hidden="true">♥</span>
        </HostButton>
      )}
      {minimized ? (
        <HostButton label={t('player.host.maximize')} onClick={onMaximize}>
          <Glyph icon="maximize" />
        </HostButton>
      ) : (
        canMinimize && (
          <HostButton label={t('player.host.minimize')} onClick={onMinimize}>
            <Glyph icon="minimize" />
          </HostButton>
        )
      )}
      <HostButton label={t('player.host.close')} onClick={onClose}>
        <Glyph icon="close" />
      </HostButton>
    </div>
  );
}

/**
 * One of the player's own buttons: it shows only an icon, so its label is both its name and its
 * tooltip; `modifier` picks its look where it differs (the cart, the favourites).
 */
function HostButton({
  label,
  modifier,
  onClick,
  children,
}: {
  label: string;
  modifier?: 'cart' | 'favorites';
  onClick(): void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={
        modifier ? `host-controls__button host-controls__button--${modifier}` : 'host-controls__button'
      }
      aria-label={label}
      title={label}
      onClick={onClick}
    >
      {children}
    </button>
  );
}

/** A host control's icon (drawn by player.css), hidden from screen readers: the button's label names it. */
const Glyph = ({ icon }: { icon: 'cart' | 'maximize' | 'minimize' | 'close' }) => (
  <span aria-hidden="true" className={`host-controls__icon host-controls__icon--${icon}`} />
);

/**
 * The host page could not change its cart (host_cart_update_error): spec §8's message with a
 * "See in shop" link to the product, until the shopper dismisses it. The host's own text is not
 * shown: it is untrusted and in no known language.
 */
export function HostCartErrorNotice({
  url,
  commerce,
  onOpened,
  onDismiss,
}: {
  url: string | null;
  commerce: ProductCommerce;
  onOpened(): void;
  onDismiss(): void;
}) {
  const { t } = useTranslation();
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onOpened();
    if (url && commerce.openUrl(url)) event.preventDefault();
  };
  return (
    <div className="host-notice" role="alert" data-testid="host-cart-error">
      <p>
        {t('player.host.cartError')}
        {url && (
          <>
            {' '}
            <a
              href={url}
              target={commerce.newTab ? '_blank' : undefined}
              rel="noopener noreferrer"
              onClick={onClick}
            >
              {t('player.seeInShop')}
            </a>
          </>
        )}
      </p>
      <button type="button" className="link-button" onClick={onDismiss}>
        {t('player.host.dismiss')}
      </button>
    </div>
  );
}
