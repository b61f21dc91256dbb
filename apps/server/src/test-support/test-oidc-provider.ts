/// <reference path="../features/auth/oidc-provider.d.ts" />
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/**
 * A real OpenID Connect provider (the `oidc-provider` package) on a loopback port, for tests
 * and e2e: one confidential client, PKCE required, and its development login and consent
 * pages, where any login name signs in as the account of that name (claims: email
 * `<login>@social.example`, verified unless the login starts with "unverified", name
 * `Social <login>`).
 *
 * The issuer URL is known as soon as this resolves; redirect URIs may be registered until the
 * first request (e2e learns the server's port only after starting it with the issuer).
 */
export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Registers more redirect URIs; only before the provider's first request. */
  addRedirectUris(uris: string[]): void;
  /** A VITRINE_OIDC_PROVIDERS entry; without `redirectUri` the server uses its own /auth/callback. */
  providerConfig(redirectUri?: string): Record<string, string>;
  close(): Promise<void>;
}

export async function startTestOidcProvider(
  options: { redirectUris?: string[] } = {},
): Promise<TestOidcProvider> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'vitrine-test';
  const clientSecret = 'vitrine-test-secret-0123456789';
  const redirectUris = [...(options.redirectUris ?? [])];
  let handler: ReturnType<Provider['callback']> | undefined;

  function provider() {
    return new Provider(issuer, {
      clients: [
        {
          client_id: clientId,
          client_secret: clientSecret,
          redirect_uris: redirectUris,
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      pkce: { required: () => true },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      findAccount: (_context, id) => ({
        accountId: id,
        claims: () => ({
          sub: id,
          email: `${id}@social.example`,
          // No email_verified claim at all for "unverified…" logins (a provider that does not say).
          ...(id.startsWith('unverified') ? {} : { email_verified: true }),
          name: `Social ${id}`,
        }),
      }),
      cookies: { keys: ['oidc-test-cookie-key'] },
      features: { devInteractions: { enabled: true } },
    });
  }

  server.on('request', (request, response) => {
    handler ??= provider().callback();
    handler(request, response);
  });
  return {
    issuer,
    clientId,
    clientSecret,
    addRedirectUris(uris) {
      if (handler) throw new Error('redirect URIs must be registered before the first request');
      redirectUris.push(...uris);
    },
    providerConfig: (redirectUri) => ({
      id: 'testid',
      name: 'Test ID',
      issuer,
      clientId,
      clientSecret,
      ...(redirectUri ? { redirectUri } : {}),
    }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
