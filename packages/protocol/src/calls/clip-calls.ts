import { ClipRequest, ProductClipAnswer, ProductClipRequest, PublicClip } from '../clips.ts';
import type { CallSchemas } from './define-call.ts';

/** The public clip calls (issue 32 item 4): a clip's page and the SDK's "Seen live" player. */
export const clipCalls = {
  getClip: {
    summary:
      'A visible clip of a show (cut from its recording at a product chapter or a highlight), with the product it sells; 404 for a hidden, uncut or unknown one.',
    request: ClipRequest,
    response: PublicClip,
  },
  productClip: {
    summary:
      "The newest visible clip of a product named by the retailer's SKU or external id (the SDK's seenLive option), or null.",
    request: ProductClipRequest,
    response: ProductClipAnswer,
  },
} satisfies Record<string, CallSchemas>;
