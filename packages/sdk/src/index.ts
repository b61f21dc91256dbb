/**
 * @vitrine/sdk for retailers who bundle: the same SDK as the /sdk.js loader, without the global.
 *
 *   import { init } from '@vitrine/sdk';
 *   const player = init({ origin: 'https://live.example.com', pageUid: 'my-store', mode: 'modal' });
 *
 * `init`, `restore` and `players` share one instance per bundle; `createVitrine(origin)` makes
 * another with a default origin. See docs/embedding.md.
 */
import { createVitrine, type InitOptions, type UpdateOptions } from './vitrine.ts';

export type * from './protocol.ts';
export {
  EMBED_MODES,
  HOST_ACTIONS,
  HOST_MESSAGE_MAX_BYTES,
  HOST_PROTOCOL_VERSION,
  WIDGET_CONTEXTS,
} from './protocol.ts';
export type { MinimizedBox } from './validate.ts';
export type { Handler, Handlers, InitOptions, Player, Reply, UpdateOptions, Vitrine } from './vitrine.ts';
export { createVitrine, VERSION } from './vitrine.ts';

let instance: ReturnType<typeof createVitrine> | null = null;
const vitrine = () => {
  instance ??= createVitrine(null);
  return instance;
};

/** Creates a player; `origin` (the Vitrine server) is required here. */
export const init = (options: InitOptions) => vitrine().init(options);
/** Brings back the player minimized on the previous page of this tab (call it on every page). */
export const restore = (options?: UpdateOptions) => vitrine().restore(options);
export const players = () => vitrine().players();
