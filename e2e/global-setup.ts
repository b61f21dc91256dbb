import { mkdtempSync, openAsBlob, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { openPgliteDatabase } from '../apps/server/src/db/pglite-database.ts';
import { cachedMigratedPgliteTemplate } from '../apps/server/src/test-support/pglite-template.ts';
import { updateReleaseBuild } from '../apps/server/src/test-support/release-build.ts';
import { startSmtpTestServer } from '../apps/server/src/test-support/smtp-test-server.ts';
import { startTestOidcProvider } from '../apps/server/src/test-support/test-oidc-provider.ts';
import { SHARED_BROWSERS_ENV, startSharedBrowsers } from './support/browser.ts';
import { DATABASE_TEMPLATE_ENV, startServer } from './support/server-process.ts';
import type { TestServer } from './support/test-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * One server per worker of the e2e project, index = VITEST_POOL_ID - 1: read it through
     * `testServer()` (e2e/support/test-server.ts), which picks the calling worker's.
     */
    testServers: TestServer[];
  }
}

/**
 * One real server per worker of the e2e project (vitest.config.ts sets how many: one, or
 * VITRINE_E2E_WORKERS), each with its own fresh embedded database and demo seed, SMTP server and
 * OIDC provider: a file may ban shoppers store-wide or expect the demo shows as it left them, so two
 * files running at once must never share a server. The pool gives a worker id to one file at a
 * time, so each server serves one file at a time. Beside them, the shared Chromiums the files
 * connect to (e2e/support/browser.ts).
 */
export default async function setup(project: TestProject) {
  // The servers run the release build, and serve its web app: both as the sources are now.
  await updateReleaseBuild();
  // The migrated embedded database every server of this run starts from (see DATABASE_TEMPLATE_ENV);
  // test files run in processes started after this, so they inherit the variable too.
  const templateDir = mkdtempSync(join(tmpdir(), 'vitrine-e2e-database-'));
  try {
    // From the migrated database the integration suite keeps between runs (made here if missing);
    // migrate() then only confirms that no migration is missing.
    const migrated = await openAsBlob(await cachedMigratedPgliteTemplate());
    const template = await openPgliteDatabase(templateDir, { startFrom: migrated });
    await migrate(template).finally(() => template.close());
  } catch (error) {
    rmSync(templateDir, { recursive: true, force: true });
    throw error;
  }
  process.env[DATABASE_TEMPLATE_ENV] = templateDir;
  const removeTemplate = () => {
    delete process.env[DATABASE_TEMPLATE_ENV];
    rmSync(templateDir, { recursive: true, force: true });
  };
  const workers = project.config.maxWorkers;
  const [[browsers], started] = await Promise.all([
    Promise.allSettled([startSharedBrowsers()]),
    Promise.allSettled(Array.from({ length: workers }, () => startTestServer())),
  ]);
  const servers = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const stopAll = async () => {
    await Promise.all(servers.map((server) => server.stop()));
    if (browsers.status === 'fulfilled') await browsers.value.close();
    delete process.env[SHARED_BROWSERS_ENV];
    removeTemplate();
  };
  const failed = [browsers, ...started].find((result) => result.status === 'rejected');
  if (failed) {
    await stopAll();
    throw failed.reason;
  }
  // The Chromiums the test files connect to (e2e/support/browser.ts), inherited like the template.
  if (browsers.status === 'fulfilled') process.env[SHARED_BROWSERS_ENV] = browsers.value.endpoints;
  project.provide(
    'testServers',
    servers.map((server) => server.context),
  );
  return stopAll;
}

/** A server with the demo seed, its own SMTP server and OIDC provider, and what the tests need to reach them. */
async function startTestServer(): Promise<{ context: TestServer; stop(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vitrine-e2e-'));
  const mailDir = mkdtempSync(join(tmpdir(), 'vitrine-e2e-mail-'));
  const adminKey = 'e2e-admin-key-0123456789-abcdefghij';
  const cleanUps: (() => Promise<void> | void)[] = [
    () => rmSync(dataDir, { recursive: true, force: true }),
    () => rmSync(mailDir, { recursive: true, force: true }),
  ];
  const stop = async () => {
    // Last started, first stopped: the server before the mail and sign-in services it talks to.
    for (const cleanUp of cleanUps.reverse()) await cleanUp();
  };
  try {
    // A real OIDC provider for social sign-in; the server's /auth/callback is registered once its port is known.
    const oidc = await startTestOidcProvider();
    cleanUps.push(() => oidc.close());
    // A real SMTP server the server sends its mails to (order confirmations, invitations).
    const smtp = await startSmtpTestServer({ saveTo: mailDir });
    cleanUps.push(() => smtp.close());
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
    cleanUps.push(() => server.stop());
    oidc.addRedirectUris([`${server.url}/auth/callback`]);
    if (!server.retailerUrl) throw new Error('the server did not serve the demo retailer');
    if (!server.studioLink) throw new Error('the server did not print a studio link for the demo owner');
    return {
      context: {
        baseUrl: server.url,
        adminKey,
        retailerUrl: server.retailerUrl,
        oidcIssuer: oidc.issuer,
        studioLink: server.studioLink,
        mailDir,
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
