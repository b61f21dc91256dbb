import { resolveLocale } from '@vitrine/domain';
import { read } from '../../lib/api.ts';
import { debugLog, logFailure } from '../../lib/debug.ts';
import { changeLanguage } from '../../lib/i18n.ts';
import type { EmbedParams } from './embed-params.ts';
import { createHostBridge, type HostBridge } from './host-bridge.ts';

/**
 * The bridge wired to this window: loaded with `import()` only when the player runs embedded, so
 * zod (which the protocol's message schemas need) stays out of the initial bundle.
 */

let current: { key: string; bridge: HostBridge } | null = null;

/** The one bridge of this iframe: remounts and client-side navigation keep talking over the same one. */
export function hostBridgeFor(params: EmbedParams, pageUid: string): HostBridge {
  const key = `${pageUid}\n${params.playerId}\n${params.hostOrigin}`;
  if (current?.key === key) return current.bridge;
  current?.bridge.destroy();
  const bridge = createHostBridge(params, {
    parent: window.parent,
    listen(handler) {
      const onMessage = (event: MessageEvent) =>
        handler({ origin: event.origin, source: event.source, data: event.data });
      window.addEventListener('message', onMessage);
      return () => window.removeEventListener('message', onMessage);
    },
    allowedOrigins: async () => (await read('embedding', { pageUid })).allowedOrigins,
    changeLanguage: (language) => void changeLanguage(resolveLocale(language), 'host'),
    setTimer: (callback, ms) => setTimeout(callback, ms),
    log: { warn: (message) => console.warn(message), debug: debugLog, failure: logFailure },
  });
  current = { key, bridge };
  return bridge;
}
