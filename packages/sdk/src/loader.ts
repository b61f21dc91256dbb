/**
 * The loader served at /sdk.js: defines `window.Vitrine` once (loading the script again changes
 * nothing) with the origin the script came from as the player origin, and brings back a player
 * that was minimized on the previous page of this tab.
 */
import { createVitrine, type Vitrine } from './vitrine.ts';

declare global {
  interface Window {
    Vitrine?: Vitrine;
  }
}

if (!window.Vitrine) {
  const script =
    (document.currentScript as HTMLScriptElement | null) ??
    document.querySelector<HTMLScriptElement>('script[src*="/sdk.js"]');
  const vitrine = createVitrine(script ? new URL(script.src, location.href).origin : null);
  window.Vitrine = vitrine;
  const restore = () => vitrine.restore();
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', restore);
  else restore();
}
