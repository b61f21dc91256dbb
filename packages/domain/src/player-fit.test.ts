import { describe, expect, it } from 'vitest';
import { MIN_FITTED_PLAYER_HEIGHT, PHONE_LAYOUT_MAX_WIDTH, playerFit } from './player-fit.ts';

const DESKTOP_FRAME = { width: 1280, height: 720 };
const SHORT_HOST = { width: 1280, height: 420 };

describe('playerFit (spec §4 host messaging parent_resize)', () => {
  it('picks the phone layout up to the phone width and the desktop layout beyond it', () => {
    const at = (width: number) =>
      playerFit({ frame: { width, height: 800 }, mode: null, hostViewport: null });
    expect(at(390).layout).toBe('phone');
    expect(at(PHONE_LAYOUT_MAX_WIDTH).layout).toBe('phone');
    expect(at(PHONE_LAYOUT_MAX_WIDTH + 1).layout).toBe('desktop');
  });

  it('leaves a player on its own at the whole window', () => {
    expect(playerFit({ frame: DESKTOP_FRAME, mode: null, hostViewport: null })).toEqual({
      layout: 'desktop',
      maxHeight: null,
    });
  });

  it('shrinks an inline or fillParent player that is taller than the host window to fit it', () => {
    for (const mode of ['inline', 'fillParent'] as const) {
      expect(playerFit({ frame: DESKTOP_FRAME, mode, hostViewport: SHORT_HOST }), mode).toEqual({
        layout: 'desktop',
        maxHeight: 420,
      });
    }
  });

  it('ignores the host window for a modal player, which covers it', () => {
    expect(playerFit({ frame: DESKTOP_FRAME, mode: 'modal', hostViewport: SHORT_HOST }).maxHeight).toBeNull();
  });

  it('keeps the whole frame when it fits the host window or before the host has told its size', () => {
    const tallHost = { width: 1280, height: 900 };
    expect(playerFit({ frame: DESKTOP_FRAME, mode: 'inline', hostViewport: tallHost }).maxHeight).toBeNull();
    expect(playerFit({ frame: DESKTOP_FRAME, mode: 'inline', hostViewport: null }).maxHeight).toBeNull();
    const hidden = { width: 0, height: 0 };
    expect(playerFit({ frame: DESKTOP_FRAME, mode: 'inline', hostViewport: hidden }).maxHeight).toBeNull();
  });

  it('does not shrink below the smallest usable player height', () => {
    const tinyHost = { width: 1280, height: 200 };
    expect(playerFit({ frame: DESKTOP_FRAME, mode: 'inline', hostViewport: tinyHost }).maxHeight).toBe(
      MIN_FITTED_PLAYER_HEIGHT,
    );
    const shortFrame = { width: 1280, height: MIN_FITTED_PLAYER_HEIGHT };
    expect(playerFit({ frame: shortFrame, mode: 'inline', hostViewport: tinyHost }).maxHeight).toBeNull();
  });

  it('keeps the layout of the frame width whatever the host window (the frame is what is laid out)', () => {
    const phoneFrame = { width: 390, height: 844 };
    expect(
      playerFit({ frame: phoneFrame, mode: 'fillParent', hostViewport: { width: 390, height: 600 } }),
    ).toEqual({ layout: 'phone', maxHeight: 600 });
  });
});
