/**
 * Pages of the web app that others link to: the SDK frames the widget, the server sends payments
 * back to the checkout and social sign-ins to the callback, checkout pages link to each other.
 * Zod-free: the SDK and the web's first bundle import it. `:name` segments are parameters.
 */
export const WEB_PATHS = {
  /** The embeddable player of a store (spec §2 widget routes). */
  widget: '/widget/:pageUid/',
  /** Where a payment returns by default (the payment page adds `?transaction=<uid>`). */
  checkoutSuccess: '/:campaignUid/:checkoutUid/success',
  /** The stores an order can be picked up in. */
  checkoutLocation: '/select-checkout-location/:pageUid/:campaignUid/:checkoutUid',
  /** Where social sign-in providers return to when no redirectUri is configured. */
  authCallback: '/auth/callback',
  /** A store's shop page (the site's front page `/` shows the default store's). */
  shop: '/widget/:pageUid',
  /** One show of a campaign: the address search engines and shared links keep (its canonical URL). */
  show: '/widget/:pageUid/campaign/:campaignUid/event/:eventUid',
  /** A clip cut from a show (its product beside it): its own public page. */
  clip: '/widget/:pageUid/clips/:clipUid',
} as const;

export type WebPathName = keyof typeof WEB_PATHS;

/** A path pattern with its `:name` segments filled in, each URI-encoded; a missing one is an error. */
export function fillPath(pattern: string, params: Readonly<Record<string, string>>): string {
  return pattern.replace(/:([A-Za-z]+)/g, (_segment, key: string) => {
    const value = params[key];
    if (value === undefined) throw new Error(`${pattern}: the parameter "${key}" is missing`);
    return encodeURIComponent(value);
  });
}

/** The path of a web page, e.g. `webPath('checkoutSuccess', { campaignUid, checkoutUid })`. */
export const webPath = (name: WebPathName, params: Readonly<Record<string, string>> = {}) =>
  fillPath(WEB_PATHS[name], params);
