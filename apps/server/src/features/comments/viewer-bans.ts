import { ADDRESS_BAN_MS } from '@vitrine/domain';
import { VIEWER_ID_HEADER, ViewerId } from '@vitrine/protocol';
import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../../db/database.ts';
import type { AddressHasher } from '../../http/address-hash.ts';
import { HttpError } from '../../http/errors.ts';
import { BANNED_FROM_CHAT } from './comment-service.ts';
import { chatModerationSettings } from './moderation-records.ts';

/** What a ban covers beside the account: the player's viewer id, and a keyed hash of the address. */
export interface ViewerOrigin {
  device: string | null;
  addressHash: string;
}

export const BANNED_FROM_TAKING_PART =
  "You can't take part: the store's moderators have banned you from its chat.";

/**
 * Copies the devices (and, when the store bans by address, the addresses) `userUid` was seen
 * with into the store's ban marks: called in the ban's transaction, after its chat_bans row.
 */
export async function coverViewerMarks(
  q: Queryable,
  pageUid: string,
  userUid: string,
  now: number,
): Promise<void> {
  const { banByAddress } = await chatModerationSettings(q, pageUid);
  await q.query(
    `INSERT INTO chat_ban_marks (page_uid, user_uid, kind, mark, banned_at)
     SELECT page_uid, user_uid, kind, mark, $3 FROM chat_viewer_marks
     WHERE page_uid = $1 AND user_uid = $2 AND (kind = 'device' OR ($4 AND kind = 'address'))
     ON CONFLICT (page_uid, kind, mark, user_uid) DO UPDATE SET banned_at = EXCLUDED.banned_at`,
    [pageUid, userUid, now, banByAddress],
  );
}

/**
 * Bans that hold (issue 33 §4): a viewer banned from a store's chat who comes back with a new
 * anonymous account from the same browser (the same viewer id) is still banned, and from the
 * same address too when the store bans by address (for ADDRESS_BAN_MS). Comments, reactions and
 * competition entries go through `requireNotBanned`, which also notes where each viewer takes
 * part from, so that a later ban can cover it.
 */
export function createViewerBans(deps: {
  db: Queryable;
  now: () => number;
  hashAddress: AddressHasher;
  /** Whether the store exists (the stores feature's): marks are noted only for real stores. */
  storeExists: (pageUid: string) => Promise<boolean>;
}) {
  const { db, now, hashAddress } = deps;

  async function originOf(request: FastifyRequest): Promise<ViewerOrigin> {
    const header = request.headers[VIEWER_ID_HEADER];
    const device = ViewerId.safeParse(Array.isArray(header) ? header[0] : header);
    return { device: device.success ? device.data : null, addressHash: await hashAddress(request.ip) };
  }

  /** Whether the account, its device, or (by the store's choice) its address is banned. */
  async function isBanned(pageUid: string, userUid: string, origin: ViewerOrigin, banByAddress: boolean) {
    const rows = await db.query(
      `SELECT 1 FROM chat_bans WHERE page_uid = $1 AND user_uid = $2
       UNION ALL
       SELECT 1 FROM chat_ban_marks WHERE page_uid = $1
         AND ((kind = 'device' AND mark = $3) OR ($4 AND kind = 'address' AND mark = $5 AND banned_at > $6))
       LIMIT 1`,
      [pageUid, userUid, origin.device, banByAddress, origin.addressHash, now() - ADDRESS_BAN_MS],
    );
    return rows.length > 0;
  }

  /** Notes where the viewer takes part from (the address only when the store bans by address). */
  async function note(pageUid: string, userUid: string, origin: ViewerOrigin, banByAddress: boolean) {
    const marks: Array<[string, string]> = [];
    if (origin.device) marks.push(['device', origin.device]);
    if (banByAddress) marks.push(['address', origin.addressHash]);
    // Only for a store that exists (the call itself answers a 404 for one that does not).
    if (marks.length === 0 || !(await deps.storeExists(pageUid))) return;
    for (const [kind, mark] of marks)
      await db.query(
        `INSERT INTO chat_viewer_marks (page_uid, user_uid, kind, mark, seen_at)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (page_uid, user_uid, kind, mark) DO UPDATE SET seen_at = EXCLUDED.seen_at`,
        [pageUid, userUid, kind, mark, now()],
      );
  }

  return {
    /**
     * A 403 `banned` when the viewer may not take part in the store's chat, reactions or
     * competitions; otherwise notes where they take part from. `what` picks the message.
     */
    async requireNotBanned(
      request: FastifyRequest,
      pageUid: string,
      userUid: string,
      what: 'comment' | 'takePart',
    ): Promise<void> {
      const origin = await originOf(request);
      const { banByAddress } = await chatModerationSettings(db, pageUid);
      await note(pageUid, userUid, origin, banByAddress);
      if (await isBanned(pageUid, userUid, origin, banByAddress))
        throw new HttpError(403, 'banned', what === 'comment' ? BANNED_FROM_CHAT : BANNED_FROM_TAKING_PART);
    },
  };
}

export type ViewerBans = ReturnType<typeof createViewerBans>;
