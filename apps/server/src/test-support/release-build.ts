import { buildRelease } from '../../../../scripts/build.mjs';

const ROOT = new URL('../../../../', import.meta.url).pathname;

/** The release's server entry points (scripts/server-entries.json), as dist/server/NAME.mjs. */
export type ReleaseEntry = keyof typeof import('../../../../scripts/server-entries.json');

/**
 * Where the release build keeps an entry point. Tests that start the server or a tool as its own
 * process run this build, as an operator does, rather than the TypeScript through tsx: loading the
 * sources that way costs about 5 core-seconds more a server start, and a second or more a tool run.
 * The test runs' global set-ups bring the build up to date first (updateReleaseBuild), so a test
 * never runs code older than the sources.
 */
export function releaseEntry(name: ReleaseEntry): string {
  return `${ROOT}dist/server/${name}.mjs`;
}

/**
 * Rebuilds the steps of the release build whose sources changed since they were built (all of them
 * in a checkout never built): what `npm start` does. Once per test run, before any test file
 * starts a built process; a no-op when `npm test` or the CI has just built.
 */
export async function updateReleaseBuild(): Promise<void> {
  await buildRelease({
    changedOnly: true,
    log: (line) => process.stdout.write(`release build for the tests: ${line}\n`),
  });
}
