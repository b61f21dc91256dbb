import type { EmbedMode } from '@vitrine/protocol/vocabulary';

/** The player's two layouts: phones get the full-bleed video with sheets, wider frames the side panel. */
export type PlayerLayoutKind = 'phone' | 'desktop';

/** Widest frame, in CSS pixels, that still gets the phone layout. */
export const PHONE_LAYOUT_MAX_WIDTH = 760;

/**
 * Shortest the player is made to fit a short host window: below this its video, menu and sheets
 * no longer fit, and the shopper is better off scrolling the host page.
 */
export const MIN_FITTED_PLAYER_HEIGHT = 360;

export interface BoxSize {
  width: number;
  height: number;
}

export interface PlayerFitInput {
  /** The player's own frame (the iframe's inner size, or the window when not embedded). */
  frame: BoxSize;
  /** How the host page embeds the player; null when it runs on its own. */
  mode: EmbedMode | null;
  /** The host window's inner size from its last `parent_resize`, null until one arrives. */
  hostViewport: BoxSize | null;
}

export interface PlayerFit {
  layout: PlayerLayoutKind;
  /** Highest the player may be (CSS pixels), or null for the whole frame. */
  maxHeight: number | null;
}

/**
 * How the player lays itself out (spec §4 host messaging `parent_resize`). The layout follows the
 * frame's width, as a phone media query would. A modal player covers the host window, so the
 * host's size adds nothing; an inline or fillParent frame taller than the host window would put
 * the player's controls and phone sheets below the fold, so the player shrinks to the window.
 */
export function playerFit({ frame, mode, hostViewport }: PlayerFitInput): PlayerFit {
  const layout: PlayerLayoutKind = frame.width <= PHONE_LAYOUT_MAX_WIDTH ? 'phone' : 'desktop';
  const sizedByHost = mode === 'inline' || mode === 'fillParent';
  if (!sizedByHost || hostViewport === null || hostViewport.height <= 0) return { layout, maxHeight: null };
  const maxHeight = Math.max(hostViewport.height, MIN_FITTED_PLAYER_HEIGHT);
  return { layout, maxHeight: maxHeight < frame.height ? maxHeight : null };
}
