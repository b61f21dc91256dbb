import { fillPath } from '../web-paths.ts';
import { PLAYER_CALL_ROUTES } from './player-routes.ts';
import { STUDIO_CALL_ROUTES } from './studio/studio-routes.ts';

/**
 * Every call's route: the player's and the admin key's (player-routes.ts) and the studio's
 * (studio/). The web's first bundle imports PLAYER_CALL_ROUTES only; the studio's lazy bundle
 * imports these.
 */
export const CALL_ROUTES = { ...PLAYER_CALL_ROUTES, ...STUDIO_CALL_ROUTES };

export type CallName = keyof typeof CALL_ROUTES;

/**
 * A call's path with its `:name` parameters filled in (each URI-encoded); a parameter missing
 * from `params` is an error, so a half-filled path never reaches the network.
 */
export function callPath(name: CallName, params: Readonly<Record<string, string>> = {}): string {
  return fillPath(CALL_ROUTES[name].path, params);
}
