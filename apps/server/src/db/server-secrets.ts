import { randomBytes } from 'node:crypto';
import type { Queryable } from './database.ts';

/**
 * A secret every server node on the database shares (the id-token signing key, the test payment
 * provider's webhook secret), from the server_secrets table: whichever node asks first stores a
 * random one of `bytes` bytes, and every node reads that one. Null only when the row is missing
 * after the insert (it was deleted meanwhile).
 */
export async function sharedSecret(db: Queryable, name: string, bytes: number): Promise<Buffer | null> {
  // Whichever node inserts first wins; the others' inserts do nothing and all read its secret.
  await db.query('INSERT INTO server_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
    name,
    randomBytes(bytes).toString('base64url'),
  ]);
  const [row] = await db.query<{ value: string }>('SELECT value FROM server_secrets WHERE name = $1', [name]);
  return row ? Buffer.from(row.value, 'base64url') : null;
}
