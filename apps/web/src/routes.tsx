import { WEB_PATHS } from '@vitrine/protocol';
import type { PatchRoutesOnNavigationFunction, RouteObject } from 'react-router';
import { AppLayout } from './app-layout.tsx';
import {
  lazyCheckoutError,
  lazyCheckoutLocation,
  lazyCheckoutOptions,
  lazyCheckoutPage,
  lazyCreateCheckout,
} from './features/checkout/checkout-lazy-routes.tsx';
import {
  lazyAuthCallbackPage,
  lazyContactCapturePage,
  lazyLoginPage,
} from './features/interaction/interaction-lazy-routes.ts';
import { NotFoundPage, PageLoading, RouteErrorPage } from './features/not-found/not-found-page.tsx';
import { pageLoader } from './features/placeholders/placeholder-loaders.ts';
import { multiEventLoader } from './features/player/multi-event-loader.ts';
import { showLoader } from './features/player/show-loader.ts';
import { ShowRoute } from './features/player/show-player.tsx';
import { defaultShopLoader, shopLoader } from './features/shop/shop-loader.ts';

/**
 * Customer checkout pages with a fixed page id of their own (spec §2 "Options and location
 * routes"); they take precedence over the generic options route.
 */
export const SPECIAL_CHECKOUT_PAGE_IDS = ['vitrine-outlet', 'vitrine-partner'] as const;

/** The store front page loads on its own route, so the player's first bundle does not carry it. */
/** The multi-event widget's code loads with its route; a single show's widget does not carry it. */
const lazyMultiEventPlayer = async () => ({
  Component: (await import('./features/player/multi-event-player.tsx')).MultiEventPlayer,
});
const lazyShopPage = async () => ({ Component: (await import('./features/shop/shop-page.tsx')).ShopPage });

/** The terms page too: the widget's first load never needs it. */
const lazyTermsPage = async () => {
  const { TermsPage, termsLoader } = await import('./features/terms/terms-page.tsx');
  return { Component: TermsPage, loader: termsLoader };
};

/** The main layout's route at `/`, under which the studio's routes are patched in. */
const MAIN_LAYOUT_ROUTE_ID = 'main';
/** Paths the studio's route table serves (its own pages and the first run's /setup). */
const STUDIO_PATH = /^\/(studio|setup)(\/|$)/;

/**
 * React Router's lazy route discovery: the studio's route table (its paths, sections and loaders)
 * is added on the first navigation into it, so the player's first bundle does not carry it. Other
 * paths return at once (the router asks on every path with a dynamic segment).
 */
export const discoverRoutes: PatchRoutesOnNavigationFunction = async ({ path, patch }) => {
  if (!STUDIO_PATH.test(path)) return;
  const { setupRoutes, studioRoutes } = await import('./features/studio/studio-routes.ts');
  // The static `studio` outranks `:campaignUid/:checkoutUid`, which `/studio/link` would match too.
  patch(MAIN_LAYOUT_ROUTE_ID, [studioRoutes, setupRoutes]);
};

/** The whole route table of spec §2, in one place (the studio's part is discovered: above). */
export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    errorElement: <RouteErrorPage />,
    HydrateFallback: PageLoading,
    children: [
      {
        // Main layout at /
        id: MAIN_LAYOUT_ROUTE_ID,
        path: '/',
        errorElement: <RouteErrorPage />,
        children: [
          { index: true, loader: defaultShopLoader, lazy: lazyShopPage },
          // The studio (store staff's back office) and /setup are patched in here: discoverRoutes.
          { path: ':campaignUid/create', lazy: lazyCreateCheckout },
          { path: 'terms', lazy: lazyTermsPage },
          { path: 'tiktok', loader: pageLoader, lazy: lazyContactCapturePage },
          {
            path: ':campaignUid/:checkoutUid',
            lazy: lazyCheckoutPage,
            children: [
              { index: true, element: null, handle: { step: 'choose' } },
              { path: 'confirm', element: null, handle: { step: 'confirm' } },
              { path: 'success', element: null, handle: { step: 'success' } },
            ],
          },
          {
            path: ':pageUid/:campaignUid/:checkoutUid/error',
            lazy: lazyCheckoutError,
          },
          { path: 'auth', element: <NotFoundPage /> },
          { path: 'login', lazy: lazyLoginPage },
          // Social sign-in providers return here (see features/interaction/auth-callback-page.tsx).
          { path: WEB_PATHS.authCallback.slice(1), lazy: lazyAuthCallbackPage },
        ],
      },
      ...SPECIAL_CHECKOUT_PAGE_IDS.map((fixedId) => ({
        path: `/options/${fixedId}/:campaignUid/:checkoutUid`,
        lazy: lazyCheckoutOptions(fixedId),
      })),
      { path: '/options/:pageUid/:campaignUid/:checkoutUid', lazy: lazyCheckoutOptions() },
      { path: WEB_PATHS.checkoutLocation, lazy: lazyCheckoutLocation },
      {
        path: '/widget',
        children: [
          { path: ':pageUid/tiktok', loader: pageLoader, lazy: lazyContactCapturePage },
          { path: 'multi-event', loader: multiEventLoader, lazy: lazyMultiEventPlayer },
          { path: ':pageUid/multi-event', loader: multiEventLoader, lazy: lazyMultiEventPlayer },
          {
            path: ':pageUid/:campaignUid/:checkoutUid',
            loader: showLoader,
            element: <ShowRoute />,
          },
          { path: ':pageUid/:campaignUid', loader: showLoader, element: <ShowRoute /> },
          {
            path: ':pageUid/campaign/:campaignUid/event/:eventUid',
            loader: showLoader,
            element: <ShowRoute />,
          },
          {
            path: ':pageUid/campaign/:campaignUid/event/:eventUid/checkout/:checkoutUid',
            loader: showLoader,
            element: <ShowRoute />,
          },
          { path: ':pageUid', loader: shopLoader, lazy: lazyShopPage },
        ],
      },
      { path: '/:pageUid/tiktok', loader: pageLoader, lazy: lazyContactCapturePage },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
