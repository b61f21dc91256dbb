import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { WEB_PATHS } from '@vitrine/protocol';
import type { FastifyBaseLogger } from 'fastify';
import * as oidc from 'openid-client';
import type { OidcProviderConfig } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { HttpError } from '../../http/errors.ts';
import type { VerifiedIdentity } from './account-service.ts';

/** How long a started sign-in may take to come back. */
export const OIDC_FLOW_TTL_MS = 10 * 60_000;

const isLoopback = (url: URL) => ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);

const hashFlowSecret = (secret: string) => createHash('sha256').update(secret).digest();

export const FLOW_NOT_FOUND_MESSAGE = 'This sign-in has expired or was already completed; start again.';
/**
 * A callback presented by a browser (or session) that did not start the flow: e.g. a victim who
 * opens an attacker's half-finished callback link. Refused so the attacker's identity is never
 * linked to the victim's account.
 */
export const FOREIGN_FLOW_MESSAGE = 'This sign-in was started in another browser or session; start again.';

/**
 * OpenID Connect sign-in (authorization code + PKCE, with state and nonce) through openid-client.
 * The verifier and nonce stay on the server (oidc_flows), keyed by the state the provider
 * returns; the browser only carries the state and the code.
 */
export function createOidcService(
  db: Database,
  providers: readonly OidcProviderConfig[],
  options: { now: () => number; log?: FastifyBaseLogger },
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
   * Where the provider returns: the provider's configured redirectUri, else the web app's
   * /auth/callback on this server's own origin. Never the caller's Origin header: a web app on
   * another origin than the API configures its redirectUri.
   */
  const redirectUri = (config: OidcProviderConfig, serverOrigin: string) =>
    config.redirectUri ?? new URL(WEB_PATHS.authCallback, serverOrigin).href;

  return {
    providers: () => providers.map(({ id, name }) => ({ id, name })),

    /**
     * `serverOrigin`: this server's origin (the default redirect URI's); `startedBy`: the user
     * whose id token came with the request, or null. The answer's flowSecret stays with the
     * browser and must come back with the callback.
     */
    async start(
      providerId: string,
      serverOrigin: string,
      startedBy: string | null,
    ): Promise<{ authorizationUrl: string; state: string; flowSecret: string }> {
      const config = provider(providerId);
      let client: oidc.Configuration;
      try {
        client = await configuration(config);
      } catch (error) {
        // The library's message stays in the log: it can name internal hosts and addresses.
        options.log?.warn({ err: error, provider: config.id }, 'OIDC discovery failed');
        throw new HttpError(
          502,
          'provider_unavailable',
          `The sign-in provider "${config.name}" is not reachable.`,
        );
      }
      const codeVerifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const flowSecret = randomBytes(32).toString('base64url');
      await db.query('DELETE FROM oidc_flows WHERE expires_at < $1', [options.now()]);
      await db.query(
        `INSERT INTO oidc_flows
           (state, provider_id, code_verifier, nonce, redirect_uri, expires_at, flow_secret_hash, started_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          state,
          config.id,
          codeVerifier,
          nonce,
          redirectUri(config, serverOrigin),
          options.now() + OIDC_FLOW_TTL_MS,
          hashFlowSecret(flowSecret).toString('base64url'),
          startedBy,
        ],
      );
      const url = oidc.buildAuthorizationUrl(client, {
        redirect_uri: redirectUri(config, serverOrigin),
        scope: config.scope,
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      return { authorizationUrl: url.href, state, flowSecret };
    },

    /**
     * Finishes a flow from the URL the provider redirected to; each state works once, and only
     * with the flow's secret and the caller (`completedBy`, the user uid or null) that started it.
     */
    async complete(
      callbackUrl: string,
      flowSecret: string,
      completedBy: string | null,
    ): Promise<VerifiedIdentity> {
      let url: URL;
      try {
        url = new URL(callbackUrl);
      } catch {
        throw new HttpError(400, 'invalid_request', 'callbackUrl: must be a URL');
      }
      const state = url.searchParams.get('state');
      if (!state) throw new HttpError(400, 'invalid_request', 'callbackUrl: has no state parameter');
      // A foreign browser's attempt deletes nothing: the flow stays for the browser that owns it.
      const [found] = await db.query<{ flow_secret_hash: string; started_by: string | null }>(
        'SELECT flow_secret_hash, started_by FROM oidc_flows WHERE state = $1 AND expires_at > $2',
        [state, options.now()],
      );
      if (!found) throw new HttpError(400, 'invalid_request', FLOW_NOT_FOUND_MESSAGE);
      const expectedSecret = Buffer.from(found.flow_secret_hash, 'base64url');
      const givenSecret = hashFlowSecret(flowSecret);
      if (
        expectedSecret.length !== givenSecret.length ||
        !timingSafeEqual(expectedSecret, givenSecret) ||
        found.started_by !== completedBy
      ) {
        throw new HttpError(403, 'forbidden', FOREIGN_FLOW_MESSAGE);
      }
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
      if (!flow) throw new HttpError(400, 'invalid_request', FLOW_NOT_FOUND_MESSAGE);
      const config = provider(flow.provider_id);
      const expected = new URL(flow.redirect_uri);
      if (url.origin !== expected.origin || url.pathname !== expected.pathname) {
        throw new HttpError(400, 'invalid_request', "callbackUrl: is not this provider's redirect URI");
      }
      const providerError = url.searchParams.get('error');
      if (providerError) {
        // An OAuth error code is a short snake_case word; anything else in the URL is not echoed.
        const code = /^[a-z_]{1,64}$/.test(providerError) ? providerError : 'error';
        throw new HttpError(401, 'unauthenticated', `The sign-in provider refused: ${code}.`);
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
        // Only an address the provider says it verified: an unverified claim is whatever the
        // user typed at the provider, and attaching it would hand them someone else's address.
        const email =
          typeof claims.email === 'string' && claims.email_verified === true
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
        // The library's reason is logged, not answered: it describes our client and the provider.
        options.log?.info({ err: error, provider: config.id }, 'OIDC sign-in could not be completed');
        throw new HttpError(
          401,
          'unauthenticated',
          `The sign-in with ${config.name} could not be completed.`,
        );
      }
    },
  };
}

export type OidcService = ReturnType<typeof createOidcService>;
