import { z } from 'zod';
import { Uid } from './common.ts';

/**
 * How many people watch one show now, across every server node, and the most that watched it at
 * once: what the `viewerCount` live query delivers (docId: the event id). A viewer is a realtime
 * connection following the show's products (`liveEventProducts`), which every player opens.
 */
export const ViewerCountDoc = z.object({
  eventId: Uid,
  viewers: z.number().int().nonnegative(),
  peak: z.number().int().nonnegative(),
});
export type ViewerCountDoc = z.infer<typeof ViewerCountDoc>;
