import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGLITE_TEMPLATE_ENV, writeMigratedPgliteTemplate } from './pglite-template.ts';

/**
 * The server project's set-up, once per run before any test file: the migrated PGlite database
 * every test database is copied from (see pglite-template.ts). Test files run in processes
 * started after this, so they inherit the variable naming it. On PostgreSQL (DATABASE_URL) each
 * test file migrates its own schema as before.
 */
export default async function setup() {
  if (process.env.DATABASE_URL) return;
  const dir = mkdtempSync(join(tmpdir(), 'vitrine-pglite-template-'));
  const file = join(dir, 'migrated.tar');
  await writeMigratedPgliteTemplate(file);
  process.env[PGLITE_TEMPLATE_ENV] = file;
  return () => {
    delete process.env[PGLITE_TEMPLATE_ENV];
    rmSync(dir, { recursive: true, force: true });
  };
}
