import { createHmac, randomBytes } from 'node:crypto';
import { TOKEN_REFRESH_INTERVAL_MS } from '@vitrine/domain';
import { describe, expect, it } from 'vitest';
import {
  ID_TOKEN_REFRESH_MARGIN_MS,
  ID_TOKEN_TTL_MS,
  InvalidTokenError,
  type InvalidTokenReason,
  MAX_CLOCK_SKEW_MS,
  signIdToken,
  verifyIdToken,
} from './id-token.ts';

const KEY = randomBytes(32);
const NOW = Date.UTC(2025, 0, 15, 12, 0, 0);
const SUBJECT = { sub: 'user_abc-123', anon: true };

const b64 = (value: unknown) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
const hs256 = (key: Buffer, input: string) => createHmac('sha256', key).update(input).digest('base64url');

/** A token built by hand, so tests can sign any header and claims with any key. */
function craft(header: unknown, claims: unknown, key: Buffer = KEY): string {
  const input = `${b64(header)}.${b64(claims)}`;
  return `${input}.${hs256(key, input)}`;
}

function validClaims(overrides: Record<string, unknown> = {}) {
  const iat = Math.floor(NOW / 1000);
  return {
    iss: 'vitrine',
    aud: 'vitrine-viewer',
    sub: SUBJECT.sub,
    anon: true,
    iat,
    exp: iat + 3600,
    ...overrides,
  };
}

function reasonOf(token: string, nowMs = NOW, key: Buffer = KEY): InvalidTokenReason {
  try {
    verifyIdToken(token, key, { nowMs });
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidTokenError);
    return (error as InvalidTokenError).reason;
  }
  throw new Error('the token was accepted');
}

describe('id token constants', () => {
  it('outlive the client refresh interval by a whole interval', () => {
    expect(ID_TOKEN_TTL_MS).toBeGreaterThanOrEqual(2 * TOKEN_REFRESH_INTERVAL_MS);
    expect(ID_TOKEN_REFRESH_MARGIN_MS).toBeGreaterThanOrEqual(TOKEN_REFRESH_INTERVAL_MS);
  });
});

describe('signIdToken / verifyIdToken', () => {
  it('round-trips the claims of a standard HS256 JWT', () => {
    const { token, claims, expiresAt } = signIdToken(KEY, SUBJECT, NOW + 999);
    expect(token.split('.')).toHaveLength(3);
    const [header, payload] = token.split('.') as [string, string];
    expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(JSON.parse(Buffer.from(payload, 'base64url').toString())).toEqual(claims);
    expect(claims).toEqual({
      iss: 'vitrine',
      aud: 'vitrine-viewer',
      sub: SUBJECT.sub,
      anon: true,
      iat: NOW / 1000,
      exp: NOW / 1000 + 3600,
    });
    expect(expiresAt).toBe(NOW + ID_TOKEN_TTL_MS);
    expect(verifyIdToken(token, KEY, { nowMs: NOW + 1000 })).toEqual(claims);
    // Accepted by any HS256 implementation: the signature is the plain HMAC of header.payload.
    expect(token.split('.')[2]).toBe(hs256(KEY, `${header}.${payload}`));
  });

  it('keeps a non-anonymous subject', () => {
    const { token } = signIdToken(KEY, { sub: 'u1', anon: false }, NOW);
    expect(verifyIdToken(token, KEY, { nowMs: NOW }).anon).toBe(false);
  });

  it('rejects a tampered payload', () => {
    const { token } = signIdToken(KEY, SUBJECT, NOW);
    const [header, , signature] = token.split('.');
    const forged = `${header}.${b64(validClaims({ sub: 'someone-else' }))}.${signature}`;
    expect(reasonOf(forged)).toBe('bad_signature');
    const upgraded = `${header}.${b64(validClaims({ anon: false }))}.${signature}`;
    expect(reasonOf(upgraded)).toBe('bad_signature');
  });

  it('rejects a tampered or foreign signature', () => {
    const { token } = signIdToken(KEY, SUBJECT, NOW);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const flipped = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    expect(reasonOf(`${header}.${payload}.${flipped}`)).toBe('bad_signature');
    expect(reasonOf(`${header}.${payload}.${signature.slice(0, -1)}`)).toBe('bad_signature');
    expect(reasonOf(`${header}.${payload}.${signature}AAAA`)).toBe('bad_signature');
    expect(reasonOf(token, NOW, randomBytes(32))).toBe('bad_signature');
  });

  it('rejects a second base64url spelling of the right signature', () => {
    const { token } = signIdToken(KEY, SUBJECT, NOW);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    // 32 bytes are 43 characters whose last one carries 2 unused bits; changing them keeps the bytes.
    const last = signature.at(-1)!;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const sibling = alphabet[alphabet.indexOf(last) ^ 1]!;
    const respelled = `${signature.slice(0, -1)}${sibling}`;
    expect(Buffer.from(respelled, 'base64url')).toEqual(Buffer.from(signature, 'base64url'));
    expect(reasonOf(`${header}.${payload}.${respelled}`)).toBe('bad_signature');
  });

  it('rejects alg none, RS256 and a missing alg, whatever the signature', () => {
    expect(reasonOf(`${b64({ alg: 'none', typ: 'JWT' })}.${b64(validClaims())}.`)).toBe('malformed');
    expect(reasonOf(`${b64({ alg: 'none', typ: 'JWT' })}.${b64(validClaims())}.c2ln`)).toBe(
      'unsupported_algorithm',
    );
    expect(reasonOf(craft({ alg: 'none' }, validClaims()))).toBe('unsupported_algorithm');
    expect(reasonOf(craft({ alg: 'RS256', typ: 'JWT' }, validClaims()))).toBe('unsupported_algorithm');
    expect(reasonOf(craft({ alg: 'hs256', typ: 'JWT' }, validClaims()))).toBe('unsupported_algorithm');
    expect(reasonOf(craft({ alg: 'HS512', typ: 'JWT' }, validClaims()))).toBe('unsupported_algorithm');
    expect(reasonOf(craft({ typ: 'JWT' }, validClaims()))).toBe('unsupported_algorithm');
  });

  it('rejects unsupported header fields', () => {
    expect(reasonOf(craft({ alg: 'HS256', typ: 'JWE' }, validClaims()))).toBe('malformed');
    expect(reasonOf(craft({ alg: 'HS256', crit: ['exp'] }, validClaims()))).toBe('malformed');
    // A header without typ is still a valid JWS.
    expect(verifyIdToken(craft({ alg: 'HS256' }, validClaims()), KEY, { nowMs: NOW }).sub).toBe(SUBJECT.sub);
  });

  it('rejects an expired token, and accepts it within an explicit grace', () => {
    const { token, expiresAt } = signIdToken(KEY, SUBJECT, NOW);
    expect(verifyIdToken(token, KEY, { nowMs: expiresAt - 1 }).sub).toBe(SUBJECT.sub);
    expect(reasonOf(token, expiresAt)).toBe('expired');
    expect(reasonOf(token, expiresAt + 10 * 60_000)).toBe('expired');
    const grace = { acceptExpiredForMs: 60 * 60_000 };
    expect(verifyIdToken(token, KEY, { nowMs: expiresAt + 59 * 60_000, ...grace }).sub).toBe(SUBJECT.sub);
    expect(() => verifyIdToken(token, KEY, { nowMs: expiresAt + 60 * 60_000, ...grace })).toThrow(
      InvalidTokenError,
    );
  });

  it('tolerates clock skew on iat but rejects a token issued further in the future', () => {
    const { token } = signIdToken(KEY, SUBJECT, NOW + MAX_CLOCK_SKEW_MS);
    expect(verifyIdToken(token, KEY, { nowMs: NOW }).sub).toBe(SUBJECT.sub);
    const { token: tooEarly } = signIdToken(KEY, SUBJECT, NOW + MAX_CLOCK_SKEW_MS + 1000);
    expect(reasonOf(tooEarly, NOW)).toBe('issued_in_future');
  });

  it('rejects a validly signed token of another issuer or without one', () => {
    expect(reasonOf(craft({ alg: 'HS256', typ: 'JWT' }, validClaims({ iss: 'someone-else' })))).toBe(
      'wrong_issuer',
    );
    const { iss: _iss, ...withoutIssuer } = validClaims();
    expect(reasonOf(craft({ alg: 'HS256', typ: 'JWT' }, withoutIssuer))).toBe('wrong_issuer');
  });

  it('rejects a validly signed token for another audience or without one', () => {
    const header = { alg: 'HS256', typ: 'JWT' };
    expect(reasonOf(craft(header, validClaims({ aud: 'vitrine-admin' })))).toBe('wrong_audience');
    expect(reasonOf(craft(header, validClaims({ aud: ['vitrine-viewer', 'other'] })))).toBe('wrong_audience');
    const { aud: _aud, ...withoutAudience } = validClaims();
    expect(reasonOf(craft(header, withoutAudience))).toBe('wrong_audience');
  });

  it('rejects validly signed tokens with missing or mistyped claims', () => {
    const header = { alg: 'HS256', typ: 'JWT' };
    for (const overrides of [
      { sub: undefined },
      { sub: '' },
      { sub: 42 },
      { sub: 'x'.repeat(129) },
      { anon: 'true' },
      { anon: undefined },
      { iat: '1736942400' },
      { exp: undefined },
      { exp: 1.5e9 + 0.5 },
      { exp: Math.floor(NOW / 1000) },
    ]) {
      expect(reasonOf(craft(header, validClaims(overrides))), JSON.stringify(overrides)).toBe('malformed');
    }
    expect(reasonOf(craft(header, [validClaims()]))).toBe('malformed');
    expect(reasonOf(craft(header, 'null'))).toBe('malformed');
  });

  it('rejects malformed strings', () => {
    const { token } = signIdToken(KEY, SUBJECT, NOW);
    const [header, payload] = token.split('.') as [string, string];
    for (const bad of [
      '',
      'abc',
      'a.b',
      'a.b.c.d',
      `${token}.`,
      `.${payload}.sig`,
      `${header}..sig`,
      `${header}.${payload}.`,
      `${header}.${payload}.si g`,
      `${header}.${payload}.sig=`,
      `${header}.${payload}.si+g/`,
      ` ${token}`,
      `${b64('not json')}.${payload}.sig`,
      `${b64('[1]')}.${payload}.sig`,
      `${b64('"HS256"')}.${payload}.sig`,
      'x'.repeat(5000),
      `${header}.${'A'.repeat(5000)}.sig`,
    ]) {
      expect(reasonOf(bad), bad.slice(0, 60)).toBe('malformed');
    }
    // A payload that is not JSON but signed with the key is still refused as malformed.
    const signedGarbage = `${header}.${b64('{oops')}`;
    expect(reasonOf(`${signedGarbage}.${hs256(KEY, signedGarbage)}`)).toBe('malformed');
  });

  it('gives every error a reason and a message', () => {
    try {
      verifyIdToken('abc', KEY, { nowMs: NOW });
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidTokenError);
      expect(error).toBeInstanceOf(Error);
      expect((error as InvalidTokenError).reason).toBe('malformed');
      expect((error as Error).message).toBe('The token is not a compact JWT.');
      return;
    }
    throw new Error('not thrown');
  });
});
