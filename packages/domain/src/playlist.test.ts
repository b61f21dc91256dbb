import { describe, expect, it } from 'vitest';
import { makePlaylist, nextPlaylistItem, parseClipMode } from './playlist.ts';

describe('playlists (spec §3 "Playlist: items (each with eventId), activeItemId, size")', () => {
  it('builds items with eventIds, the size, and the first item active by default', () => {
    expect(makePlaylist(['a', 'b', 'a', 'c'])).toEqual({
      items: [{ eventId: 'a' }, { eventId: 'b' }, { eventId: 'c' }],
      activeItemId: 'a',
      size: 3,
    });
    expect(makePlaylist(['a', 'b'], 'b').activeItemId).toBe('b');
    expect(makePlaylist(['a', 'b'], 'zzz').activeItemId).toBe('a');
    expect(makePlaylist([])).toEqual({ items: [], activeItemId: null, size: 0 });
  });

  it('moves to the next item and stops at the end', () => {
    expect(nextPlaylistItem(makePlaylist(['a', 'b', 'c'], 'a'))).toBe('b');
    expect(nextPlaylistItem(makePlaylist(['a', 'b', 'c'], 'c'))).toBeNull();
    expect(nextPlaylistItem({ items: [{ eventId: 'a' }], activeItemId: null, size: 1 })).toBe('a');
  });
});

describe('clip mode (spec §2 "The video clip mode values are normal and clip")', () => {
  it('is clip only when asked for, normal otherwise', () => {
    expect(parseClipMode('clip')).toBe('clip');
    expect(parseClipMode('normal')).toBe('normal');
    expect(parseClipMode(null)).toBe('normal');
    expect(parseClipMode('CLIP')).toBe('normal');
  });
});
