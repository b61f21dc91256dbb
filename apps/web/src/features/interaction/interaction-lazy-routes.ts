import { loadInteractionTexts } from './interaction-i18n.ts';

/**
 * The /login and /auth/callback pages as React Router `lazy` routes: their code and the
 * interaction texts load when the route is opened.
 */
export async function lazyLoginPage() {
  const [{ LoginPage }] = await Promise.all([import('./login-page.tsx'), loadInteractionTexts()]);
  return { Component: LoginPage };
}

export async function lazyAuthCallbackPage() {
  const [{ AuthCallbackPage }] = await Promise.all([
    import('./auth-callback-page.tsx'),
    loadInteractionTexts(),
  ]);
  return { Component: AuthCallbackPage };
}

/** The social-live contact page (/tiktok routes); the route's loader finds the store. */
export async function lazyContactCapturePage() {
  const [{ ContactCapturePage }] = await Promise.all([
    import('./contact-capture-page.tsx'),
    loadInteractionTexts(),
  ]);
  return { Component: ContactCapturePage };
}
