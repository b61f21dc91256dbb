import type { CallSchemas } from '../define-call.ts';

/** The schemas of the studio's show calls (routes in show-routes.ts). */
export const showCalls = {} satisfies Record<string, CallSchemas>;
