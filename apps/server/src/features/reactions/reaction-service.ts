import { randomBytes } from 'node:crypto';
import { REACTION_THROTTLE_MS } from '@vitrine/domain';
import type { CreateReactionRequest, CreateReactionResponse, ReactionDoc } from '@vitrine/protocol';
import { notFound } from '../../http/errors.ts';
import { enforceRateLimit } from '../../http/rate-limit.ts';
import type { OutboxDatabase } from '../../realtime/outbox.ts';
import type { EventService } from '../events/event-service.ts';
import { reactionTopic } from './live-queries.ts';

/** Reactions are published at most once per tick per show. */
export const REACTION_TICK_MS = 250;
export const REACTION_THROTTLE_MESSAGE = 'One reaction every 2 seconds, please.';

interface PendingReaction {
  uid: string;
  pageUid: string;
  campaignUid: string;
  type: string;
  source: string;
  time: number;
}

/**
 * Reactions (spec §3, §7): one per viewer per 2 s (the limit is kept in the database, so it holds
 * across server nodes). They are published per tick: in a quiet tick each reaction travels as it
 * is; when a show gets more than one reaction of a type in a tick, one doc per type carries the
 * count, so a burst of thousands costs viewers a handful of messages.
 */
export function createReactionService(
  db: OutboxDatabase,
  now: () => number,
  /** The campaigns reactions belong to. */
  events: Pick<EventService, 'campaignExists'>,
) {
  const pending = new Map<string, PendingReaction[]>();
  let timer: ReturnType<typeof setTimeout> | undefined;

  async function flush() {
    timer = undefined;
    const batches = [...pending.entries()];
    pending.clear();
    if (batches.length === 0) return;
    // Each reaction's row committed when it was created; this transaction writes nothing and only
    // hands the tick's summary to the outbox, after those commits.
    await db.transaction(async (tx) => {
      for (const [topic, reactions] of batches) {
        const byType = new Map<string, PendingReaction[]>();
        for (const reaction of reactions)
          byType.set(reaction.type, [...(byType.get(reaction.type) ?? []), reaction]);
        const changes = [...byType.values()].map((group) => {
          const last = group[group.length - 1] as PendingReaction;
          const doc: ReactionDoc = {
            uid: last.uid,
            source: last.source,
            time: last.time,
            type: last.type,
            pageUid: last.pageUid,
            campaignUid: last.campaignUid,
            ...(group.length > 1 ? { count: group.length } : {}),
          };
          return { type: 'added' as const, docId: doc.uid, doc };
        });
        tx.publish(topic, changes);
      }
    });
  }

  function schedule(reaction: PendingReaction) {
    const topic = reactionTopic(reaction.pageUid, reaction.campaignUid);
    const list = pending.get(topic);
    if (list) list.push(reaction);
    else pending.set(topic, [reaction]);
    // A tick that finds the database gone (the server is stopping) is dropped, as a failed publish was.
    timer ??= setTimeout(() => void flush().catch(() => undefined), REACTION_TICK_MS);
    timer.unref?.();
  }

  return {
    async createReaction(userUid: string, input: CreateReactionRequest): Promise<CreateReactionResponse> {
      await enforceRateLimit(
        db,
        `reaction:${userUid}`,
        { max: 1, windowMs: REACTION_THROTTLE_MS },
        now(),
        () => REACTION_THROTTLE_MESSAGE,
      );
      const uid = input.uid ?? randomBytes(12).toString('base64url');
      const time = now();
      if (!(await events.campaignExists(input.pageUid, input.campaignUid)))
        throw notFound(`No campaign "${input.campaignUid}" in store "${input.pageUid}".`);
      const rows = await db.query(
        `INSERT INTO reactions (uid, page_uid, campaign_uid, user_uid, source, type, time)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (uid) DO NOTHING RETURNING uid`,
        [uid, input.pageUid, input.campaignUid, userUid, input.source, input.type, time],
      );
      if (rows.length === 0) {
        // A client uid seen before: a retry of a reaction already counted.
        return { uid, type: input.type, time };
      }
      schedule({
        uid,
        pageUid: input.pageUid,
        campaignUid: input.campaignUid,
        type: input.type,
        source: input.source,
        time,
      });
      return { uid, type: input.type, time };
    },

    /** Publishes what is pending now (server shutdown, tests). */
    async flush() {
      clearTimeout(timer);
      await flush();
    },
  };
}

export type ReactionService = ReturnType<typeof createReactionService>;
