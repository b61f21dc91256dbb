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

/** The methods the browser tests call the server's API with. */
export type TestCallMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * A call to this worker's server with a bearer token (a staff member's or shopper's session; the
 * admin key calls as the store's owner), or with none (a shopper before signing in), that must
 * succeed (2xx); answers its JSON body, or null when it has none. The failure names the call and
 * carries the server's answer.
 */
export async function bearerCall<T = unknown>(
  token: string | undefined,
  method: TestCallMethod,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${testServer().baseUrl}${path}`, {
    method,
    headers: {
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

/**
 * An admin-key call (automation's way to set up stores, shows and products) that must succeed:
 * bearerCall with the admin key, and an empty object for a body by default.
 */
export function adminCall<T = unknown>(
  method: Exclude<TestCallMethod, 'GET'>,
  path: string,
  body: unknown = {},
): Promise<T> {
  return bearerCall<T>(testServer().adminKey, method, path, body);
}
