import type { CallSchemas } from '../define-call.ts';

/** The schemas of the studio's order calls (routes in order-routes.ts). */
export const orderCalls = {} satisfies Record<string, CallSchemas>;
