import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Queryable } from '../../db/database.ts';
import { sharedSecret } from '../../db/server-secrets.ts';

/** The server_secrets row holding the key restream stream keys are sealed with (32 random bytes). */
export const RESTREAM_SEAL_SECRET = 'restream-stream-key-seal';
const SEAL_VERSION = 'v1';

/**
 * Seals destination stream keys at rest with AES-256-GCM under a key every node shares
 * (server_secrets): a dump of restream_destinations, a log line or a backup of that table alone
 * gives no key. The destination's id is bound in as associated data, so a sealed key copied
 * onto another destination does not open.
 */
export function createStreamKeySeal(db: Queryable) {
  let key: Promise<Buffer> | null = null;
  const sealKey = () => {
    key ??= sharedSecret(db, RESTREAM_SEAL_SECRET, 32).then((secret) => {
      if (secret?.length !== 32) throw new Error(`server_secrets.${RESTREAM_SEAL_SECRET} is missing`);
      return secret;
    });
    // A failed read is tried again next time rather than remembered.
    key.catch(() => {
      key = null;
    });
    return key;
  };
  return {
    async seal(streamKey: string, destinationId: string): Promise<string> {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', await sealKey(), iv);
      cipher.setAAD(Buffer.from(destinationId));
      const sealed = Buffer.concat([cipher.update(streamKey, 'utf8'), cipher.final()]);
      return [SEAL_VERSION, iv, cipher.getAuthTag(), sealed]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },

    /** The key sealed for `destinationId`; throws when it was tampered with or sealed for another. */
    async open(sealed: string, destinationId: string): Promise<string> {
      const [version, iv = '', tag = '', body = ''] = sealed.split('.');
      if (version !== SEAL_VERSION) throw new Error(`unknown stream key seal ${version}`);
      const decipher = createDecipheriv('aes-256-gcm', await sealKey(), Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(destinationId));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}

export type StreamKeySeal = ReturnType<typeof createStreamKeySeal>;
