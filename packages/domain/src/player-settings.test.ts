import { describe, expect, it } from 'vitest';
import { DEFAULT_PLAYER_SETTINGS, resolvePlayerSettings } from './player-settings.ts';

describe('resolvePlayerSettings defaults', () => {
  const defaults = resolvePlayerSettings({});

  it('defaults primaryColor to dark slate #29323D (spec §3 "Page player settings", §9 "Default colors")', () => {
    expect(defaults.primaryColor).toBe('#29323D');
  });

  it('defaults secondaryColor to teal #2490A8 (spec §3 "Page player settings", §9 "Default colors")', () => {
    expect(defaults.secondaryColor).toBe('#2490A8');
  });

  it('defaults showPopularityBadges and showPurchaseBadges to true when absent (spec §3 "Page player settings")', () => {
    expect(defaults.showPopularityBadges).toBe(true);
    expect(defaults.showPurchaseBadges).toBe(true);
  });

  it('defaults productOverlayPosition to right (spec §3 "Page player settings", §9 "Default overlay position")', () => {
    expect(defaults.productOverlayPosition).toBe('right');
  });

  it('defaults minimizedPlayer to ON (spec §3 "Page player settings", §9 "Default minimized player")', () => {
    expect(defaults.minimizedPlayer).toBe(true);
  });

  it('defaults the minimized position to right and bottom (spec §3 "Page player settings")', () => {
    expect(defaults.minimizedHorizontalPosition).toBe('right');
    expect(defaults.minimizedVerticalPosition).toBe('bottom');
  });

  it('defaults both minimized margins to 20 px (spec §3 "Page player settings", §9 "Default minimized margins")', () => {
    expect(defaults.minimizedHorizontalMargin).toBe(20);
    expect(defaults.minimizedVerticalMargin).toBe(20);
  });

  it('defaults navigation to NEW_TAB (spec §3 "Page player settings", §9 "Default navigation")', () => {
    expect(defaults.navigation).toBe('NEW_TAB');
  });

  it('allows comments on prelive and live by default (spec §4 "Comments": default allowed)', () => {
    expect(defaults.allowCommentsOnPrelive).toBe(true);
    expect(defaults.allowCommentsOnLive).toBe(true);
  });

  it('equals DEFAULT_PLAYER_SETTINGS when nothing is stored (spec §3 "Page player settings", §9)', () => {
    expect(defaults).toEqual(DEFAULT_PLAYER_SETTINGS);
  });
});

describe('resolvePlayerSettings with stored values', () => {
  it('treats null like an absent value and applies the default (spec §3 "default ... when absent")', () => {
    const resolved = resolvePlayerSettings({
      primaryColor: null,
      secondaryColor: null,
      showPopularityBadges: null,
      showPurchaseBadges: null,
      productOverlayPosition: null,
      minimizedPlayer: null,
      minimizedHorizontalMargin: null,
      minimizedVerticalMargin: null,
      navigation: null,
    });
    expect(resolved).toEqual(DEFAULT_PLAYER_SETTINGS);
  });

  it('treats an explicit undefined like an absent value (spec §3 "default ... when absent")', () => {
    expect(resolvePlayerSettings({ primaryColor: undefined, showPurchaseBadges: undefined })).toEqual(
      DEFAULT_PLAYER_SETTINGS,
    );
  });

  it('keeps stored false for the badges instead of the true default (spec §3 "default true when absent")', () => {
    const resolved = resolvePlayerSettings({ showPopularityBadges: false, showPurchaseBadges: false });
    expect(resolved.showPopularityBadges).toBe(false);
    expect(resolved.showPurchaseBadges).toBe(false);
  });

  it('keeps a stored minimizedPlayer false, turning the minimized player OFF (spec §3, §9 "Default minimized player")', () => {
    expect(resolvePlayerSettings({ minimizedPlayer: false }).minimizedPlayer).toBe(false);
  });

  it('keeps a stored margin of 0 px instead of the 20 px default (spec §3 "minimized margins", §9)', () => {
    const resolved = resolvePlayerSettings({ minimizedHorizontalMargin: 0, minimizedVerticalMargin: 0 });
    expect(resolved.minimizedHorizontalMargin).toBe(0);
    expect(resolved.minimizedVerticalMargin).toBe(0);
  });

  it('keeps stored colours, overlay position and navigation (spec §3 "Page player settings")', () => {
    const resolved = resolvePlayerSettings({
      primaryColor: '#000000',
      secondaryColor: '#FFFFFF',
      productOverlayPosition: 'left',
      navigation: 'SAME_TAB',
    });
    expect(resolved.primaryColor).toBe('#000000');
    expect(resolved.secondaryColor).toBe('#FFFFFF');
    expect(resolved.productOverlayPosition).toBe('left');
    expect(resolved.navigation).toBe('SAME_TAB');
  });

  it('fills only the absent settings and leaves stored ones untouched (spec §3 "Page player settings")', () => {
    const resolved = resolvePlayerSettings({ hidePrices: true, minimizedVerticalMargin: 40 });
    expect(resolved).toEqual({ ...DEFAULT_PLAYER_SETTINGS, hidePrices: true, minimizedVerticalMargin: 40 });
  });

  it('does not mutate the defaults or the stored object (spec §3 "Page player settings")', () => {
    const stored = { primaryColor: '#111111', navigation: null };
    const before = JSON.stringify(DEFAULT_PLAYER_SETTINGS);
    const resolved = resolvePlayerSettings(stored);
    resolved.secondaryColor = '#222222';
    expect(JSON.stringify(DEFAULT_PLAYER_SETTINGS)).toBe(before);
    expect(stored).toEqual({ primaryColor: '#111111', navigation: null });
    expect(resolvePlayerSettings({}).secondaryColor).toBe('#2490A8');
  });

  it('ignores keys that are not player settings (spec §3 "Page player settings")', () => {
    const stored = { primaryColor: '#123456', somethingElse: 'x' } as Parameters<
      typeof resolvePlayerSettings
    >[0];
    expect(resolvePlayerSettings(stored)).not.toHaveProperty('somethingElse');
  });
});
