import { makePlaylist, type Playlist } from './playlist.ts';

/**
 * The playlist a host page asks for with playlist_update: only the shows the player can play are
 * taken from it, in the host's order; unknown event ids are ignored (spec §5 "Unexpected … data
 * from the host is ignored"), and an update naming none of them is ignored (null). The active
 * item falls back to the first when the host's is not among them.
 */
export function playlistFromHost(
  playableEventIds: readonly string[],
  update: { items: readonly { eventId: string }[]; activeItemId: string | null },
): Playlist | null {
  const playable = new Set(playableEventIds);
  const ids = update.items.map((item) => item.eventId).filter((id) => playable.has(id));
  return ids.length === 0 ? null : makePlaylist(ids, update.activeItemId);
}
