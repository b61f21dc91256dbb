import { WEB_PATHS } from '@vitrine/protocol';
import type { RouteObject } from 'react-router';
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
import { NotFoundPage } from './features/not-found/not-found-page.tsx';
import { pageLoader } from './features/placeholders/placeholder-loaders.ts';

/**
 * Customer checkout pages with a fixed page id of their own (spec §2 "Options and location
 * routes"); they take precedence over the generic options route.
 */
export const SPECIAL_CHECKOUT_PAGE_IDS = ['vitrine-outlet', 'vitrine-partner'] as const;

/** The terms page: the widget's first load never needs it. */
const lazyTermsPage = async () => {
  const { TermsPage, termsLoader } = await import('./features/terms/terms-page.tsx');
  return { Component: TermsPage, loader: termsLoader };
};

/**
 * The customer pages outside the widget (checkout, sign-in, terms, contact capture) under the main
 * layout at `/`: routes.tsx patches them in on the first navigation to a path outside /widget, so
 * the player's first bundle carries neither their paths nor their loaders.
 */
export const mainLayoutRoutes: RouteObject[] = [
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
  { path: ':pageUid/:campaignUid/:checkoutUid/error', lazy: lazyCheckoutError },
  { path: 'auth', element: <NotFoundPage /> },
  { path: 'login', lazy: lazyLoginPage },
  // Social sign-in providers return here (see features/interaction/auth-callback-page.tsx).
  { path: WEB_PATHS.authCallback.slice(1), lazy: lazyAuthCallbackPage },
];

/** The same pages' routes at the top of the table, beside /widget. */
export const appLayoutRoutes: RouteObject[] = [
  ...SPECIAL_CHECKOUT_PAGE_IDS.map((fixedId) => ({
    path: `/options/${fixedId}/:campaignUid/:checkoutUid`,
    lazy: lazyCheckoutOptions(fixedId),
  })),
  { path: '/options/:pageUid/:campaignUid/:checkoutUid', lazy: lazyCheckoutOptions() },
  { path: WEB_PATHS.checkoutLocation, lazy: lazyCheckoutLocation },
  { path: '/:pageUid/tiktok', loader: pageLoader, lazy: lazyContactCapturePage },
];
