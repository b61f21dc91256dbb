import type { PatchRoutesOnNavigationFunction, RouteObject } from 'react-router';
import { AppLayout } from './app-layout.tsx';
import { lazyContactCapturePage } from './features/interaction/interaction-lazy-routes.ts';
import { NotFoundPage, PageLoading, RouteErrorPage } from './features/not-found/not-found-page.tsx';
import { pageLoader } from './features/placeholders/placeholder-loaders.ts';
import { multiEventLoader } from './features/player/multi-event-loader.ts';
import { showLoader } from './features/player/show-loader.ts';
import { ShowRoute } from './features/player/show-player.tsx';
import { defaultShopLoader, shopLoader } from './features/shop/shop-loader.ts';

/** The store front page loads on its own route, so the player's first bundle does not carry it. */
/** The multi-event widget's code loads with its route; a single show's widget does not carry it. */
const lazyMultiEventPlayer = async () => ({
  Component: (await import('./features/player/multi-event-player.tsx')).MultiEventPlayer,
});
const lazyShopPage = async () => ({ Component: (await import('./features/shop/shop-page.tsx')).ShopPage });

/** A clip's page and the SDK's "Seen live" player: their code loads with the route. */
const lazyClipPage = async () => ({ Component: (await import('./features/clips/clip-page.tsx')).ClipPage });

/** The app's layout route (the root of the table) and the main layout's at `/`: where discovered routes go. */
const APP_LAYOUT_ROUTE_ID = 'app';
const MAIN_LAYOUT_ROUTE_ID = 'main';
/** Paths the studio's route table serves (its own pages and the first run's /setup). */
const STUDIO_PATH = /^\/(studio|setup)(\/|$)/;
/** The widget's routes are all in the first table: a path under /widget discovers nothing. */
const WIDGET_PATH = /^\/widget(\/|$)/;

/**
 * React Router's lazy route discovery (the router asks on a path it cannot match, or matches only
 * through a dynamic segment): the first table holds the player's and the shop's routes; the
 * studio's route table (paths, sections, loaders) and the other customer pages' (checkout, sign-in,
 * terms) are patched in on the first navigation to one of their paths, so the player's first
 * bundle carries neither. A widget path returns at once.
 */
export const discoverRoutes: PatchRoutesOnNavigationFunction = async ({ path, patch }) => {
  if (WIDGET_PATH.test(path)) return;
  if (STUDIO_PATH.test(path)) {
    const { setupRoutes, studioRoutes } = await import('./features/studio/studio-routes.ts');
    // The static `studio` outranks `:campaignUid/:checkoutUid`, which `/studio/link` would match too.
    patch(MAIN_LAYOUT_ROUTE_ID, [studioRoutes, setupRoutes]);
    return;
  }
  // The router leaves out a route it already has (same path, same children): patching twice is harmless.
  const { appLayoutRoutes, mainLayoutRoutes } = await import('./customer-routes.tsx');
  patch(MAIN_LAYOUT_ROUTE_ID, mainLayoutRoutes);
  patch(APP_LAYOUT_ROUTE_ID, appLayoutRoutes);
};

/** The whole route table of spec §2, in one place (the studio's part is discovered: above). */
export const routes: RouteObject[] = [
  {
    id: APP_LAYOUT_ROUTE_ID,
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
          // The studio, /setup and the customer pages (checkout, sign-in, terms) are patched in
          // here, on the first navigation to one of them: discoverRoutes.
        ],
      },
      // The checkout's options and location pages and /:pageUid/tiktok too (customer-routes.tsx).
      {
        path: '/widget',
        children: [
          { path: ':pageUid/tiktok', loader: pageLoader, lazy: lazyContactCapturePage },
          { path: 'multi-event', loader: multiEventLoader, lazy: lazyMultiEventPlayer },
          { path: ':pageUid/clips', lazy: lazyClipPage },
          { path: ':pageUid/clips/:clipUid', lazy: lazyClipPage },
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
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
