import { route } from '../player-routes.ts';

const CLIPS = '/staff/stores/:pageUid/shows/:showUid/clips';

/**
 * The studio's clip calls (studio/clip-calls.ts): hosts list a show's clips, trim (re-cut) or
 * hide one, and mark a highlight from the control room while the show is live.
 */
export const CLIP_ROUTES = {
  listShowClips: route({ method: 'GET', path: CLIPS, auth: { staff: 'host' } }),
  trimShowClip: route({ method: 'POST', path: `${CLIPS}/:clipUid/trim`, auth: { staff: 'host' } }),
  setShowClipHidden: route({ method: 'POST', path: `${CLIPS}/:clipUid/visibility`, auth: { staff: 'host' } }),
  markHighlight: route({ method: 'POST', path: `${CLIPS}/highlights`, auth: { staff: 'host' } }),
} as const;
