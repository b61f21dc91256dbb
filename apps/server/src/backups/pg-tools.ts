import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { pgToolMajorVersion } from '@vitrine/domain';

const run = promisify(execFile);

/**
 * A PostgreSQL client tool's major version (`pg_dump --version`), or a message saying it is not
 * installed: the backup of a PostgreSQL database uses the system's pg_dump and pg_restore, the
 * tools every PostgreSQL operator already knows and trusts with the custom format.
 */
export async function pgToolVersion(tool: 'pg_dump' | 'pg_restore'): Promise<number> {
  let stdout: string;
  try {
    ({ stdout } = await run(tool, ['--version']));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new Error(
        `${tool} is not installed (or not on PATH): install the PostgreSQL client tools of the server's version (Debian: apt-get install postgresql-client).`,
      );
    throw error;
  }
  const major = pgToolMajorVersion(stdout);
  if (major === null)
    throw new Error(`${tool} --version answered "${stdout.trim()}", not a PostgreSQL version.`);
  return major;
}

/**
 * The connection for a tool: the URL without its password on the command line (other users see
 * command lines in `ps`), the password in PGPASSWORD.
 */
function connection(databaseUrl: string): { url: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return { url: url.toString(), env: password ? { ...process.env, PGPASSWORD: password } : process.env };
}

/** Runs a tool; throws with its own error output when it fails. */
async function runTool(tool: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  try {
    await run(tool, args, { env, maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new Error(`${tool} failed${stderr ? `:\n${stderr}` : `: ${String(error)}`}`);
  }
}

/** The whole database in pg_dump's custom format (compressed, restorable table by table). */
export async function pgDump(databaseUrl: string, file: string): Promise<void> {
  const { url, env } = connection(databaseUrl);
  await runTool(
    'pg_dump',
    ['--format=custom', '--no-owner', '--no-privileges', `--file=${file}`, `--dbname=${url}`],
    env,
  );
}

/**
 * Restores a custom-format archive in one transaction: a failure leaves the database as it was.
 * Owners and grants are left out both ways, so the restoring role owns what it restores.
 */
export async function pgRestore(databaseUrl: string, file: string): Promise<void> {
  const { url, env } = connection(databaseUrl);
  await runTool(
    'pg_restore',
    ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${url}`, file],
    env,
  );
}
