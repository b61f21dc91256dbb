import { fillPath } from '../web-paths.ts';
import { PLAYER_CALL_ROUTES } from './player-routes.generated.ts';
import { STUDIO_CALL_ROUTES } from './studio/studio-routes.generated.ts';

/**
 * Every call's route: the player's and the admin key's (player-routes.generated.ts) and the
 * studio's (studio/). The web's first bundle imports PLAYER_CALL_ROUTES only; the studio's lazy
 * bundle imports these.
 */
export const CALL_ROUTES = { ...PLAYER_CALL_ROUTES, ...STUDIO_CALL_ROUTES };

export type CallName = keyof typeof CALL_ROUTES;

type PlayerCallName = keyof typeof PLAYER_CALL_ROUTES;

/** Calls a viewer's browser makes: no admin key, no path parameters. */
export type ClientCallName = {
  [N in PlayerCallName]: (typeof PLAYER_CALL_ROUTES)[N]['auth'] extends 'admin'
    ? never
    : (typeof PLAYER_CALL_ROUTES)[N]['path'] extends `${string}:${string}`
      ? never
      : N;
}[PlayerCallName];

/**
 * A call's path with its `:name` parameters filled in (each URI-encoded); a parameter missing
 * from `params` is an error, so a half-filled path never reaches the network.
 */
export function callPath(name: CallName, params: Readonly<Record<string, string>> = {}): string {
  return fillPath(CALL_ROUTES[name].path, params);
}
