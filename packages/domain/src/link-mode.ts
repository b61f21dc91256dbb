import { FORCED_BASKET_MODES, type ForcedBasketMode } from './vocabulary.ts';

/** Whether a value from the host is a known forced basket mode; anything else is ignored (spec §5). */
export function isForcedBasketMode(value: unknown): value is ForcedBasketMode {
  return typeof value === 'string' && (FORCED_BASKET_MODES as readonly string[]).includes(value);
}

export interface LinkModeInputs {
  /** The basket mode forced by the host, null when none. */
  forcedBasketMode: ForcedBasketMode | null;
  /** The event's onsiteCartMode. */
  onsiteCartMode: 'cart' | 'product' | null;
  /** The campaign's usingCheckout. */
  campaignUsesCheckout: boolean;
  /** The event's leadModeAfterDeadline. */
  leadModeAfterDeadline: boolean;
  /** Whether the campaign deadline is past (see `isShowExpired`). */
  deadlinePassed: boolean;
}

/**
 * Whether products link out instead of going to the cart (spec §4 "Link mode and basket mode"):
 * a forced mode decides alone (LINKS → yes; WEBSHOP, FAVORITES, VITRINE → no); otherwise yes when
 * the cart mode is product, the campaign uses checkout, or lead mode applies and the deadline is past.
 */
export function isLinkMode(inputs: LinkModeInputs): boolean {
  if (inputs.forcedBasketMode !== null) return inputs.forcedBasketMode === 'LINKS';
  return (
    inputs.onsiteCartMode === 'product' ||
    inputs.campaignUsesCheckout ||
    (inputs.leadModeAfterDeadline && inputs.deadlinePassed)
  );
}

/** A forced FAVORITES mode hides all cart features (spec §4 "FAVORITES also hides all cart features"). */
export function hidesCartFeatures(forcedBasketMode: ForcedBasketMode | null): boolean {
  return forcedBasketMode === 'FAVORITES';
}

/**
 * Whose cart an embedded player sells into when not in link mode: the host page's when it takes
 * cart updates (UPDATE_CART_CONTENTS), unless it forces VITRINE, the player's own basket.
 */
export function sellsIntoHostCart(
  forcedBasketMode: ForcedBasketMode | null,
  hostTakesCartUpdates: boolean,
): boolean {
  return hostTakesCartUpdates && forcedBasketMode !== 'VITRINE';
}
