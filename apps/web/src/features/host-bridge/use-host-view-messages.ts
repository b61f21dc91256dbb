import { useEffect } from 'react';
import type { HostBridgeView } from './host-bridge-context.tsx';

/**
 * What the player tells the host page about its view once they talk (spec §7, docs/embedding.md):
 * - `can_share` `{}`: the player can share the show (its share panel), so the host may offer a
 *   share button of its own that sends `share`;
 * - `view_resized` `{width, height}`: the player's viewport in CSS pixels, first when they connect,
 *   then after each resize (at most once per frame), so the host can fit what it draws around it.
 */
export function useHostViewMessages(host: Pick<HostBridgeView, 'connected' | 'send'>): void {
  const { connected, send } = host;
  useEffect(() => {
    if (!connected) return;
    send('can_share', {});
    const report = () => send('view_resized', { width: window.innerWidth, height: window.innerHeight });
    report();
    let frame = 0;
    const onResize = () => {
      if (frame !== 0) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        report();
      });
    };
    window.addEventListener('resize', onResize);
    return () => {
      window.removeEventListener('resize', onResize);
      cancelAnimationFrame(frame);
    };
  }, [connected, send]);
}
