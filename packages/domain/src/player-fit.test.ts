import { describe, expect, it } from 'vitest';
import {
  coverCrop,
  isLandscape,
  MAX_COVER_CROP,
  MIN_FITTED_PLAYER_HEIGHT,
  PHONE_LAYOUT_MAX_WIDTH,
  playerFit,
  videoFill,
} from './player-fit.ts';

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

describe('videoFill (issue 27 §4: a landscape show on a phone)', () => {
  const phone = { width: 390, height: 844 };
  const landscape = { width: 1280, height: 720 };
  const vertical = { width: 720, height: 1280 };

  it('fills a phone edge to edge with a vertical show, cutting off less than a fifth', () => {
    expect(coverCrop(vertical, phone)).toBeCloseTo(1 - 390 / 844 / (720 / 1280), 5);
    expect(coverCrop(vertical, phone)).toBeLessThan(0.2);
    expect(videoFill(vertical, phone)).toBe('cover');
  });

  it('letterboxes a landscape show on a phone instead of cutting off three quarters of it', () => {
    expect(coverCrop(landscape, phone)).toBeGreaterThan(0.7);
    expect(videoFill(landscape, phone)).toBe('contain');
    // A square show would lose more than MAX_COVER_CROP on a tall phone too.
    expect(videoFill({ width: 1080, height: 1080 }, phone)).toBe('contain');
  });

  it('fills when the crop is exactly the most allowed, and letterboxes just beyond it', () => {
    const box = { width: 300, height: 400 };
    // 300/400 against 1/1: a quarter of the picture cut off.
    expect(coverCrop({ width: 400, height: 400 }, box)).toBeCloseTo(MAX_COVER_CROP, 10);
    expect(videoFill({ width: 400, height: 400 }, box)).toBe('cover');
    expect(videoFill({ width: 401, height: 400 }, box)).toBe('contain');
  });

  it('takes an unknown or empty video as vertical and never divides by zero', () => {
    expect(videoFill(null, phone)).toBe('cover');
    expect(coverCrop({ width: 0, height: 0 }, phone)).toBe(0);
    expect(coverCrop(landscape, { width: 0, height: 0 })).toBe(0);
  });

  it('knows a landscape video from a vertical or unknown one', () => {
    expect(isLandscape(landscape)).toBe(true);
    expect(isLandscape(vertical)).toBe(false);
    expect(isLandscape({ width: 720, height: 720 })).toBe(false);
    expect(isLandscape(null)).toBe(false);
  });
});
