import { describe, expect, it } from 'vitest';
import { playlistFromHost } from './host-playlist.ts';

describe('playlistFromHost', () => {
  it('takes the host’s order and active item among the playable shows', () => {
    expect(
      playlistFromHost(['a', 'b', 'c'], { items: [{ eventId: 'c' }, { eventId: 'a' }], activeItemId: 'a' }),
    ).toEqual({ items: [{ eventId: 'c' }, { eventId: 'a' }], activeItemId: 'a', size: 2 });
  });

  it('ignores unknown event ids, and an unknown active item (spec §5)', () => {
    expect(
      playlistFromHost(['a', 'b'], { items: [{ eventId: 'x' }, { eventId: 'b' }], activeItemId: 'x' }),
    ).toEqual({ items: [{ eventId: 'b' }], activeItemId: 'b', size: 1 });
  });

  it('ignores an update that names none of the playable shows', () => {
    expect(playlistFromHost(['a'], { items: [{ eventId: 'x' }], activeItemId: null })).toBeNull();
    expect(playlistFromHost(['a'], { items: [], activeItemId: null })).toBeNull();
  });
});
