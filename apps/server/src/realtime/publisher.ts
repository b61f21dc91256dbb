import type { LiveChange } from '@vitrine/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { ChangeBus } from './change-bus.ts';

/** Announces committed changes to live queries. */
export type Publish = (topic: string, changes: LiveChange[]) => Promise<void>;

/**
 * Publishes on the bus after a write has committed. A failed publish does not undo or fail the
 * write: it is logged, and viewers catch up from a snapshot when they resubscribe.
 */
export function createPublisher(bus: ChangeBus, log: FastifyBaseLogger): Publish {
  return async (topic, changes) => {
    if (changes.length === 0) return;
    try {
      await bus.publish(topic, changes);
    } catch (error) {
      log.error({ err: error, topic }, 'publishing changes failed');
    }
  };
}
