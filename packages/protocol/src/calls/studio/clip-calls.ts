import { z } from 'zod';
import {
  ClipTrimInput,
  ClipVisibilityInput,
  HighlightInput,
  StudioClip,
  StudioClipList,
} from '../../clips.ts';
import { Uid } from '../../common.ts';
import type { CallSchemas } from '../define-call.ts';

const ShowPath = z.object({ pageUid: Uid, showUid: Uid });
const ClipPath = ShowPath.extend({ clipUid: Uid });

/** The schemas of the studio's clip calls (routes in clip-routes.ts). */
export const studioClipCalls = {
  listShowClips: {
    summary:
      "A show's clips: one per presented product (cut from the recording at its chapter when the show ends) and one per highlight.",
    params: ShowPath,
    response: StudioClipList,
  },
  trimShowClip: {
    summary:
      'Trims a clip within its chapter (or highlight window) and cuts it again from the recording; 422 outside the window or shorter than 2 s.',
    params: ClipPath,
    request: ClipTrimInput,
    response: StudioClip,
  },
  setShowClipHidden: {
    summary: 'Hides a clip (its page answers 404, the sitemap and the SDK leave it out) or shows it again.',
    params: ClipPath,
    request: ClipVisibilityInput,
    response: StudioClip,
  },
  markHighlight: {
    summary:
      'Marks this moment of a live show as a highlight: it becomes a clip (the seconds around it) when the show ends; 409 when the show is not live.',
    params: ShowPath,
    request: HighlightInput,
    bodyOptional: true,
    response: StudioClip,
    status: 201,
  },
} satisfies Record<string, CallSchemas>;
