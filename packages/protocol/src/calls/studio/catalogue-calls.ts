import type { CallSchemas } from '../define-call.ts';

/** The schemas of the studio's catalogue calls (routes in catalogue-routes.ts). */
export const catalogueCalls = {} satisfies Record<string, CallSchemas>;
