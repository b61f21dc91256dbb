import { Writable } from 'node:stream';
import type { OidcProvidersResponse } from '@vitrine/protocol';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { type Config, loadConfig } from '../config.ts';
import { registerErrorHandling } from './errors.ts';
import { registerCall, setResponseChecking } from './register-call.ts';

const ADMIN_KEY = 'a-real-key-of-the-operator-0123456789';
const configOf = (env: Record<string, string>) => loadConfig({ VITRINE_ADMIN_KEY: ADMIN_KEY, ...env }, false);

const servers: ReturnType<typeof Fastify>[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/**
 * A server as the composition sets it up, serving one call whose handler drifts from the
 * response schema (`providers` must be a list), with its log lines kept.
 */
async function driftingServer(checking: Config['checkResponses']) {
  const lines: { level: number; msg: string; call?: string }[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const server = Fastify({ logger: { level: 'info', stream } });
  servers.push(server);
  registerErrorHandling(server);
  setResponseChecking(server, checking);
  registerCall(
    server,
    'oidcProviders',
    async () => ({ providers: 'none' }) as unknown as OidcProvidersResponse,
  );
  const answer = await server.inject({ method: 'POST', url: '/functions/auth/oidc/providers', payload: {} });
  return { answer, warnings: lines.filter((line) => line.level === 40) };
}

describe('response checking (VITRINE_CHECK_RESPONSES)', () => {
  it('fails on a drift in tests and development, and is off in production unless set', () => {
    expect(configOf({ NODE_ENV: 'test' }).checkResponses).toBe('fail');
    expect(configOf({}).checkResponses).toBe('fail');
    expect(configOf({ NODE_ENV: 'production' }).checkResponses).toBe('off');
    expect(configOf({ NODE_ENV: 'production', VITRINE_CHECK_RESPONSES: 'warn' }).checkResponses).toBe('warn');
    expect(() => configOf({ VITRINE_CHECK_RESPONSES: 'maybe' })).toThrow(/VITRINE_CHECK_RESPONSES/);
  });

  it('makes an answer that drifts from its schema a 500 in test mode', async () => {
    const { answer } = await driftingServer(configOf({ NODE_ENV: 'test' }).checkResponses);
    expect(answer.statusCode).toBe(500);
  });

  it('answers a shopper as is in production: a logged warning with "warn", nothing checked by default', async () => {
    const warned = await driftingServer(
      configOf({ NODE_ENV: 'production', VITRINE_CHECK_RESPONSES: 'warn' }).checkResponses,
    );
    expect(warned.answer.statusCode).toBe(200);
    expect(warned.answer.json()).toEqual({ providers: 'none' });
    expect(warned.warnings).toEqual([
      expect.objectContaining({
        call: 'oidcProviders',
        msg: expect.stringMatching(/answer of oidcProviders does not fit its response schema: providers/),
      }),
    ]);

    const unchecked = await driftingServer(configOf({ NODE_ENV: 'production' }).checkResponses);
    expect(unchecked.answer.statusCode).toBe(200);
    expect(unchecked.warnings).toEqual([]);
  });
});
