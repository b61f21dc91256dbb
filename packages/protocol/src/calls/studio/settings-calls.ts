import type { CallSchemas } from '../define-call.ts';

/** The schemas of the studio's settings calls (routes in settings-routes.ts). */
export const settingsCalls = {} satisfies Record<string, CallSchemas>;
