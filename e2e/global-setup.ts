import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startSmtpTestServer } from '../apps/server/src/test-support/smtp-test-server.ts';
import { startTestOidcProvider } from '../apps/server/src/test-support/test-oidc-provider.ts';
import { startServer } from './support/server-process.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    adminKey: string;
    /** The demo retailer site on a second origin (apps/demo-retailer), e.g. http://127.0.0.1:PORT. */
    retailerUrl: string;
    /** The test OpenID Connect provider behind the "Test ID" social sign-in (any login name works). */
    oidcIssuer: string;
    /**
     * The one-time studio link the server printed for the demo owner: one test (the retailer's
     * journey) signs in with it; others sign staff in with e2e/support/studio.ts.
     */
    studioLink: string;
    /** Where the test SMTP server (the server's SMTP_URL) saves each mail it receives, as .eml. */
    mailDir: string;
  }
}

/** One real server with a fresh embedded database and the demo seed for the browser tests. */
export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(join(tmpdir(), 'vitrine-e2e-'));
  const adminKey = 'e2e-admin-key-0123456789';
  // A real OIDC provider for social sign-in; the server's /auth/callback is registered once its port is known.
  const oidc = await startTestOidcProvider();
  // A real SMTP server the server sends its mails to (order confirmations, invitations).
  const mailDir = mkdtempSync(join(tmpdir(), 'vitrine-e2e-mail-'));
  const smtp = await startSmtpTestServer({ saveTo: mailDir });
  project.provide('mailDir', mailDir);
  const server = await startServer({
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Nordlys Living <shop@nordlys.example>',
    VITRINE_DATA_DIR: dataDir,
    VITRINE_ADMIN_KEY: adminKey,
    VITRINE_OIDC_PROVIDERS: JSON.stringify([oidc.providerConfig()]),
    VITRINE_PRINT_STUDIO_LINK: '1',
    // Every shopper and staff member of the browser tests signs up from this machine's address.
    VITRINE_SIGN_UP_LIMIT: '500/600',
    // …and every viewer of every browser test tracks (and sends watch heartbeats) from it too.
    VITRINE_TRACKING_LIMIT: '100000',
  });
  oidc.addRedirectUris([`${server.url}/auth/callback`]);
  project.provide('oidcIssuer', oidc.issuer);
  project.provide('baseUrl', server.url);
  if (!server.retailerUrl) {
    await server.stop();
    await oidc.close();
    await smtp.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(mailDir, { recursive: true, force: true });
    throw new Error('the server did not serve the demo retailer');
  }
  project.provide('retailerUrl', server.retailerUrl);
  project.provide('adminKey', adminKey);
  if (!server.studioLink) throw new Error('the server did not print a studio link for the demo owner');
  project.provide('studioLink', server.studioLink);
  return async () => {
    await server.stop();
    await oidc.close();
    await smtp.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(mailDir, { recursive: true, force: true });
  };
}
