import type { CallRoute } from '../player-routes.ts';

/** The studio's settings calls (studio/settings-calls.ts). */
export const SETTINGS_ROUTES = {} as const satisfies Record<string, CallRoute>;
