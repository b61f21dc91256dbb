import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startServer } from './support/server-process.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    adminKey: string;
    /** The demo retailer site on a second origin (apps/demo-retailer), e.g. http://127.0.0.1:PORT. */
    retailerUrl: string;
  }
}

/** One real server with a fresh embedded database and the demo seed for the browser tests. */
export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(join(tmpdir(), 'vitrine-e2e-'));
  const adminKey = 'e2e-admin-key-0123456789';
  const server = await startServer({ VITRINE_DATA_DIR: dataDir, VITRINE_ADMIN_KEY: adminKey });
  project.provide('baseUrl', server.url);
  if (!server.retailerUrl) {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
    throw new Error('the server did not serve the demo retailer');
  }
  project.provide('retailerUrl', server.retailerUrl);
  project.provide('adminKey', adminKey);
  return async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
