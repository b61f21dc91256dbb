import { createHmac } from 'node:crypto';
import type { Queryable } from '../db/database.ts';
import { sharedSecret } from '../db/server-secrets.ts';

/** The server_secrets row of the key that hashes client addresses. */
export const ADDRESS_HASH_SECRET = 'address_hash_key';

/**
 * A client address as the server may keep it: a keyed hash (HMAC-SHA-256 with a secret of
 * server_secrets), never the address. The tracking rule says no IP address is stored. A plain
 * hash would not keep that promise: there are only 2^32 IPv4 addresses, so anyone with the table
 * could hash them all in minutes and read every address back. Without the key (a copied table,
 * a log, a backup of one feature's rows) the hash says nothing; with it, the server can still
 * tell the same address again (bans by address, per-address limits).
 */
export function createAddressHasher(db: Queryable) {
  let key: Promise<Buffer> | null = null;
  const loadKey = () => {
    key ??= sharedSecret(db, ADDRESS_HASH_SECRET, 32).then(
      (secret) => {
        if (!secret) throw new Error(`server_secrets.${ADDRESS_HASH_SECRET} is missing`);
        return secret;
      },
      (error: unknown) => {
        // A failed read is retried by the next request rather than kept.
        key = null;
        throw error;
      },
    );
    return key;
  };
  return async (address: string): Promise<string> =>
    createHmac('sha256', await loadKey())
      .update(address)
      .digest('base64url')
      .slice(0, 22);
}

export type AddressHasher = ReturnType<typeof createAddressHasher>;
