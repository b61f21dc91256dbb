/**
 * The widget's layout flags (spec §2 "Widget layout flags") as one state with the actions that
 * change it. The root element carries them as data attributes so CSS lays the player out.
 */
export type PlayerTab = 'products' | 'video' | 'comments' | 'privateComments';
export type MobilePanel =
  | 'products'
  | 'comments'
  | 'cart'
  | 'share'
  | 'competitions'
  | 'competitionParticipate'
  | 'winner';
export type PanelPosition = 'right' | 'left' | 'overlay';

export interface PlayerLayout {
  tab: PlayerTab;
  /** The product whose details are open, or null for the list. */
  productDetails: string | null;
  mobilePanel: MobilePanel | null;
  panelPosition: PanelPosition;
  minimized: boolean;
  /** The panel over the video is translucent so the show stays visible. */
  seeThrough: boolean;
  /**
   * Upsell mode: the shopper just put the open product in the cart, so its details suggest the
   * show's other products. Opening a product, going back to the list, closing the sheet or
   * dismissing the suggestions ends it.
   */
  upsell: boolean;
  loginPrompt: boolean;
  renamePrompt: boolean;
  cartOpen: boolean;
}

export type LayoutAction =
  | { type: 'selectTab'; tab: PlayerTab }
  | { type: 'openProduct'; productUid: string }
  | { type: 'closeProduct' }
  | { type: 'toggleMobilePanel'; panel: MobilePanel }
  | { type: 'openMobilePanel'; panel: MobilePanel }
  | { type: 'closeMobilePanel' }
  | { type: 'setMinimized'; minimized: boolean }
  | { type: 'addedToCart' }
  | { type: 'dismissUpsell' };

/** The panel's tabs in their order (spec §2 "Show player"). */
export const PLAYER_TABS: readonly PlayerTab[] = ['products', 'video', 'comments', 'privateComments'];

/**
 * The tabs the panel offers: the Video tab lists the show's chapters, so a show without any (a
 * live show before the host marks a product) does not offer it; it would open an empty panel.
 */
export function offeredTabs(hasChapters: boolean): PlayerTab[] {
  return PLAYER_TABS.filter((tab) => tab !== 'video' || hasChapters);
}

/** The tab the panel shows: the chosen one while it is offered, else Products. */
export function shownTab(chosen: PlayerTab, offered: readonly PlayerTab[]): PlayerTab {
  return offered.includes(chosen) ? chosen : 'products';
}

export function initialLayout(panelPosition: PanelPosition): PlayerLayout {
  return {
    tab: 'products',
    productDetails: null,
    mobilePanel: null,
    panelPosition,
    minimized: false,
    seeThrough: panelPosition === 'overlay',
    upsell: false,
    loginPrompt: false,
    renamePrompt: false,
    cartOpen: false,
  };
}

export function layoutReducer(layout: PlayerLayout, action: LayoutAction): PlayerLayout {
  switch (action.type) {
    case 'selectTab':
      return {
        ...layout,
        tab: action.tab,
        productDetails: action.tab === 'products' ? layout.productDetails : null,
        upsell: action.tab === 'products' && layout.upsell,
      };
    case 'openProduct':
      return { ...layout, tab: 'products', productDetails: action.productUid, upsell: false };
    case 'closeProduct':
      return { ...layout, productDetails: null, upsell: false };
    case 'toggleMobilePanel':
      return { ...layout, mobilePanel: layout.mobilePanel === action.panel ? null : action.panel };
    case 'openMobilePanel':
      return { ...layout, mobilePanel: action.panel };
    case 'closeMobilePanel':
      return { ...layout, mobilePanel: null, productDetails: null, upsell: false };
    case 'setMinimized':
      return { ...layout, minimized: action.minimized };
    // Only an add from an open product's details suggests more: that is where the suggestions show.
    case 'addedToCart':
      return layout.productDetails === null ? layout : { ...layout, upsell: true };
    case 'dismissUpsell':
      return { ...layout, upsell: false };
  }
}

/** The flags as data attributes for the root element. */
export function layoutAttributes(layout: PlayerLayout): Record<string, string> {
  return {
    'data-tab': layout.tab,
    'data-panel-position': layout.panelPosition,
    'data-mobile-panel': layout.mobilePanel ?? 'none',
    'data-product-details': layout.productDetails ? 'open' : 'closed',
    'data-minimized': String(layout.minimized),
    'data-see-through': String(layout.seeThrough),
    'data-upsell': String(layout.upsell),
    'data-cart-open': String(layout.cartOpen),
  };
}
