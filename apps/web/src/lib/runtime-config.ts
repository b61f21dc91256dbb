/** Deployment facts the server writes into index.html (see apps/server/src/http/web-app.ts). */
export interface RuntimeConfig {
  /** Base URL of the main connection (/functions/…); empty means the serving origin. */
  mainUrl: string;
  /** Base URL of the shop connection (/shopapiv2/…); empty means the serving origin. */
  shopUrl: string;
  /** The page shown at the site root. */
  defaultPageUid: string;
}

declare global {
  interface Window {
    __VITRINE__?: Partial<RuntimeConfig>;
  }
}

export const runtimeConfig: RuntimeConfig = {
  mainUrl: '',
  shopUrl: '',
  defaultPageUid: 'demo-store',
  ...window.__VITRINE__,
};
