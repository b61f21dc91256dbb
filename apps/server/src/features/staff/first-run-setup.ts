import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { storeIdFromName } from '@vitrine/domain';
import { type AuthSession, type CompleteSetupRequest, PageInput } from '@vitrine/protocol';
import type { Database, Queryable } from '../../db/database.ts';
import { HttpError } from '../../http/errors.ts';
import { enforceRateLimit } from '../../http/rate-limit.ts';
import type { UserDirectory } from '../users/user-directory.ts';
import type { StaffService } from './staff-service.ts';

/** How long a setup token printed at start works: a first run may be finished the next day. */
export const SETUP_TOKEN_TTL_MS = 7 * 24 * 60 * 60_000;
/** Setup attempts per client address: the token is 256 bits, but each attempt hashes a password. */
export const SETUP_ATTEMPTS_PER_ADDRESS = { max: 10, windowMs: 10 * 60_000 };

export const SETUP_TOKEN_NOT_VALID_MESSAGE =
  "This setup link is not valid: it was used or has expired. Restart the server (or run `npm run studio:link`) for a new one, and copy the whole link from the server's log.";

const hashToken = (token: string) => createHash('sha256').update(token).digest();

/** Where the setup link leads: the site root's setup page, the token in the fragment. */
export const setupLinkUrl = (origin: string, token: string) => `${origin}/setup#${token}`;

/**
 * A new one-time setup token (kept as its SHA-256), for the server's start-up report and for a
 * CLI that prints the setup link of a running server (`npm run studio:link`). Any unspent token
 * works until one is used; issuing one leaves the others working.
 */
export async function issueSetupToken(db: Queryable, now: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.query('INSERT INTO setup_tokens (token_hash, created_at, expires_at) VALUES ($1, $2, $3)', [
    hashToken(token).toString('base64url'),
    now,
    now + SETUP_TOKEN_TTL_MS,
  ]);
  return token;
}

/**
 * First run of a real store (issue 28 item 2): while the database holds no store, `/` shows the
 * setup page, which makes the first store and its owner (with a password) from the browser,
 * given a setup token of the server's log, and signs the owner in.
 */
export function createFirstRunSetup(deps: {
  db: Database;
  stores: {
    pageCount(): Promise<number>;
    upsertPage(pageUid: string, input: PageInput): Promise<void>;
  };
  users: Pick<UserDirectory, 'uidByEmail' | 'createAccount'>;
  staff: Pick<StaffService, 'addMember'>;
  accounts: {
    hashNewPassword(password: string, clientAddress: string): Promise<string>;
    savePasswordHash(q: Queryable, userUid: string, passwordHash: string): Promise<void>;
  };
  sessions: { sessionForUser(userUid: string): Promise<AuthSession> };
  now: () => number;
}) {
  const { db, now } = deps;
  const alreadySetUp = () =>
    new HttpError(409, 'already_set_up', 'This server has a store already: sign in to the studio instead.');

  /**
   * Spends every open token when `token` is one of them, compared in constant time. All go at
   * once, in one statement, so a second setup racing this one finds none left.
   */
  async function spendTokens(q: Queryable, token: string): Promise<boolean> {
    const rows = await q.query<{ token_hash: string }>(
      'UPDATE setup_tokens SET used_at = $1 WHERE used_at IS NULL AND expires_at > $1 RETURNING token_hash',
      [now()],
    );
    const given = hashToken(token);
    let matched = false;
    for (const row of rows) {
      const stored = Buffer.from(row.token_hash, 'base64url');
      if (stored.length === given.length && timingSafeEqual(stored, given)) matched = true;
    }
    return matched;
  }

  return {
    async status(): Promise<{ needed: boolean }> {
      return { needed: (await deps.stores.pageCount()) === 0 };
    },

    async complete(
      input: CompleteSetupRequest,
      clientAddress: string,
    ): Promise<{ pageUid: string; session: AuthSession }> {
      await enforceRateLimit(
        db,
        `setup:${clientAddress}`,
        SETUP_ATTEMPTS_PER_ADDRESS,
        now(),
        (seconds) => `Too many setup attempts. Try again in ${seconds} seconds.`,
      );
      if ((await deps.stores.pageCount()) > 0) throw alreadySetUp();
      if ((await deps.users.uidByEmail(input.email)) !== null)
        throw new HttpError(409, 'email_in_use', 'An account with this e-mail address exists already.');
      // Hashed before the token is spent: a refused (common) password leaves the token working.
      const passwordHash = await deps.accounts.hashNewPassword(input.password, clientAddress);
      const ownerUid = await db.transaction(async (tx) => {
        if (!(await spendTokens(tx, input.token)))
          throw new HttpError(401, 'setup_token_not_valid', SETUP_TOKEN_NOT_VALID_MESSAGE);
        const uid = await deps.users.createAccount(tx, { name: input.ownerName, email: input.email });
        await deps.accounts.savePasswordHash(tx, uid, passwordHash);
        return uid;
      });
      const pageUid = input.storeId ?? storeIdFromName(input.storeName);
      // A store made meanwhile by another way in (the CLI) is kept: this owner joins no one's store.
      if ((await deps.stores.pageCount()) > 0) throw alreadySetUp();
      await deps.stores.upsertPage(
        pageUid,
        PageInput.parse({
          name: input.storeName,
          language: input.language,
          address: {
            name: input.storeName,
            street: '',
            postCode: '',
            city: '',
            email: input.email,
            phone: '',
          },
        }),
      );
      await deps.staff.addMember(pageUid, ownerUid, 'owner');
      return { pageUid, session: await deps.sessions.sessionForUser(ownerUid) };
    },
  };
}

export type FirstRunSetup = ReturnType<typeof createFirstRunSetup>;
