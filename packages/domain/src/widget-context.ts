import { WIDGET_CONTEXTS, type WidgetContext } from './vocabulary.ts';

/** A context from the embed URL, or null when it is missing or not one of the four. */
export function parseWidgetContext(value: string | null | undefined): WidgetContext | null {
  return (WIDGET_CONTEXTS as readonly (string | null | undefined)[]).includes(value)
    ? (value as WidgetContext)
    : null;
}

/** The own-brand, store-offers and on_site contexts force anonymous use (spec §1). */
export function forcesAnonymousUse(context: WidgetContext | null): boolean {
  return context === 'on_site' || context === 'own-brand' || context === 'store-offers';
}

/**
 * Whether the viewer's cart is loaded (spec §4 "Authentication"): for logged-in users, and for
 * anonymous ones only in the on_site context.
 */
export function loadsCart(context: WidgetContext | null, isAnonymous: boolean): boolean {
  return !isAnonymous || context === 'on_site';
}

/** Which account dialog the player's account button opens. */
export type AccountEntry = 'account' | 'signIn';

/**
 * What the account button next to the chat opens, or null for no button: none where the context
 * forces anonymous use (spec §1: no sign-in, sign-up or rename; a name for commenting is still
 * asked, since anonymous participation requires one), the account dialog for a signed-in or named
 * viewer, else sign-in.
 */
export function accountEntry(
  context: WidgetContext | null,
  viewer: { isAnonymous: boolean; name: string } | null,
): AccountEntry | null {
  if (forcesAnonymousUse(context)) return null;
  return viewer && (!viewer.isAnonymous || viewer.name) ? 'account' : 'signIn';
}
