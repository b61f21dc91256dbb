import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/**
 * A real OpenID Connect provider (the `oidc-provider` package) on a loopback port, for tests
 * and e2e: one confidential client, PKCE required, and its development login and consent
 * pages, where any login name signs in as the account of that name (claims: email
 * `<login>@social.example`, name `Social <login>`).
 */
export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The VITRINE_OIDC_PROVIDERS entry for a server whose redirect URI is `redirectUri`. */
  providerConfig(redirectUri: string): Record<string, string>;
  close(): Promise<void>;
}

export async function startTestOidcProvider(options: { redirectUris: string[] }): Promise<TestOidcProvider> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'vitrine-test';
  const clientSecret = 'vitrine-test-secret-0123456789';
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    pkce: { required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    findAccount: (_context, id) => ({
      accountId: id,
      claims: () => ({ sub: id, email: `${id}@social.example`, email_verified: true, name: `Social ${id}` }),
    }),
    cookies: { keys: ['oidc-test-cookie-key'] },
    features: { devInteractions: { enabled: true } },
  });
  server.on('request', provider.callback());
  return {
    issuer,
    clientId,
    clientSecret,
    providerConfig: (redirectUri) => ({
      id: 'testid',
      name: 'Test ID',
      issuer,
      clientId,
      clientSecret,
      redirectUri,
    }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
