import type { CallRoute } from '../player-routes.ts';

/** The studio's order calls (studio/order-calls.ts). */
export const ORDER_ROUTES = {} as const satisfies Record<string, CallRoute>;
