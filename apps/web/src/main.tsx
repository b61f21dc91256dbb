import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { currentEmbedParams } from './features/host-bridge/embed-params.ts';
import { initI18n } from './lib/i18n.ts';
import { startSession } from './lib/session.ts';
import { discoverRoutes, routes } from './routes.tsx';
import './styles/base.css';

// zod (in the lazy chunks that validate: chat, checkout, studio) probes whether it may compile its
// parsers with `new Function`; the page's CSP forbids eval, and Chromium reports the refused probe
// as a CSP issue (Lighthouse's Best Practices) though zod catches it. Its global config, read from
// this global when its first chunk loads, turns the probe and the compiled parsers off.
(globalThis as { __zod_globalConfig?: { jitless?: boolean } }).__zod_globalConfig = { jitless: true };

// Read before anything navigates: the embed parameters are in the query of this first load only.
currentEmbedParams();
await initI18n();
startSession();

// The app mounts into the page's single root element with the site root as its base path (spec §2).
const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('Vitrine needs an element with id "root" to mount into');
createRoot(rootElement).render(
  <StrictMode>
    <RouterProvider
      router={createBrowserRouter(routes, { basename: '/', patchRoutesOnNavigation: discoverRoutes })}
    />
  </StrictMode>,
);
