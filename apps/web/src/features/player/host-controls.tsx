import type { MouseEvent } from 'react';
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
        <button
          type="button"
          className="host-controls__button host-controls__button--cart"
          aria-label={t('player.host.openCart')}
          title={t('player.host.openCart')}
          onClick={openCart}
        >
          <span aria-hidden="true" className="host-controls__icon host-controls__icon--cart" />
          {commerce.cartButton.itemCount !== null && <CartCount count={commerce.cartButton.itemCount} />}
        </button>
      )}
      {onShowFavorites && !minimized && (
        <button
          type="button"
          className="host-controls__button host-controls__button--favorites"
          aria-label={t('player.host.showFavorites')}
          title={t('player.host.showFavorites')}
          onClick={onShowFavorites}
        >
          <span aria-hidden="true">♥</span>
        </button>
      )}
      {minimized ? (
        <button
          type="button"
          className="host-controls__button"
          aria-label={t('player.host.maximize')}
          title={t('player.host.maximize')}
          onClick={onMaximize}
        >
          <span aria-hidden="true" className="host-controls__icon host-controls__icon--maximize" />
        </button>
      ) : (
        canMinimize && (
          <button
            type="button"
            className="host-controls__button"
            aria-label={t('player.host.minimize')}
            title={t('player.host.minimize')}
            onClick={onMinimize}
          >
            <span aria-hidden="true" className="host-controls__icon host-controls__icon--minimize" />
          </button>
        )
      )}
      <button
        type="button"
        className="host-controls__button"
        aria-label={t('player.host.close')}
        title={t('player.host.close')}
        onClick={onClose}
      >
        <span aria-hidden="true" className="host-controls__icon host-controls__icon--close" />
      </button>
    </div>
  );
}

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
