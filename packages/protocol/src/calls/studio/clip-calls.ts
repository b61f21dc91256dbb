import { z } from 'zod';
import {
  ClipTrimInput,
  ClipVisibilityInput,
  HighlightInput,
  StudioClip,
  StudioClipList,
} from '../../clips.ts';
import { Uid } from '../../common.ts';
import { call } from '../define-call.ts';

const ShowPath = z.object({ pageUid: Uid, showUid: Uid });
const ClipPath = ShowPath.extend({ clipUid: Uid });

const CLIPS = '/staff/stores/:pageUid/shows/:showUid/clips';

/**
 * The studio's clip calls: hosts list a show's clips, trim (re-cut) or hide one, and mark a
 * highlight from the control room while the show is live.
 */
export const studioClipCalls = {
  // By path, then method in the order of CALL_METHODS (call-types.ts); api-docs.test.ts checks it.
  listShowClips: call({
    method: 'GET',
    path: CLIPS,
    auth: { staff: 'host' },
    summary:
      "A show's clips: one per presented product (cut from the recording at its chapter when the show ends) and one per highlight.",
    params: ShowPath,
    response: StudioClipList,
  }),
  trimShowClip: call({
    method: 'POST',
    path: `${CLIPS}/:clipUid/trim`,
    auth: { staff: 'host' },
    summary:
      'Trims a clip within its chapter (or highlight window) and cuts it again from the recording; 422 outside the window or shorter than 2 s.',
    params: ClipPath,
    request: ClipTrimInput,
    response: StudioClip,
  }),
  setShowClipHidden: call({
    method: 'POST',
    path: `${CLIPS}/:clipUid/visibility`,
    auth: { staff: 'host' },
    summary: 'Hides a clip (its page answers 404, the sitemap and the SDK leave it out) or shows it again.',
    params: ClipPath,
    request: ClipVisibilityInput,
    response: StudioClip,
  }),
  markHighlight: call({
    method: 'POST',
    path: `${CLIPS}/highlights`,
    auth: { staff: 'host' },
    summary:
      'Marks this moment of a live show as a highlight: it becomes a clip (the seconds around it) when the show ends; 409 when the show is not live.',
    params: ShowPath,
    request: HighlightInput,
    bodyOptional: true,
    response: StudioClip,
    status: 201,
  }),
};
