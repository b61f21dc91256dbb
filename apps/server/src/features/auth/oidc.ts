import * as oidc from 'openid-client';
import { z } from 'zod';
import type { Database } from '../../db/database.ts';
import { HttpError } from '../../http/errors.ts';
import type { VerifiedIdentity } from './account-service.ts';

/** A social sign-in provider, as configured in VITRINE_OIDC_PROVIDERS (a JSON array). */
export const OidcProviderConfig = z
  .object({
    id: z.string().regex(/^[a-z0-9-]{1,64}$/, 'must be lowercase letters, digits and "-"'),
    name: z.string().min(1),
    issuer: z.url(),
    clientId: z.string().min(1),
    clientSecret: z.string().min(1).optional(),
    /** Where the provider sends the browser back; the web app's /auth/callback by default. */
    redirectUri: z.url().optional(),
    scope: z.string().default('openid email profile'),
  })
  .strict();
export type OidcProviderConfig = z.infer<typeof OidcProviderConfig>;
export const OidcProviderList = z.array(OidcProviderConfig);

/** How long a started sign-in may take to come back. */
export const OIDC_FLOW_TTL_MS = 10 * 60_000;

const isLoopback = (url: URL) => ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);

/**
 * OpenID Connect sign-in (authorization code + PKCE, with state and nonce) through openid-client.
 * The verifier and nonce stay on the server (oidc_flows), keyed by the state the provider
 * returns; the browser only carries the state and the code.
 */
export function createOidcService(
  db: Database,
  providers: readonly OidcProviderConfig[],
  options: { now: () => number },
) {
  const discovered = new Map<string, Promise<oidc.Configuration>>();

  function provider(id: string): OidcProviderConfig {
    const found = providers.find((candidate) => candidate.id === id);
    if (!found) throw new HttpError(404, 'not_found', `No sign-in provider "${id}".`);
    return found;
  }

  function configuration(config: OidcProviderConfig): Promise<oidc.Configuration> {
    let pending = discovered.get(config.id);
    if (!pending) {
      const issuer = new URL(config.issuer);
      pending = oidc.discovery(
        issuer,
        config.clientId,
        config.clientSecret,
        undefined,
        // Plain http only for a provider on this machine (development and tests).
        isLoopback(issuer) ? { execute: [oidc.allowInsecureRequests] } : undefined,
      );
      discovered.set(config.id, pending);
      pending.catch(() => discovered.delete(config.id));
    }
    return pending;
  }

  /**
   * Where the provider returns: the configured URI, else the web app's /auth/callback on the
   * origin the sign-in was started from (the page's Origin). A made-up origin only yields a URI
   * the provider has not registered, so the provider refuses it.
   */
  const redirectUri = (config: OidcProviderConfig, appOrigin: string) =>
    config.redirectUri ?? new URL('/auth/callback', appOrigin).href;

  return {
    providers: () => providers.map(({ id, name }) => ({ id, name })),

    /** `appOrigin`: the web app's origin (the request's Origin header, else this server's). */
    async start(providerId: string, appOrigin: string): Promise<{ authorizationUrl: string; state: string }> {
      const config = provider(providerId);
      let client: oidc.Configuration;
      try {
        client = await configuration(config);
      } catch (error) {
        throw new HttpError(
          502,
          'provider_unavailable',
          `The sign-in provider "${config.name}" is not reachable.`,
          {
            cause: String((error as Error).message),
          },
        );
      }
      const codeVerifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      await db.query('DELETE FROM oidc_flows WHERE expires_at < $1', [options.now()]);
      await db.query(
        `INSERT INTO oidc_flows (state, provider_id, code_verifier, nonce, redirect_uri, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [
          state,
          config.id,
          codeVerifier,
          nonce,
          redirectUri(config, appOrigin),
          options.now() + OIDC_FLOW_TTL_MS,
        ],
      );
      const url = oidc.buildAuthorizationUrl(client, {
        redirect_uri: redirectUri(config, appOrigin),
        scope: config.scope,
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      return { authorizationUrl: url.href, state };
    },

    /** Finishes a flow from the URL the provider redirected to; each state works once. */
    async complete(callbackUrl: string): Promise<VerifiedIdentity> {
      let url: URL;
      try {
        url = new URL(callbackUrl);
      } catch {
        throw new HttpError(400, 'invalid_request', 'callbackUrl: must be a URL');
      }
      const state = url.searchParams.get('state');
      if (!state) throw new HttpError(400, 'invalid_request', 'callbackUrl: has no state parameter');
      const [flow] = await db.query<{
        provider_id: string;
        code_verifier: string;
        nonce: string;
        redirect_uri: string;
      }>(
        `DELETE FROM oidc_flows WHERE state = $1 AND expires_at > $2
         RETURNING provider_id, code_verifier, nonce, redirect_uri`,
        [state, options.now()],
      );
      if (!flow) {
        throw new HttpError(
          400,
          'invalid_request',
          'This sign-in has expired or was already completed; start again.',
        );
      }
      const config = provider(flow.provider_id);
      const expected = new URL(flow.redirect_uri);
      if (url.origin !== expected.origin || url.pathname !== expected.pathname) {
        throw new HttpError(400, 'invalid_request', "callbackUrl: is not this provider's redirect URI");
      }
      const providerError = url.searchParams.get('error');
      if (providerError) {
        throw new HttpError(401, 'unauthenticated', `The sign-in provider refused: ${providerError}.`);
      }
      try {
        const tokens = await oidc.authorizationCodeGrant(await configuration(config), url, {
          pkceCodeVerifier: flow.code_verifier,
          expectedState: state,
          expectedNonce: flow.nonce,
          idTokenExpected: true,
        });
        const idClaims = tokens.claims();
        if (!idClaims) throw new Error('no id token claims');
        // Providers may keep profile claims out of the id token; the userinfo endpoint has them
        // (checked against the id token's subject).
        const client = await configuration(config);
        const claims: Record<string, unknown> & { sub: string } = client.serverMetadata().userinfo_endpoint
          ? { ...idClaims, ...(await oidc.fetchUserInfo(client, tokens.access_token, idClaims.sub)) }
          : idClaims;
        const email =
          typeof claims.email === 'string' && claims.email_verified !== false
            ? claims.email.toLowerCase()
            : null;
        return {
          providerId: config.id,
          subject: claims.sub,
          email,
          name: typeof claims.name === 'string' ? claims.name.slice(0, 60) : null,
          avatar:
            typeof claims.picture === 'string' && /^https?:\/\//.test(claims.picture) ? claims.picture : null,
        };
      } catch (error) {
        throw new HttpError(
          401,
          'unauthenticated',
          `The sign-in with ${config.name} could not be completed.`,
          {
            reason: (error as Error).message,
          },
        );
      }
    },
  };
}

export type OidcService = ReturnType<typeof createOidcService>;
