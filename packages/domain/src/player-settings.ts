import { DEFAULT_MINIMIZED_MARGIN_PX } from './constants.ts';
import type { Navigation } from './vocabulary.ts';

export type OverlayPosition = 'left' | 'right';

/** Page player settings with every default of spec §3 applied. */
export interface ResolvedPlayerSettings {
  primaryColor: string;
  secondaryColor: string;
  showPopularityBadges: boolean;
  showPurchaseBadges: boolean;
  hidePrices: boolean;
  allowCommentsOnPrelive: boolean;
  allowCommentsOnLive: boolean;
  productOverlayPosition: OverlayPosition;
  productOverlayInvisible: boolean;
  showVitrineBranding: boolean;
  minimizedPlayer: boolean;
  minimizedHorizontalPosition: 'left' | 'right';
  minimizedVerticalPosition: 'top' | 'bottom';
  minimizedHorizontalMargin: number;
  minimizedVerticalMargin: number;
  navigation: Navigation;
}

export const DEFAULT_PLAYER_SETTINGS: ResolvedPlayerSettings = {
  primaryColor: '#29323D',
  secondaryColor: '#2490A8',
  showPopularityBadges: true,
  showPurchaseBadges: true,
  hidePrices: false,
  allowCommentsOnPrelive: true,
  allowCommentsOnLive: true,
  productOverlayPosition: 'right',
  productOverlayInvisible: false,
  showVitrineBranding: true,
  minimizedPlayer: true,
  minimizedHorizontalPosition: 'right',
  minimizedVerticalPosition: 'bottom',
  minimizedHorizontalMargin: DEFAULT_MINIMIZED_MARGIN_PX,
  minimizedVerticalMargin: DEFAULT_MINIMIZED_MARGIN_PX,
  navigation: 'NEW_TAB',
};

/** Fills every setting a page left absent (null or missing) with the spec's default. */
export function resolvePlayerSettings(
  stored: { [K in keyof ResolvedPlayerSettings]?: ResolvedPlayerSettings[K] | null },
): ResolvedPlayerSettings {
  const resolved = { ...DEFAULT_PLAYER_SETTINGS };
  for (const key of Object.keys(DEFAULT_PLAYER_SETTINGS) as (keyof ResolvedPlayerSettings)[]) {
    const value = stored[key];
    if (value !== undefined && value !== null) Object.assign(resolved, { [key]: value });
  }
  return resolved;
}
