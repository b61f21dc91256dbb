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

export async function lazyCreateCheckout() {
  const [{ CreateCheckoutPage }, { createCheckoutLoader }] = await Promise.all([
    screens(),
    dataModule(),
    texts(),
  ]);
  return { Component: CreateCheckoutPage, loader: createCheckoutLoader };
}

export async function lazyCheckoutError() {
  const [{ CheckoutErrorPage }, { checkoutErrorLoader }] = await Promise.all([
    screens(),
    dataModule(),
    texts(),
  ]);
  return { Component: CheckoutErrorPage, loader: checkoutErrorLoader };
}

export async function lazyCheckoutLocation() {
  const [{ CheckoutLocationPage }, { loadCheckoutData }] = await Promise.all([
    screens(),
    dataModule(),
    texts(),
  ]);
  return { Component: CheckoutLocationPage, loader: loadCheckoutData };
}

/**
 * The options page. A special customer page passes its fixed id: that id names the customer page,
 * not a store, so its route has no page parameter and the checkout's store comes from the campaign
 * (spec §2 "Options and location routes").
 */
export function lazyCheckoutOptions(fixedPageId?: string) {
  return async () => {
    const [{ CheckoutOptionsPage }, { loadCheckoutData }] = await Promise.all([
      screens(),
      dataModule(),
      texts(),
    ]);
    return {
      Component: () => <CheckoutOptionsPage {...(fixedPageId ? { fixedPageId } : {})} />,
      loader: loadCheckoutData,
    };
  };
}
