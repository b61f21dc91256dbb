import { cachedMigratedPgliteTemplate, PGLITE_TEMPLATE_ENV } from './pglite-template.ts';
import { createMigratedPostgresTemplate, POSTGRES_TEMPLATE_ENV } from './postgres-template.ts';
import { updateReleaseBuild } from './release-build.ts';

/**
 * The server project's set-up, once per run before any test file: the migrated database every
 * test database is copied from, a PGlite data directory kept between runs (pglite-template.ts) or, with
 * DATABASE_URL, a template database on that PostgreSQL server (postgres-template.ts). Test files
 * run in processes started after this, so they inherit the variable naming it.
 */
export default async function setup() {
  // The tests that start the server or a tool as a process run the release build (release-build.ts).
  await updateReleaseBuild();
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const template = await createMigratedPostgresTemplate(serverUrl);
    process.env[POSTGRES_TEMPLATE_ENV] = template.name;
    return async () => {
      delete process.env[POSTGRES_TEMPLATE_ENV];
      await template.drop();
    };
  }
  process.env[PGLITE_TEMPLATE_ENV] = await cachedMigratedPgliteTemplate();
  return () => {
    delete process.env[PGLITE_TEMPLATE_ENV];
  };
}
