import { ClipRequest, ProductClipAnswer, ProductClipRequest, PublicClip } from '../clips.ts';
import { call } from './define-call.ts';

/** The public clip calls (issue 32 item 4): a clip's page and the SDK's "Seen live" player. */
export const clipCalls = {
  // By path, then method in the order of CALL_METHODS (call-types.ts); api-docs.test.ts checks it.
  productClip: call({
    method: 'POST',
    path: '/functions/clips/forProduct',
    auth: 'anonymous',
    summary:
      "The newest visible clip of a product named by the retailer's SKU or external id (the SDK's seenLive option), or null.",
    request: ProductClipRequest,
    response: ProductClipAnswer,
  }),
  getClip: call({
    method: 'POST',
    path: '/functions/clips/get',
    auth: 'anonymous',
    summary:
      'A visible clip of a show (cut from its recording at a product chapter or a highlight), with the product it sells; 404 for a hidden, uncut or unknown one.',
    request: ClipRequest,
    response: PublicClip,
  }),
};
