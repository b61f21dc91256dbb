import {
  hasHostPrice,
  hidesCartFeatures,
  isLinkMode,
  isShowExpired,
  type ProductDisplayMode,
  productDisplayMode,
  sellsIntoHostCart,
} from '@vitrine/domain';
import type { EventProduct, LiveEvent } from '@vitrine/protocol';
import type { Navigation } from '@vitrine/protocol/vocabulary';
import { useMemo } from 'react';
import type { AddOutcome } from '../checkout/add-feedback.tsx';
import type { PlayerCart } from '../checkout/player-cart-model.ts';
import type { HostBridgeView } from '../host-bridge/host-bridge-context.tsx';
import { hostProductId, productLookup } from '../host-bridge/host-product.ts';

/**
 * How the player sells: what the add-to-cart button does, how links open and how prices show.
 * - unavailable: the disabled button with its reason (an embedded player still waiting for its host).
 * - cart: the built-in cart (features/checkout): no host page, or a host without a cart of its own.
 * - hostCart: the host's cart (UPDATE_CART_CONTENTS): the button adds to it.
 * - link: link mode (spec §4): the button is a "See in shop" link.
 * - favorites: the host forces FAVORITES: no cart features, a favourite toggle instead.
 */
export type CartMode = 'unavailable' | 'cart' | 'hostCart' | 'link' | 'favorites';

export type CommerceTrackingName = 'cart.added-to-cart' | 'cart.added-to-favorite' | 'cart.opened-cart';

export interface ProductCommerce {
  cartMode: CartMode;
  /** Product links open in a new tab (the host's NAVIGATION, else the page setting; default NEW_TAB). */
  newTab: boolean;
  priceMode(product: EventProduct): ProductDisplayMode;
  /** False when the host says the product cannot be sold to its user. */
  salable(product: EventProduct): boolean;
  /** Opens a shop page through the host page (go_to_url); false when the link should open by itself. */
  openUrl(url: string): boolean;
  addToCart(product: EventProduct, variantUid: string | null): void;
  /** The built-in cart in `cart` mode: its reservation, and an add that answers with its feedback. */
  cart:
    | (PlayerCart & { addProduct(product: EventProduct, variantUid: string | null): Promise<AddOutcome> })
    | null;
  /** The favourite toggle, when the host takes TOGGLE_IS_FAVORITE. */
  favorite: { isFavorite(product: EventProduct): boolean; toggle(product: EventProduct): void } | null;
  /** The cart menu button: hidden in FAVORITES mode; opens the host's cart when it offers OPEN_CART. */
  cartButton: { visible: boolean; itemCount: number | null; open: (() => void) | null };
}

export interface CommerceInputs {
  host: HostBridgeView;
  event: LiveEvent;
  now: number;
  settingsNavigation: Navigation;
  track(name: CommerceTrackingName, product?: EventProduct): void;
  /** The viewer's built-in cart (see usePlayerCart); used in `cart` mode. */
  cart?: PlayerCart | null;
}

/**
 * The cart mode (see CartMode): without a host page the built-in cart or link mode; an embedded
 * player is unavailable until the host's capabilities are known.
 */
export function cartModeOf(host: HostBridgeView, event: LiveEvent, now: number): CartMode {
  const standalone = !host.embedded;
  if (!standalone && (!host.connected || host.capabilities === null)) return 'unavailable';
  if (hidesCartFeatures(host.forcedBasketMode)) return 'favorites';
  const linkMode = isLinkMode({
    forcedBasketMode: host.forcedBasketMode,
    onsiteCartMode: event.event.onsiteCartMode,
    campaignUsesCheckout: event.campaign.usingCheckout,
    leadModeAfterDeadline: event.event.leadModeAfterDeadline,
    deadlinePassed: isShowExpired(event, now),
  });
  if (linkMode) return 'link';
  if (standalone) return 'cart';
  return sellsIntoHostCart(host.forcedBasketMode, host.supports('UPDATE_CART_CONTENTS'))
    ? 'hostCart'
    : 'cart';
}

export function useProductCommerce({
  host,
  event,
  now,
  settingsNavigation,
  track,
  cart = null,
}: CommerceInputs): ProductCommerce {
  const cartMode = cartModeOf(host, event, now);
  return useMemo(() => {
    const dataOf = (product: EventProduct) => host.productData[hostProductId(product)]?.data ?? null;
    const newTab = (host.navigation ?? settingsNavigation) !== 'SAME_TAB';
    const openCart = host.supports('OPEN_CART')
      ? () => {
          host.send('host_open_cart', {});
          track('cart.opened-cart');
        }
      : null;
    return {
      cartMode,
      newTab,
      priceMode(product) {
        const data = dataOf(product);
        return productDisplayMode({
          usesHostData: host.usesProductData,
          hostDataPending: host.isProductDataPending(hostProductId(product)),
          hostDataLoaded: host.productDataLoaded,
          userPriceKnown: data !== null && hasHostPrice(data),
        });
      },
      salable: (product) => dataOf(product)?.salable !== false,
      openUrl(url) {
        if (!host.connected) return false;
        host.send('go_to_url', { url, newTab });
        return true;
      },
      addToCart(product, variantUid) {
        const productId = hostProductId(product);
        const line = host.hostCart?.lines.find(
          (candidate) => candidate.product_id === productId && candidate.variant_id === variantUid,
        );
        // The host sets the line to this quantity: one more than it holds, or the least it sells.
        const quantity =
          line && line.quantity > 0 ? line.quantity + 1 : Math.max(1, dataOf(product)?.minPurchaseQty ?? 1);
        host.send('host_cart_state_changed', { product_id: productId, variant_id: variantUid, quantity });
        track('cart.added-to-cart', product);
      },
      favorite: host.supports('TOGGLE_IS_FAVORITE')
        ? {
            isFavorite: (product) => host.isFavorite(hostProductId(product)),
            toggle(product) {
              const isFavorite = !host.isFavorite(hostProductId(product));
              host.toggleFavorite(productLookup(product), isFavorite, event.id);
              if (isFavorite) track('cart.added-to-favorite', product);
            },
          }
        : null,
      cart:
        cartMode === 'cart' && cart
          ? {
              ...cart,
              async addProduct(product, variantUid) {
                const outcome = await cart.add(product.productUid, variantUid);
                if (outcome === 'added') track('cart.added-to-cart', product);
                return outcome;
              },
            }
          : null,
      cartButton:
        cartMode === 'cart'
          ? // The built-in cart opens in the player's own cart panel.
            { visible: true, itemCount: cart && cart.itemCount > 0 ? cart.itemCount : null, open: null }
          : {
              visible: cartMode !== 'favorites',
              itemCount: host.connected ? (host.hostCart?.itemCount ?? null) : null,
              open: openCart,
            },
    };
  }, [host, cartMode, settingsNavigation, track, event.id, cart]);
}
