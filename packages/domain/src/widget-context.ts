/** Sales channels the widget runs in (spec §1 "Contexts"); mirrors `WidgetContext` of the protocol. */
export const WIDGET_CONTEXTS = ['checkout', 'on_site', 'own-brand', 'store-offers'] as const;
export type WidgetContextName = (typeof WIDGET_CONTEXTS)[number];

/** A context from the embed URL, or null when it is missing or not one of the four. */
export function parseWidgetContext(value: string | null | undefined): WidgetContextName | null {
  return (WIDGET_CONTEXTS as readonly (string | null | undefined)[]).includes(value)
    ? (value as WidgetContextName)
    : null;
}

/** The own-brand, store-offers and on_site contexts force anonymous use (spec §1). */
export function forcesAnonymousUse(context: WidgetContextName | null): boolean {
  return context === 'on_site' || context === 'own-brand' || context === 'store-offers';
}

/**
 * Whether the viewer's cart is loaded (spec §4 "Authentication"): for logged-in users, and for
 * anonymous ones only in the on_site context.
 */
export function loadsCart(context: WidgetContextName | null, isAnonymous: boolean): boolean {
  return !isAnonymous || context === 'on_site';
}
