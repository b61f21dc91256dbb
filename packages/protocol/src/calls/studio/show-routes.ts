import type { CallRoute } from '../player-routes.ts';

/** The studio's show calls (studio/show-calls.ts). */
export const SHOW_ROUTES = {} as const satisfies Record<string, CallRoute>;
