import { type BoxSize, type PlayerFit, playerFit } from '@vitrine/domain';
import type { EmbedMode } from '@vitrine/protocol/vocabulary';
import { useMemo, useSyncExternalStore } from 'react';

let lastFrame: BoxSize = { width: 0, height: 0 };

/** The window's inner size, the same object while it does not change (a snapshot for React). */
function frameSnapshot(): BoxSize {
  const { innerWidth: width, innerHeight: height } = window;
  if (width !== lastFrame.width || height !== lastFrame.height) lastFrame = { width, height };
  return lastFrame;
}

function subscribeToResize(onChange: () => void): () => void {
  window.addEventListener('resize', onChange);
  return () => window.removeEventListener('resize', onChange);
}

/** The player's own frame: the iframe's inner size when embedded, the window's otherwise. */
export function useFrameSize(): BoxSize {
  return useSyncExternalStore(subscribeToResize, frameSnapshot, frameSnapshot);
}

/**
 * The player's layout and height for its frame and, embedded inline or fillParent, the host
 * window's size from `parent_resize` (domain `playerFit`). Read during render, so the first paint
 * already has the right layout.
 */
export function usePlayerFit(mode: EmbedMode | null, hostViewport: BoxSize | null): PlayerFit {
  const frame = useFrameSize();
  return useMemo(() => playerFit({ frame, mode, hostViewport }), [frame, mode, hostViewport]);
}
