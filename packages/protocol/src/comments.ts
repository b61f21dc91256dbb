import { z } from 'zod';
import { Uid, WidgetContext } from './common.ts';
import { COMMENT_MAX_LENGTH } from './interaction-values.ts';

export { COMMENT_MAX_LENGTH };

/** `/shopapiv2/comment/playerComment` (spec §7): a viewer's comment in the show's chat. */
export const PlayerCommentRequest = z
  .object({
    text: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(COMMENT_MAX_LENGTH, `must be at most ${COMMENT_MAX_LENGTH} characters`),
    threadId: z.string().min(1).max(128).nullable().default(null),
    pageUid: Uid,
    campaignUid: Uid,
    context: WidgetContext.default('checkout'),
    /**
     * A private question to the host (issue 27): only its author and the store's staff read it,
     * and it waits in the control room's questions. Signed-in shoppers only (not anonymous), and
     * never an answer in a thread.
     */
    toHost: z.boolean().optional(),
  })
  .strict();
export type PlayerCommentRequest = z.infer<typeof PlayerCommentRequest>;
