/**
 * The checkout screens as React Router `lazy` routes: their code (and CSS) loads when a checkout
 * route is opened, so the player's first bundle does not carry it.
 */

const screens = () => import('./checkout-screens.tsx');
const dataModule = () => import('./checkout-data.ts');
/** The checkout namespace's texts, loaded alongside the screens' code. */
const texts = () => import('./checkout-i18n.ts').then((module) => module.loadCheckoutTexts());

export async function lazyCheckoutPage() {
  const [{ CheckoutPage }, { loadCheckoutData }] = await Promise.all([
    import('./checkout-page.tsx'),
    dataModule(),
  ]);
  return { Component: CheckoutPage, loader: loadCheckoutData };
}

type Screens = typeof import('./checkout-screens.tsx');
type DataModule = typeof import('./checkout-data.ts');

/** A route of the checkout screens: `pick` names its component and loader once both modules and the texts are in. */
async function screenRoute<T>(pick: (screens: Screens, data: DataModule) => T): Promise<T> {
  const [screensModule, data] = await Promise.all([screens(), dataModule(), texts()]);
  return pick(screensModule, data);
}

export const lazyCreateCheckout = () =>
  screenRoute((s, d) => ({ Component: s.CreateCheckoutPage, loader: d.createCheckoutLoader }));

export const lazyCheckoutError = () =>
  screenRoute((s, d) => ({ Component: s.CheckoutErrorPage, loader: d.checkoutErrorLoader }));

export const lazyCheckoutLocation = () =>
  screenRoute((s, d) => ({ Component: s.CheckoutLocationPage, loader: d.loadCheckoutData }));

/**
 * The options page. A special customer page passes its fixed id: that id names the customer page,
 * not a store, so its route has no page parameter and the checkout's store comes from the campaign
 * (spec §2 "Options and location routes").
 */
export function lazyCheckoutOptions(fixedPageId?: string) {
  return () =>
    screenRoute(({ CheckoutOptionsPage }, { loadCheckoutData }) => ({
      Component: () => <CheckoutOptionsPage {...(fixedPageId ? { fixedPageId } : {})} />,
      loader: loadCheckoutData,
    }));
}
