import { inject } from 'vitest';

/** The server a browser test file talks to, started by e2e/global-setup.ts. */
export interface TestServer {
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

/**
 * This worker's server. Vitest numbers the workers running at one time 1…maxWorkers
 * (VITEST_POOL_ID) and hands a number to one test file at a time, so a file has its server to
 * itself, as when every file ran one after another against one server.
 */
export function testServer(): TestServer {
  const servers = inject('testServers');
  const poolId = Number(process.env.VITEST_POOL_ID);
  const server = servers[poolId - 1];
  if (!server) {
    throw new Error(`no test server for worker ${process.env.VITEST_POOL_ID} (${servers.length} started)`);
  }
  return server;
}

/**
 * An admin-key call to this worker's server (automation's way to set up stores, shows and
 * products) that must answer 200; the failure names the call and carries the server's answer.
 */
export async function adminCall(method: 'PUT' | 'POST', path: string, body: unknown = {}): Promise<void> {
  const { baseUrl, adminKey } = testServer();
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${adminKey}` },
    body: JSON.stringify(body),
  });
  if (response.status !== 200) {
    throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  }
}
