import type { RouteObject } from 'react-router';
import { STUDIO_SECTIONS, type StudioSectionPath } from './studio-sections.ts';

/**
 * The studio's route table (/studio…), patched into the app's data router on the first navigation
 * into it (routes.tsx discoverRoutes); every page's code, the shell's included, loads later still.
 * Each section owns its sub-pages as descendant routes under `<section>/*`.
 */
const shell = () => import('./studio-shell.tsx');
const fromShell =
  (
    name:
      | 'StudioFrame'
      | 'StudioGate'
      | 'StudioHome'
      | 'StudioAccount'
      | 'StudioLayout'
      | 'FirstSection'
      | 'StudioLinkPage'
      | 'ResetPasswordPage'
      | 'SetupPage',
  ) =>
  async () => ({ Component: (await shell())[name] });

const SECTION_PAGES: Record<StudioSectionPath, () => Promise<{ default: () => React.ReactNode }>> = {
  shows: () => import('./shows/shows-section.tsx'),
  live: () => import('./live/live-section.tsx'),
  products: () => import('./catalogue/catalogue-section.tsx'),
  orders: () => import('./orders/orders-section.tsx'),
  analytics: () => import('./analytics/analytics-section.tsx'),
  contacts: () => import('./orders/contacts-section.tsx'),
  mail: () => import('./orders/mail-section.tsx'),
  settings: () => import('./settings/settings-section.tsx'),
  staff: () => import('./settings/staff-section.tsx'),
  audit: () => import('./settings/audit-section.tsx'),
};

export const studioRoutes: RouteObject = {
  path: 'studio',
  lazy: fromShell('StudioFrame'),
  children: [
    // Reached without a staff session: these pages sign in themselves.
    { path: 'link', lazy: fromShell('StudioLinkPage') },
    { path: 'reset-password', lazy: fromShell('ResetPasswordPage') },
    {
      path: 'invitation',
      lazy: async () => ({ Component: (await import('./settings/invitation-page.tsx')).default }),
    },
    {
      lazy: fromShell('StudioGate'),
      children: [
        { index: true, lazy: fromShell('StudioHome') },
        // Static, so it outranks a store called "account".
        { path: 'account', lazy: fromShell('StudioAccount') },
        {
          path: ':pageUid',
          lazy: fromShell('StudioLayout'),
          children: [
            { index: true, lazy: fromShell('FirstSection') },
            ...STUDIO_SECTIONS.map((section) => ({
              path: `${section.path}/*`,
              lazy: async () => ({ Component: (await SECTION_PAGES[section.path]()).default }),
            })),
            // An address that names no section: "not found" in the studio's frame, not a blank page.
            {
              path: '*',
              lazy: async () => ({ Component: (await import('./ui/studio-not-found.tsx')).StudioNotFound }),
            },
          ],
        },
      ],
    },
  ],
};

/** /setup: the first run's page (while the server has no store), in the studio's frame. */
export const setupRoutes: RouteObject = {
  path: 'setup',
  lazy: fromShell('StudioFrame'),
  children: [{ index: true, lazy: fromShell('SetupPage') }],
};
