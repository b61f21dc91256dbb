/** Values of the video clip mode (spec §2): a clip plays on to the next playlist item by itself. */
export type ClipMode = 'normal' | 'clip';
export const CLIP_MODES: readonly ClipMode[] = ['normal', 'clip'];

/** Seconds the next-clip countdown runs before the next show starts (spec §2: shown in seconds). */
export const NEXT_CLIP_COUNTDOWN_SECONDS = 5;

/** A playlist of shows (spec §3 "Presentation record and playlist"). */
export interface Playlist {
  items: { eventId: string }[];
  activeItemId: string | null;
  size: number;
}

export function makePlaylist(eventIds: readonly string[], activeItemId?: string | null): Playlist {
  const items = [...new Set(eventIds)].map((eventId) => ({ eventId }));
  const active =
    activeItemId && items.some((item) => item.eventId === activeItemId) ? activeItemId : items[0]?.eventId;
  return { items, activeItemId: active ?? null, size: items.length };
}

/** The item after the active one, or null at the end of the list (playlists do not wrap). */
export function nextPlaylistItem(playlist: Playlist): string | null {
  const index = playlist.items.findIndex((item) => item.eventId === playlist.activeItemId);
  if (index < 0) return playlist.items[0]?.eventId ?? null;
  return playlist.items[index + 1]?.eventId ?? null;
}

export function parseClipMode(value: string | null | undefined): ClipMode {
  return value === 'clip' ? 'clip' : 'normal';
}
