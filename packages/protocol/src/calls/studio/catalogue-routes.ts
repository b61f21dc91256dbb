import type { CallRoute } from '../player-routes.ts';

/** The studio's catalogue calls (studio/catalogue-calls.ts). */
export const CATALOGUE_ROUTES = {} as const satisfies Record<string, CallRoute>;
