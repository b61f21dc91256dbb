import type { TrackingEventName } from '@vitrine/protocol';
import { type MouseEvent, useEffect, useRef } from 'react';
import type { MobilePanel } from './player-layout.ts';

/**
 * Tracking of the mobile sheets (spec §7 names): on a phone the comments open and close in a
 * sheet rather than a tab, and the built-in cart opens in one; the same events as on the desktop.
 */
export function usePanelTracking(
  mobilePanel: MobilePanel | null,
  builtInCart: boolean,
  track: (name: TrackingEventName) => void,
): void {
  const previous = useRef(mobilePanel);
  const latestTrack = useRef(track);
  latestTrack.current = track;
  const latestCart = useRef(builtInCart);
  latestCart.current = builtInCart;
  useEffect(() => {
    const before = previous.current;
    previous.current = mobilePanel;
    if (before === mobilePanel) return;
    if (mobilePanel === 'comments') latestTrack.current('player.comments-shown');
    if (before === 'comments') latestTrack.current('player.comments-hidden');
    // The host's cart reports its own opening (host_open_cart); this is the player's cart sheet.
    if (mobilePanel === 'cart' && latestCart.current) latestTrack.current('cart.opened-cart');
  }, [mobilePanel]);
}

/** The cart's "Go to checkout" link (cart-panel.tsx): the click that begins the checkout. */
const CHECKOUT_LINK = '.player-cart__checkout';

/** A click handler (capture phase) for a container of the cart: tracks checkout.began-checkout. */
export function trackBeganCheckout(track: (name: TrackingEventName) => void) {
  return (event: MouseEvent) => {
    if (event.target instanceof Element && event.target.closest(CHECKOUT_LINK))
      track('checkout.began-checkout');
  };
}
