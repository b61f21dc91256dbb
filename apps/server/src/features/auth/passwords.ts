import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';
import { dictionary } from '@zxcvbn-ts/language-common';
import { HttpError } from '../../http/errors.ts';

/**
 * Password hashing with scrypt at the OWASP Password Storage Cheat Sheet's parameters
 * (N=2^17, r=8, p=1: 128 MiB and a few hundred milliseconds per hash). The parameters are
 * stored with each hash ("scrypt$N$r$p$salt$key"), so they can be raised without a migration.
 */
export const SCRYPT_PARAMS = { N: 2 ** 17, r: 8, p: 1 } as const;
const KEY_BYTES = 32;
const SALT_BYTES = 16;
/** scrypt needs 128·N·r bytes; Node's default cap (32 MiB) is below that, so allow twice it. */
const maxmemFor = (N: number, r: number) => 2 * 128 * N * r;

/**
 * At most this many hashes run at once: each holds 128 MiB, and a burst of sign-ins must not
 * exhaust the server's memory. Others wait their turn.
 */
export const MAX_CONCURRENT_HASHES = 2;
/**
 * At most this many hashes wait for a slot (a few hundred ms each, two at a time: about 1.5 s
 * of waiting at most). More are turned away at once (503) instead of queueing every real
 * sign-in behind a flood's seconds of hashing.
 */
export const MAX_WAITING_HASHES = 8;
/**
 * Hashes one client address may have running or waiting at once (when the caller names the
 * client): a flood from one address holds two places, never the whole queue.
 */
export const MAX_HASHES_PER_CLIENT = 2;

export const HASHING_BUSY_MESSAGE =
  'Too many sign-ins are being checked right now. Please try again in a few seconds.';

/** A 503 `server_busy`: the password hashing queue is full (or the client's share of it). */
export class HashingBusyError extends HttpError {
  constructor() {
    super(503, 'server_busy', HASHING_BUSY_MESSAGE);
  }
}

let running = 0;
const waiting: Array<() => void> = [];
const perClient = new Map<string, number>();

/** `client`: the address the work is for, held to MAX_HASHES_PER_CLIENT; none: not counted per client. */
async function withHashSlot<T>(work: () => Promise<T>, client?: string): Promise<T> {
  const clientHashes = client === undefined ? 0 : (perClient.get(client) ?? 0);
  if (clientHashes >= MAX_HASHES_PER_CLIENT) throw new HashingBusyError();
  if (running >= MAX_CONCURRENT_HASHES && waiting.length >= MAX_WAITING_HASHES) throw new HashingBusyError();
  if (client !== undefined) perClient.set(client, clientHashes + 1);
  try {
    if (running >= MAX_CONCURRENT_HASHES) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await work();
    } finally {
      running--;
      waiting.shift()?.();
    }
  } finally {
    if (client !== undefined) {
      const left = (perClient.get(client) ?? 1) - 1;
      if (left > 0) perClient.set(client, left);
      else perClient.delete(client);
    }
  }
}

function derive(
  password: string,
  salt: Buffer,
  params: { N: number; r: number; p: number },
  client?: string,
): Promise<Buffer> {
  const { N, r, p } = params;
  const options: ScryptOptions = { N, r, p, maxmem: maxmemFor(N, r) };
  return withHashSlot(
    () =>
      new Promise((resolve, reject) =>
        scrypt(password.normalize('NFC'), salt, KEY_BYTES, options, (error, key) =>
          error ? reject(error) : resolve(key),
        ),
      ),
    client,
  );
}

/** `client`: the client address to hold to its share of the hashing queue (see MAX_HASHES_PER_CLIENT). */
export async function hashPassword(password: string, client?: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const { N, r, p } = SCRYPT_PARAMS;
  const key = await derive(password, salt, SCRYPT_PARAMS, client);
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Whether `password` matches `stored`; the comparison takes the same time wherever they differ. */
export async function verifyPassword(password: string, stored: string, client?: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  const actual = await derive(password, Buffer.from(salt, 'base64url'), params, client);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * The ~49,000 most common passwords (lower case), from @zxcvbn-ts/language-common: the
 * zxcvbn project's list, drawn from real password leaks. A password on it falls to the first
 * minutes of any guessing attack, whatever its length.
 */
const COMMON_PASSWORDS: ReadonlySet<string> = new Set(dictionary['passwords-common']);

export const COMMON_PASSWORD_MESSAGE =
  'This password is one of the most commonly used ones and easy to guess; choose another.';

/**
 * Refuses a password on the common-passwords list (400 `weak_password`). Too-short passwords
 * are refused before this by the request schema (PASSWORD_MIN_LENGTH, 8 characters).
 */
export function assertPasswordNotCommon(password: string): void {
  if (COMMON_PASSWORDS.has(password.normalize('NFC').toLowerCase())) {
    throw new HttpError(400, 'weak_password', COMMON_PASSWORD_MESSAGE);
  }
}

/**
 * A hash of a random password: verified against when the e-mail is unknown, so a wrong e-mail
 * takes as long as a wrong password and sign-in does not reveal which addresses have accounts.
 */
let decoyHash: Promise<string> | undefined;
export function decoyPasswordHash(): Promise<string> {
  decoyHash ??= hashPassword(randomBytes(16).toString('base64url'));
  return decoyHash;
}
