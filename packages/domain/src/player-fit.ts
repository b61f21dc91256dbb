import type { EmbedMode } from './vocabulary.ts';

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

/**
 * Most of the picture the phone layout may cut off to fill the screen edge to edge. A 9:16 show on
 * a tall phone loses under a fifth at its sides and fills the screen like other vertical video
 * apps; a landscape show (1280 × 720) would lose three quarters, so it is letterboxed instead.
 */
export const MAX_COVER_CROP = 0.25;

/** How the video fills its box: edge to edge, cropping (`cover`), or whole, letterboxed (`contain`). */
export type VideoFill = 'cover' | 'contain';

/** The share of the video's picture that filling `box` edge to edge would cut off (0 to 1). */
export function coverCrop(video: BoxSize, box: BoxSize): number {
  if (video.width <= 0 || video.height <= 0 || box.width <= 0 || box.height <= 0) return 0;
  const videoAspect = video.width / video.height;
  const boxAspect = box.width / box.height;
  return 1 - Math.min(videoAspect / boxAspect, boxAspect / videoAspect);
}

/**
 * How the phone layout fits the video into its box: edge to edge while that cuts off at most
 * MAX_COVER_CROP of the picture, else the whole picture. Until the video's size is known (its
 * metadata, or the event's `liveVideoFormat`) a show is taken to be vertical, as most are.
 */
export function videoFill(video: BoxSize | null, box: BoxSize): VideoFill {
  if (video === null) return 'cover';
  return coverCrop(video, box) <= MAX_COVER_CROP ? 'cover' : 'contain';
}

/** Whether the video is wider than tall (the desktop stage then takes its shape instead of 9:16). */
export function isLandscape(video: BoxSize | null): boolean {
  return video !== null && video.width > video.height;
}
